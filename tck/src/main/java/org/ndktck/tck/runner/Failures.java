package org.ndktck.tck.runner;

import org.ndktck.tck.RuleViolation;

import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** Renders property failures for reports and finds the rules a failure names. */
public final class Failures {
    private Failures() {
    }

    /**
     * @param t a failure, or null
     * @return its message for a report: the assertion message as is; for any other exception (a crash of
     *     the property or of the provider) the exception type, its message and the first stack frames
     */
    public static String describe(Throwable t) {
        if (t == null) {
            return "";
        }
        if (t instanceof AssertionError && t.getMessage() != null) {
            return t.getMessage();
        }
        StringBuilder sb = new StringBuilder(t.getClass().getName());
        if (t.getMessage() != null) {
            sb.append(": ").append(t.getMessage());
        }
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i < Math.min(8, st.length); i++) {
            sb.append("\n    at ").append(st[i]);
        }
        if (t.getCause() != null && t.getCause() != t) {
            sb.append("\nCaused by: ").append(describe(t.getCause()));
        }
        return sb.toString();
    }

    /**
     * @param t a failure, or null
     * @return the rule IDs of every {@link RuleViolation} in it (itself, its causes and suppressed exceptions)
     */
    public static Set<String> violatedRules(Throwable t) {
        Set<String> out = new LinkedHashSet<>();
        collect(t, out, new IdentityHashMap<>());
        return out;
    }

    /**
     * @param t      a failure, or null
     * @param ruleId a rule
     * @return the message of the first {@link RuleViolation} of that rule in it (itself, causes, suppressed), if any
     */
    public static java.util.Optional<String> violationMessage(Throwable t, String ruleId) {
        return find(t, ruleId, new IdentityHashMap<>());
    }

    private static java.util.Optional<String> find(Throwable t, String ruleId, Map<Throwable, Boolean> seen) {
        if (t == null || seen.put(t, Boolean.TRUE) != null) {
            return java.util.Optional.empty();
        }
        if (t instanceof RuleViolation rv && ruleId.equals(rv.ruleId()) && rv.getMessage() != null) {
            return java.util.Optional.of(rv.getMessage());
        }
        java.util.Optional<String> c = find(t.getCause(), ruleId, seen);
        if (c.isPresent()) {
            return c;
        }
        for (Throwable s : t.getSuppressed()) {
            java.util.Optional<String> m = find(s, ruleId, seen);
            if (m.isPresent()) {
                return m;
            }
        }
        return java.util.Optional.empty();
    }

    private static void collect(Throwable t, Set<String> out, Map<Throwable, Boolean> seen) {
        if (t == null || seen.put(t, Boolean.TRUE) != null) {
            return;
        }
        if (t instanceof RuleViolation rv && rv.ruleId() != null) {
            out.add(rv.ruleId());
        }
        collect(t.getCause(), out, seen);
        for (Throwable s : t.getSuppressed()) {
            collect(s, out, seen);
        }
    }
}
