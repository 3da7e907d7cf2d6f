package org.ndktck.tck.harness;

import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.RunLedger;

/**
 * Builds the kit's failure messages (design section 5): the rule ID (added by {@link RuleViolation}) and
 * its strength, the call with its arguments in hex, what was expected and what came back. The runner
 * adds the seed and the replay command.
 */
public final class Violations {
    private Violations() {
    }

    /**
     * @param ruleId a catalog rule ID
     * @return its strength as the pages write it ({@code MUST NOT}), or {@code ?} for an ID the catalog lacks
     */
    public static String strength(String ruleId) {
        try {
            return RuleCatalog.standard().find(ruleId).map(Rule::strength).map(s -> s.words()).orElse("?");
        } catch (RuntimeException e) {
            return "?";
        }
    }

    /**
     * @param ruleId   the rule broken
     * @param call     the call and its arguments in hex, e.g. {@code NdkFastRegister(FBO=0x00000FFF, ...)}
     * @param expected what the rule requires
     * @param actual   what the provider did
     * @return the violation to throw
     */
    public static RuleViolation of(String ruleId, String call, String expected, String actual) {
        ChecksReached.reached(ruleId); // the rule's check ran: it found the provider's result outside what the rule allows
        return new RuleViolation(ruleId, message(ruleId, call, expected, actual));
    }

    /**
     * As {@link #of(String, String, String, String)} with a cause (a provider exception, a timeout).
     *
     * @param ruleId   the rule broken
     * @param call     the call and its arguments in hex
     * @param expected what the rule requires
     * @param actual   what the provider did
     * @param cause    the underlying throwable
     * @return the violation to throw
     */
    public static RuleViolation of(String ruleId, String call, String expected, String actual, Throwable cause) {
        ChecksReached.reached(ruleId);
        return new RuleViolation(ruleId, message(ruleId, call, expected, actual), cause);
    }

    /**
     * Records a SHOULD-level finding (a MUST (fail) / SHOULD (code) rule failed the call, but not with the
     * listed status) in the {@link RunLedger}.
     *
     * @param ruleId   the rule
     * @param call     the call and its arguments
     * @param expected the listed status
     * @param actual   what came back
     */
    public static void advisory(String ruleId, String call, String expected, String actual) {
        ChecksReached.reached(ruleId);
        RunLedger.advisory(ruleId, "SHOULD: " + call + ": expected " + expected + ", got " + actual);
    }

    static String message(String ruleId, String call, String expected, String actual) {
        return strength(ruleId) + ": " + call + "\n  expected: " + expected + "\n  actual:   " + actual;
    }
}
