package org.ndktck.tck.runner;

/**
 * How one property ended in a run.
 *
 * @param property         the property
 * @param status           SUCCESSFUL, FAILED, ABORTED, SKIPPED or {@value #TIMED_OUT} (the runner gave up on it)
 * @param tries            tries executed
 * @param checks           tries not rejected by an assumption
 * @param seed             the seed jqwik used for this property, or empty
 * @param durationMillis   wall time of the property, in milliseconds
 * @param message          failure or skip reason, or empty
 * @param failure          the failure, or null
 * @param counterexample   the shrunk falsifying sample as text, or empty
 * @param finishedAtMillis when it finished, in milliseconds since the start of the run
 * @param checksRun        per rule, the tries whose check reached an outcome ({@link org.ndktck.tck.ChecksRun});
 *                         null when not counted (then {@link #checksRun(String)} falls back to {@code checks})
 */
public record PropertyOutcome(PropertyInfo property, String status, int tries, int checks, String seed,
                              long durationMillis, String message, Throwable failure, String counterexample,
                              long finishedAtMillis, org.ndktck.tck.ChecksRun checksRun) {
    /**
     * An outcome whose checks were not counted per rule (a property the runner abandoned, a worker's progress line).
     *
     * @param property         the property
     * @param status           its status
     * @param tries            tries executed
     * @param checks           tries not rejected
     * @param seed             its seed, or empty
     * @param durationMillis   its wall time in milliseconds
     * @param message          failure or skip reason, or empty
     * @param failure          the failure, or null
     * @param counterexample   the counterexample, or empty
     * @param finishedAtMillis when it finished, since the run started
     */
    public PropertyOutcome(PropertyInfo property, String status, int tries, int checks, String seed, long durationMillis,
                           String message, Throwable failure, String counterexample, long finishedAtMillis) {
        this(property, status, tries, checks, seed, durationMillis, message, failure, counterexample, finishedAtMillis, null);
    }

    /**
     * @param ruleId one of the property's rules
     * @return the tries whose check of that rule reached an outcome; {@code checks} when the outcome was not counted
     *     per rule
     */
    public int checksRun(String ruleId) {
        return checksRun == null ? checks : checksRun.of(ruleId);
    }

    /** Status of a property the runner abandoned because it exceeded its time bound. */
    public static final String TIMED_OUT = "TIMED_OUT";

    /** @return true when the property failed or was abandoned */
    public boolean failed() {
        return "FAILED".equals(status) || TIMED_OUT.equals(status);
    }

    /** @return true when the property passed */
    public boolean passed() {
        return "SUCCESSFUL".equals(status);
    }

    /**
     * @return true when the kit aborted it because too few of its tries were judged (allowed refusals,
     *     {@link org.ndktck.tck.harness.KitLifecycle#TOO_FEW_JUDGED})
     */
    public boolean belowJudgedFloor() {
        return "ABORTED".equals(status) && message != null && message.startsWith(org.ndktck.tck.harness.KitLifecycle.TOO_FEW_JUDGED);
    }

    /**
     * @return true when the kit aborted it because a coverage claim was not reached by its tries (an explicit try
     *     count below the claim's, or chains a provider's allowed refusals cut short:
     *     {@link org.ndktck.tck.harness.UnreachableClaim})
     */
    public boolean claimNotReached() {
        return "ABORTED".equals(status) && message != null && message.startsWith(org.ndktck.tck.harness.UnreachableClaim.PREFIX);
    }

    /** @return true when it was skipped because its rule does not apply to the adapter */
    public boolean notApplicable() {
        return ("SKIPPED".equals(status) || "ABORTED".equals(status))
                && message != null && message.startsWith(org.ndktck.tck.harness.KitLifecycle.NOT_APPLICABLE);
    }
}
