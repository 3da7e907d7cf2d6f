package org.ndktck.tck.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that a concurrent {@link History} is linearizable against a sequential specification: some total order
 * of its calls that respects real-time order (a call whose response came before another's invocation stays before
 * it) is one the specification allows, outcome by outcome. The search is Wing and Gong's (take, in turn, each call
 * that no pending call precedes, apply it to the specification, go deeper, undo on failure) with Lowe's
 * memoization: a (set of calls taken, specification state) pair already explored is not explored again. It is
 * bounded by search steps, never by time, so the verdict does not depend on the machine's load.
 *
 * <p>When no order is allowed, the verdict names the call that broke the specification at the deepest point the
 * search reached (the longest allowed prefix), with the rule the specification charges for it; that rule is the
 * one the history breaks.
 */
public final class Linearizability {
    /** A history of at most this many calls is checked (the taken set is a 64-bit mask). */
    public static final int MAX_CALLS = 64;

    /**
     * A sequential specification: a state, and what one call with the outcome the provider chose does to it.
     *
     * @param <S> the state: immutable, with value equality (the memo keys on it)
     */
    public interface Spec<S> {
        /**
         * @param state the state before the call
         * @param op    the call and its outcome
         * @return the state after it, or why the outcome is not one the specification allows in that state
         */
        Step<S> apply(S state, History.Op op);
    }

    /**
     * One step of the specification.
     *
     * @param next     the state after the call (null when the outcome is not allowed)
     * @param rule     the rule the outcome breaks (null when allowed)
     * @param expected what the specification allows instead (null when allowed)
     * @param <S>      the state
     */
    public record Step<S>(S next, String rule, String expected) {
        /**
         * @param next the state after an allowed outcome
         * @param <S>  the state
         * @return an allowed step
         */
        public static <S> Step<S> to(S next) {
            return new Step<>(next, null, null);
        }

        /**
         * @param rule     the rule the outcome breaks
         * @param expected what the specification allows instead
         * @param <S>      the state
         * @return a step the specification does not allow
         */
        public static <S> Step<S> broken(String rule, String expected) {
            return new Step<>(null, rule, expected);
        }

        /** @return true when the outcome is allowed */
        public boolean allowed() {
            return next != null;
        }
    }

    /**
     * The verdict.
     *
     * @param linearizable true when some allowed order was found
     * @param exhausted    true when the step bound ran out first (neither verdict: the history is not judged)
     * @param order        an allowed order (linearizable), or the longest allowed prefix found (not linearizable)
     * @param culprit      the call that broke the specification after that prefix (null when linearizable)
     * @param rule         the rule it breaks
     * @param expected     what the specification allowed instead
     * @param steps        search steps taken
     * @param <S>          the state
     * @param end          the state after {@code order}
     */
    public record Verdict<S>(boolean linearizable, boolean exhausted, List<History.Op> order, History.Op culprit, String rule,
                             String expected, long steps, S end) {
    }

    private Linearizability() {
    }

    /**
     * Searches for an allowed order.
     *
     * @param ops      the calls (every one has returned), at most {@link #MAX_CALLS}
     * @param spec     the sequential specification
     * @param initial  its state before the first call
     * @param maxSteps the most calls applied to the specification before the search gives up (at least 1)
     * @param <S>      the state
     * @return the verdict
     * @throws IllegalArgumentException for more than {@link #MAX_CALLS} calls
     */
    public static <S> Verdict<S> check(List<History.Op> ops, Spec<S> spec, S initial, long maxSteps) {
        if (ops.size() > MAX_CALLS) {
            throw new IllegalArgumentException(ops.size() + " calls in one history; at most " + MAX_CALLS + " are checked");
        }
        Search<S> s = new Search<>(ops, spec, maxSteps);
        S end = s.run(0L, initial);
        if (end != null) {
            return new Verdict<>(true, false, s.order(), null, null, null, s.steps, end);
        }
        return new Verdict<>(false, s.exhausted, s.bestPrefix, s.bestCulprit, s.bestRule, s.bestExpected, s.steps, null);
    }

    private static final class Search<S> {
        private final List<History.Op> ops;
        private final Spec<S> spec;
        private final long maxSteps;
        private final Set<Object> seen = new HashSet<>();
        private final History.Op[] taken;
        private int depth;
        long steps;
        boolean exhausted;
        List<History.Op> bestPrefix = List.of();
        History.Op bestCulprit;
        String bestRule;
        String bestExpected;
        private int bestDepth = -1;

        Search(List<History.Op> ops, Spec<S> spec, long maxSteps) {
            this.ops = ops;
            this.spec = spec;
            this.maxSteps = maxSteps;
            this.taken = new History.Op[ops.size()];
        }

        List<History.Op> order() {
            return List.copyOf(java.util.Arrays.asList(taken).subList(0, depth));
        }

        /** @return the final state when the calls not in {@code mask} can follow in an allowed order, else null */
        S run(long mask, S state) {
            int n = ops.size();
            if (Long.bitCount(mask) == n) {
                return state;
            }
            if (exhausted || !seen.add(List.of(mask, state))) {
                return null;
            }
            // the earliest response among the pending calls: a call invoked after it cannot go first
            long firstReturn = Long.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                if ((mask & (1L << i)) == 0) {
                    firstReturn = Math.min(firstReturn, ops.get(i).returned());
                }
            }
            for (int i = 0; i < n; i++) {
                History.Op op = ops.get(i);
                if ((mask & (1L << i)) != 0 || op.invoked() > firstReturn) {
                    continue;
                }
                if (++steps > maxSteps) {
                    exhausted = true;
                    return null;
                }
                Step<S> step = spec.apply(state, op);
                if (!step.allowed()) {
                    if (depth > bestDepth) {
                        bestDepth = depth;
                        bestPrefix = List.copyOf(order());
                        bestCulprit = op;
                        bestRule = step.rule();
                        bestExpected = step.expected();
                    }
                    continue;
                }
                taken[depth++] = op;
                S end = run(mask | (1L << i), step.next());
                if (end != null) {
                    return end;
                }
                depth--;
                if (exhausted) {
                    return null;
                }
            }
            return null;
        }
    }
}
