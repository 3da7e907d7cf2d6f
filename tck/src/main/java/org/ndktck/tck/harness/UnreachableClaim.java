package org.ndktck.tck.harness;

/**
 * A coverage claim (every class of input a generator must produce appears in a property's tries, or every kind of
 * step appears in an action chain's steps) that this run's tries could not reach: an explicit {@code --tries} /
 * {@code ndk.tck.tries} below what the claim needs, or chains a provider cut short by refusing calls for lack of
 * resources (STATUS_INSUFFICIENT_RESOURCES, which the pages allow any call). It is thrown from the claim's coverage
 * check after the property's tries, never from a try (so it is not shrunk); {@link KitLifecycle} turns it into an
 * aborted property whose message starts with {@value #PREFIX}, so its rules are UNTESTED with the reason, never PASS
 * on a claim nobody checked and never FAIL for what the provider may do.
 */
public final class UnreachableClaim extends AssertionError {
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
