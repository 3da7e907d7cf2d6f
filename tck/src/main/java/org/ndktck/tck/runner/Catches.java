package org.ndktck.tck.runner;

import org.ndktck.tck.ProviderProcessEnded;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.KitLifecycle;
import org.ndktck.tck.harness.KitSetupError;

/**
 * What a property's first failure was, and whether it catches a fault. A fault
 * {@code fault:RULE[/variant]} is caught only when a property's first failure is a {@link RuleViolation} of
 * RULE: a violation the kit raised for that rule. Every other first failure is reported as what it is and is
 * no catch: a crash (an exception of the provider or of the kit that names no rule), a time bound (the runner
 * abandoned the property), a coverage error (the generator did not produce a required case), a generator or
 * jqwik error, a set-up error (the provider refused a call the property needed before it could judge its
 * rule), or a violation of another rule.
 *
 * <p>The first failure is the failure of the first falsified try ({@link KitLifecycle#firstFailure}); it
 * differs from the reported failure only when shrinking drifted to another failure. A violation buried as the
 * cause or a suppressed exception of another failure is not the first failure.
 */
public final class Catches {
    private Catches() {
    }

    /** The kinds of a property's first failure. */
    public enum Kind {
        /** a {@link RuleViolation}: the kit judged a rule broken */
        VIOLATION("violation"),
        /** the runner abandoned the property at its time bound */
        TIME_BOUND("time bound"),
        /** the generator did not produce a case the property requires ({@code coverage: ...}) */
        COVERAGE("coverage error"),
        /** jqwik or a generator failed (too many filter misses, no arbitrary, a jqwik exception) */
        GENERATOR("generator error"),
        /** the kit could not set up what the property needs ({@link KitSetupError}) */
        SETUP("set-up error"),
        /**
         * the provider's own process ended ({@link ProviderProcessEnded}: a crash, a sanitizer's report, a hung call
         * killed) and the rule named is charged with it; its summary is the cause, the same in every property the
         * same bug ends the process in, so the reports group them as one
         */
        PROCESS_END(ProviderProcessEnded.WORDS),
        /** an assertion error that names no rule */
        ASSERTION("assertion naming no rule"),
        /** any other exception: a crash of the provider or of the kit */
        CRASH("crash");

        private final String words;

        Kind(String words) {
            this.words = words;
        }

        /** @return the kind as the reports write it, e.g. {@code time bound} */
        public String words() {
            return words;
        }
    }

    /**
     * A property's first failure.
     *
     * @param kind    what it was
     * @param rule    for a {@link Kind#VIOLATION} or a {@link Kind#PROCESS_END}, the rule it names; else null
     * @param summary its first line (exception type and message), never null
     */
    public record FirstFailure(Kind kind, String rule, String summary) {
        /** @return e.g. {@code violation of MR-FR-4}, {@code crash: java.lang.NullPointerException: ...} */
        public String describe() {
            return kind == Kind.VIOLATION ? "violation of " + rule : kind.words() + ": " + summary;
        }

        /**
         * @param ruleId a rule
         * @return whether this is a violation of that rule, or the end of the provider's process charged to it (a
         *     sanitizer's report or a crash in that rule's property, confirmed by a rerun alone): the only first
         *     failures that catch its fault
         */
        public boolean catches(String ruleId) {
            return (kind == Kind.VIOLATION || kind == Kind.PROCESS_END) && ruleId.equals(rule);
        }
    }

    /**
     * @param status  the property's status (FAILED, TIMED_OUT, ...)
     * @param failure the failure the property reported, or null
     * @return its first failure, or null when the property did not fail
     */
    public static FirstFailure of(String status, Throwable failure) {
        if (PropertyOutcome.TIMED_OUT.equals(status)) {
            return new FirstFailure(Kind.TIME_BOUND, null, "the runner abandoned the property at its time bound");
        }
        if (!"FAILED".equals(status)) {
            return null;
        }
        Throwable first = KitLifecycle.firstFailure(failure);
        if (first == null) {
            return new FirstFailure(Kind.CRASH, null, "failed without an exception");
        }
        ProviderProcessEnded ended = ProviderProcessEnded.in(first);
        if (ended != null) {
            return new FirstFailure(Kind.PROCESS_END, ended.ruleId(), ended.cause());
        }
        String summary = firstLine(first);
        if (first instanceof RuleViolation v && v.ruleId() != null) {
            return new FirstFailure(Kind.VIOLATION, v.ruleId(), summary);
        }
        if (first instanceof KitSetupError) {
            return new FirstFailure(Kind.SETUP, null, summary);
        }
        if (first instanceof AssertionError && String.valueOf(first.getMessage()).startsWith("coverage:")) {
            return new FirstFailure(Kind.COVERAGE, null, summary);
        }
        if (first.getClass().getName().startsWith("net.jqwik.")) {
            return new FirstFailure(Kind.GENERATOR, null, summary);
        }
        if (first instanceof AssertionError) {
            return new FirstFailure(Kind.ASSERTION, null, summary);
        }
        return new FirstFailure(Kind.CRASH, null, summary);
    }

    /**
     * @param o a property outcome
     * @return its first failure, or null when it did not fail
     */
    public static FirstFailure of(PropertyOutcome o) {
        return of(o.status(), o.failure());
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage();
        String s = t instanceof AssertionError && m != null ? m : t.getClass().getName() + (m == null ? "" : ": " + m);
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
