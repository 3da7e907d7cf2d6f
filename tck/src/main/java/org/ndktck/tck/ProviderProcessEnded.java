package org.ndktck.tck;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rule charged with the end of the process that hosts the provider (a C provider in its host process,
 * {@code isolation=process}: a segmentation fault, a sanitizer's report, or the kill of a call that outlived the kit's
 * call bound). It is a {@link RuleViolation} of the rule of the property that was running (or GEN-TIME-1 for a
 * hang), and it carries the cause as one line that is the same in every property the same provider bug ends the
 * process in: the sanitizer's {@code SUMMARY:} line, else the first backtrace frame in the provider's library, else
 * how the process ended. The runner groups the run's failures by that cause (report.json {@code failureCauses}:
 * {@code provider process ended: CAUSE}) and reruns a property whose first failure this is alone, in a fresh host
 * process, before the rule stays charged ({@code org.ndktck.tck.runner.CrashConfirmation}).
 *
 * <p>The message's first line is {@code [RULE] provider process ended, cause: CAUSE} (and {@value #HANG} for a hung
 * call), then the account. The harness re-throws some violations as plain {@link RuleViolation}s with the message
 * kept (a worker thread's violation, a schedule's description appended): {@link #in} finds the end in those too.
 */
public class ProviderProcessEnded extends RuleViolation {
    private static final long serialVersionUID = 1L;
    /** The words a property's first failure of this kind starts with in the reports. */
    public static final String WORDS = "provider process ended";
    /** What follows the cause on the first line when the kit ended the process for a hung call. */
    public static final String HANG = " (the kit ended it for a call past its bound)";
    private static final String MARK = WORDS + ", cause: ";
    private static final Pattern FOUND = Pattern.compile(Pattern.quote(MARK) + "([^\\n]+?)(" + Pattern.quote(HANG) + ")?(?:\\n|$)");
    private final String cause;
    private final boolean hang;

    /**
     * @param ruleId  the rule charged
     * @param account the whole account: the call that was running, how the process ended, its crash log's path and text
     * @param cause   the cause in one line, equal for every end of the same bug (see the class comment)
     * @param hang    true when the kit ended the process because a call outlived its bound (GEN-TIME-1): such an end
     *                is not rerun, so a hang costs its bound once
     */
    public ProviderProcessEnded(String ruleId, String account, String cause, boolean hang) {
        this(ruleId, MARK + oneLine(cause) + (hang ? HANG : "") + "\n" + account, oneLine(cause), hang, true);
    }

    private ProviderProcessEnded(String ruleId, String message, String cause, boolean hang, boolean raw) {
        super(ruleId, message);
        this.cause = cause;
        this.hang = hang;
    }

    /** @return the cause in one line, e.g. {@code SUMMARY: AddressSanitizer: attempting double-free ...} */
    public String cause() {
        return cause;
    }

    /** @return whether the kit ended the process for a call that outlived its bound */
    public boolean hang() {
        return hang;
    }

    /**
     * @param t a failure
     * @return {@code t} when it is a process end; for a plain {@link RuleViolation} whose message carries one (the
     *     harness re-threw it), a process end of that violation's rule with its message; else null
     */
    public static ProviderProcessEnded in(Throwable t) {
        if (t instanceof ProviderProcessEnded e) {
            return e;
        }
        if (!(t instanceof RuleViolation v) || v.ruleId() == null || v.getMessage() == null) {
            return null;
        }
        Matcher m = FOUND.matcher(v.getMessage());
        if (!m.find()) {
            return null;
        }
        String prefix = "[" + v.ruleId() + "] ";
        String body = v.getMessage().startsWith(prefix) ? v.getMessage().substring(prefix.length()) : v.getMessage();
        ProviderProcessEnded e = new ProviderProcessEnded(v.ruleId(), body, m.group(1), m.group(2) != null, true);
        e.setStackTrace(v.getStackTrace());
        return e;
    }

    private static String oneLine(String cause) {
        String c = cause == null || cause.isBlank() ? "unknown cause" : cause.strip();
        int nl = c.indexOf('\n');
        return nl < 0 ? c : c.substring(0, nl).strip();
    }
}
