package org.ndktck.tck;

/**
 * The verdict for one rule in a run (design sections 5 and 7). These names are a contract: users' CI
 * scripts read them from {@code report.json}.
 */
public enum Verdict {
    /** Every property of the rule passed. */
    PASS,
    /** A property of a MUST or MUST NOT rule failed: the run fails. */
    FAIL,
    /** A SHOULD-level finding: reported, fails the run only with {@code --strict}. */
    ADVISORY,
    /** The rule needs a capability the adapter does not report (the reason says which). */
    NOT_APPLICABLE,
    /** The rule cannot be observed from outside the provider, or is informational / a consumer rule. */
    NOT_TESTABLE,
    /** The rule binds the provider and could be checked, but the kit has no property for it yet. */
    UNTESTED,
    /** The user excluded the rule with a reason in an exclusions file. */
    EXCLUDED;

    /**
     * @param strict whether ADVISORY counts as failing ({@code --strict})
     * @return true when this verdict makes the run exit 1
     */
    public boolean fails(boolean strict) {
        return this == FAIL || (strict && this == ADVISORY);
    }

    /**
     * Marks a violation of a kit-interpretation rule that reached memory outside what the kit supplied (the
     * property's own probe): such a finding stays FAIL. Here, beside the verdicts, so that the harness and the
     * properties that write it need not reach up to the runner that reads it.
     */
    public static final String MEMORY_EXPOSED = "memory exposed: ";

    /**
     * @param rule a catalog rule, or null for an ID the catalog lacks
     * @return true when a broken check of the rule is reported ADVISORY, not FAIL: its basis is KIT_INTERPRETATION and
     *     the catalog names no memory exposure, data loss, stated duty or founding rule it guards
     *     ({@link org.ndktck.spec.rules.Rule#failIsAdvisory})
     */
    public static boolean kitInterpretationOnly(org.ndktck.spec.rules.Rule rule) {
        return rule != null && rule.failIsAdvisory();
    }
}
