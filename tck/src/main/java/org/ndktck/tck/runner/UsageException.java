package org.ndktck.tck.runner;

/**
 * A usage or setup error of the command line: the runner prints {@link #getMessage()} and the hint on one
 * line to standard error and exits with code 2, never with a stack trace.
 */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String hint;

    /**
     * @param message what is wrong, one line (the value the user gave and what is allowed)
     * @param hint    what to do about it, one short clause (may be empty)
     */
    public UsageException(String message, String hint) {
        super(message);
        this.hint = hint == null ? "" : hint;
    }

    /** @return the hint, possibly empty */
    public String hint() {
        return hint;
    }

    /** @return the message and the hint as the single line the runner prints */
    public String line() {
        String m = oneLine(getMessage());
        return hint.isEmpty() ? m : m + " (hint: " + oneLine(hint) + ")";
    }

    /**
     * @param text any text
     * @return the text with line breaks folded into "; "
     */
    static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*[\\r\\n]+\\s*", "; ");
    }
}
