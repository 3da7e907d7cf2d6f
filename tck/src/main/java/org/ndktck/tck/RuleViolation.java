package org.ndktck.tck;

/**
 * A property failure attributed to a catalog rule. The message already carries the rule ID and
 * strength, the call and its arguments in hex, what was expected and what came back; the runner adds
 * the seed and the replay command. Thrown from a property for its own rule, or by the harness when it
 * sees another rule broken in passing (for example GEN-CB-2 while testing MR-FR-3): the runner then
 * fails the named rule too.
 */
public class RuleViolation extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final String ruleId;

    /**
     * @param ruleId  the rule broken
     * @param message what happened
     */
    public RuleViolation(String ruleId, String message) {
        super("[" + ruleId + "] " + message);
        this.ruleId = ruleId;
    }

    /**
     * @param ruleId  the rule broken
     * @param message what happened
     * @param cause   the underlying failure (a provider exception, a timeout)
     */
    public RuleViolation(String ruleId, String message, Throwable cause) {
        super("[" + ruleId + "] " + message, cause);
        this.ruleId = ruleId;
    }

    /** @return the ID of the rule broken */
    public String ruleId() {
        return ruleId;
    }
}
