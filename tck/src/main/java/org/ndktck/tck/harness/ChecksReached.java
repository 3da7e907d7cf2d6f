package org.ndktck.tck.harness;

import org.ndktck.tck.ChecksRun;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts, for the property running in this JVM, the checks of each of its rules that reached an outcome: a provider
 * result compared with what the rule allows. {@link KitLifecycle} counts per try (shrinking steps not counted):
 * <ul>
 *   <li>a try that called {@link #reached} for a rule counts one check of that rule (a {@link Violations#of}
 *       violation, a failure the rule's check found, calls it);</li>
 *   <li>else a try that called {@link #notReached} for a rule counts none, and the reason is kept (the first one);</li>
 *   <li>else a try that ended satisfied (not discarded, not failed) counts one check of each of the property's
 *       rules: its body ran to its end, so every comparison in it ran.</li>
 * </ul>
 * A property whose check of a rule depends on something the adapter may not offer (a limit, an inline or
 * asynchronous completion, a refusal) calls {@link #notReached} on the path where it returns without comparing, so
 * a run where no try reached the check leaves the rule UNTESTED with that reason, never PASS. The kit runs one
 * property at a time per JVM; calls from other threads of the property (a caller thread, a completion thread) count
 * for it. Thread-safe.
 */
public final class ChecksReached {
    private static List<String> rules = List.of();
    private static final Map<String, Integer> COUNTS = new LinkedHashMap<>();
    private static final Map<String, String> WHY = new LinkedHashMap<>();
    private static final Set<String> REACHED = new HashSet<>();
    private static final Map<String, String> NOT_REACHED = new LinkedHashMap<>();
    private static final Map<String, Integer> MODEL_PAIRS = new java.util.TreeMap<>();
    private static boolean counting;

    private ChecksReached() {
    }

    /**
     * Notes that this try compared a provider result with what {@code ruleId} allows (whatever the outcome).
     *
     * @param ruleId the rule whose check ran
     */
    public static synchronized void reached(String ruleId) {
        if (counting && ruleId != null) {
            REACHED.add(ruleId);
        }
    }

    /**
     * Notes that this try ends without comparing anything against {@code ruleId}: its check depends on something the
     * adapter did not do here. Say which limit or behaviour the kit could not reach, and what setting reaches it (for
     * example {@code "the adapter did not run out of MRs within 32 registrations; set maxObjects"}).
     *
     * @param ruleId the rule whose check this try did not reach
     * @param why    the reason, one line
     */
    public static synchronized void notReached(String ruleId, String why) {
        if (counting && ruleId != null) {
            NOT_REACHED.putIfAbsent(ruleId, why);
        }
    }

    /**
     * Adds the (state, call) pairs of the kit's model that this try exercised (a model chain's, at its end), for
     * report.json's {@code modelPairs}; a shrinking step's are not counted.
     *
     * @param pairs pair name ({@code "STATE CALL"}) to the calls made in that state
     */
    public static synchronized void modelPairs(Map<String, Integer> pairs) {
        if (counting) {
            pairs.forEach((k, v) -> MODEL_PAIRS.merge(k, v, Integer::sum));
        }
    }

    /** @param ruleIds the rules of the property that starts now */
    static synchronized void startProperty(List<String> ruleIds) {
        rules = List.copyOf(ruleIds);
        COUNTS.clear();
        WHY.clear();
        ruleIds.forEach(r -> COUNTS.put(r, 0));
        REACHED.clear();
        NOT_REACHED.clear();
        MODEL_PAIRS.clear();
        counting = false;
    }

    /** @param count whether this try counts (false for a shrinking step) */
    static synchronized void startTry(boolean count) {
        REACHED.clear();
        NOT_REACHED.clear();
        counting = count;
    }

    /** @param satisfied whether the try ended satisfied (neither discarded nor failed) */
    static synchronized void endTry(boolean satisfied) {
        if (!counting) {
            return;
        }
        counting = false;
        Set<String> ids = new java.util.LinkedHashSet<>(rules);
        ids.addAll(REACHED);
        for (String r : ids) {
            if (REACHED.contains(r)) {
                COUNTS.merge(r, 1, Integer::sum);
            } else if (NOT_REACHED.containsKey(r)) {
                WHY.putIfAbsent(r, NOT_REACHED.get(r));
            } else if (satisfied) {
                COUNTS.merge(r, 1, Integer::sum);
            }
        }
        REACHED.clear();
        NOT_REACHED.clear();
    }

    /** @return the counts of the property that ran last */
    static synchronized ChecksRun result() {
        counting = false;
        return new ChecksRun(COUNTS, WHY, MODEL_PAIRS);
    }
}
