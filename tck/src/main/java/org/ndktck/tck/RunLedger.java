package org.ndktck.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the kit's properties report to whoever runs them (the runner, or a provider's own build): one
 * {@link PropertyRecord} per property executed, and advisory findings (SHOULD-level breaches, such as a
 * listed status code not used although the call did fail). The kit's jqwik lifecycle hook fills it; the
 * runner reads it after the JUnit Platform launcher returns and turns it into verdicts per rule.
 *
 * <p>Process-wide and thread-safe. {@link #reset()} starts a new run.
 */
public final class RunLedger {
    private RunLedger() {
    }

    /**
     * One executed property.
     *
     * @param ruleIds        the rules it checks (its rule tags, {@code KitLifecycle.ruleIds})
     * @param property       {@code Class#method}
     * @param status         SUCCESSFUL, FAILED, ABORTED or SKIPPED
     * @param tries          tries executed
     * @param checks         tries that were not rejected by an assumption
     * @param seed           the seed jqwik used (to replay), or empty
     * @param durationMillis wall time of the property
     * @param message        failure or skip reason, or empty
     * @param failure        the failure, or null
     * @param counterexample the shrunk falsifying sample rendered as text, or empty
     * @param checksRun      per rule, the tries whose check reached an outcome ({@link ChecksRun}); null when not
     *                       counted (a record built by code that predates the count: the verdict falls back to
     *                       {@code checks})
     */
    public record PropertyRecord(Set<String> ruleIds, String property, String status, int tries, int checks,
                                 String seed, long durationMillis, String message, Throwable failure,
                                 String counterexample, ChecksRun checksRun) {
        /**
         * A record of a property that counted no check (skipped, set-up error, not run).
         *
         * @param ruleIds        the rules it checks
         * @param property       {@code Class#method}
         * @param status         SUCCESSFUL, FAILED, ABORTED or SKIPPED
         * @param tries          tries executed
         * @param checks         tries that were not rejected by an assumption
         * @param seed           the seed, or empty
         * @param durationMillis wall time
         * @param message        failure or skip reason, or empty
         * @param failure        the failure, or null
         * @param counterexample the counterexample, or empty
         */
        public PropertyRecord(Set<String> ruleIds, String property, String status, int tries, int checks,
                              String seed, long durationMillis, String message, Throwable failure, String counterexample) {
            this(ruleIds, property, status, tries, checks, seed, durationMillis, message, failure, counterexample, ChecksRun.NONE);
        }
    }

    /**
     * A SHOULD-level finding for a rule.
     *
     * @param ruleId  the rule
     * @param message what was seen, with the call and its arguments
     */
    public record Advisory(String ruleId, String message) {
    }

    private static final List<PropertyRecord> PROPERTIES = new ArrayList<>();
    private static final List<Advisory> ADVISORIES = new ArrayList<>();

    /** Forgets everything recorded so far. */
    public static synchronized void reset() {
        PROPERTIES.clear();
        ADVISORIES.clear();
    }

    /** @param record a finished property */
    public static synchronized void record(PropertyRecord record) {
        PROPERTIES.add(record);
    }

    /**
     * Records a SHOULD-level finding; duplicates (same rule and message) are kept once.
     *
     * @param ruleId  the rule
     * @param message what was seen
     */
    public static synchronized void advisory(String ruleId, String message) {
        Advisory a = new Advisory(ruleId, message);
        if (!ADVISORIES.contains(a)) {
            ADVISORIES.add(a);
        }
    }

    /** @return the properties recorded so far, in execution order */
    public static synchronized List<PropertyRecord> properties() {
        return List.copyOf(PROPERTIES);
    }

    /** @return the advisories recorded so far */
    public static synchronized List<Advisory> advisories() {
        return List.copyOf(ADVISORIES);
    }
}
