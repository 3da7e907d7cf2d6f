package org.ndktck.tck.properties;

import org.ndktck.tck.RuleViolation;

import java.util.List;

/**
 * How a stateful chain's failure reads: jqwik wraps a failing step's {@link RuleViolation} in an AssertionError; the
 * kit charges the violation's own rule (the rule whose allowed outcomes the step broke) and appends the steps that led
 * to it, one a line, as calls with their arguments (no object hash codes), so the printed sequence is the replay.
 */
final class ModelFailures {
    private ModelFailures() {
    }

    /**
     * @param e     the chain's failure
     * @param steps the chain's steps, in order (the last one failed)
     * @return the violation with its rule and the steps, or {@code e} when no rule is named
     */
    static AssertionError withSteps(AssertionError e, List<String> steps) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof RuleViolation v) {
                String m = v.getMessage();
                String body = m.startsWith("[" + v.ruleId() + "] ") ? m.substring(v.ruleId().length() + 3) : m;
                StringBuilder b = new StringBuilder(body).append("\n  after ").append(steps.size()).append(" step(s):");
                for (int i = 0; i < steps.size(); i++) {
                    b.append("\n    ").append(i + 1).append(". ").append(steps.get(i));
                }
                return new RuleViolation(v.ruleId(), b.toString(), v);
            }
        }
        return e;
    }
}
