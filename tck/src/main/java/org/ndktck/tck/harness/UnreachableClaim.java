package org.ndktck.tck.harness;

/**
 * A coverage claim (every class of input a generator must produce appears in a property's tries, or every kind of
 * step appears in an action chain's steps) that a provider kept out of reach by what the pages allow it: chains it cut
 * short by refusing calls for lack of resources (STATUS_INSUFFICIENT_RESOURCES, which the pages allow any call). A
 * claim an explicit {@code --tries} / {@code ndk.tck.tries} cannot reach is a {@link #note} instead. It is thrown from the claim's coverage
 * check after the property's tries, never from a try (so it is not shrunk); {@link KitLifecycle} turns it into an
 * aborted property whose message starts with {@value #PREFIX}, so its rules are UNTESTED with the reason, never PASS
 * on a claim nobody checked and never FAIL for what the provider may do.
 */
public final class UnreachableClaim extends AssertionError {
    /** Start of the note of a property that passed with a claim its explicit try count could not reach ({@link #note}). */
    public static final String NOTE = "coverage claim not reached: ";

    private static volatile String noted;

    /**
     * Notes a claim that the user's explicit {@code --tries} / {@code ndk.tck.tries} cannot reach: the property's checks
     * ran and are judged as usual (its rules PASS or FAIL on them), and its record's message, report.json's
     * {@code properties[].message} and the rule's PASS message say which claim was not checked and the tries that
     * check it. The first note of a property is kept.
     *
     * @param label the claim's statistics label
     * @param why   why, and the tries that reach it
     */
    public static void note(String label, String why) {
        if (noted == null) {
            noted = NOTE + "'" + label + "': " + why;
        }
    }

    /** @return the running property's note, cleared, or null */
    static String takeNote() {
        String n = noted;
        noted = null;
        return n;
    }

    /** Start of the message of a property whose coverage claim was not reached. */
    public static final String PREFIX = "UNTESTED: coverage claim not reached: ";

    /**
     * @param label the claim's statistics label
     * @param why   why the tries could not reach it and what reaches it, one line
     */
    public UnreachableClaim(String label, String why) {
        super(PREFIX + "'" + label + "': " + why);
        setStackTrace(new StackTraceElement[0]);
    }
}
