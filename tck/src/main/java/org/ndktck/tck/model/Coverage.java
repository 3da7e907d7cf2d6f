package org.ndktck.tck.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * Which (state, call) pairs of the model one chain exercised, and how often: a pair is named
 * {@code "PHASE call"} (for example {@code "INVALIDATED FAST_REGISTER"}). The properties hand the names to jqwik's
 * statistics, which report them and check that a run reached every pair the model allows.
 */
public final class Coverage {
    private final Map<String, Integer> pairs = new TreeMap<>();

    /**
     * Counts one call made in one state.
     *
     * @param state the state of the object the call was made on
     * @param call  the call
     */
    public void count(Enum<?> state, Enum<?> call) {
        pairs.merge(name(state, call), 1, Integer::sum);
    }

    /** @return each pair exercised, with its count, in name order */
    public Map<String, Integer> pairs() {
        return Map.copyOf(pairs);
    }

    /**
     * @param state a state
     * @param call  a call
     * @return the pair's name as {@link #pairs()} keys it
     */
    public static String name(Enum<?> state, Enum<?> call) {
        return state.name() + " " + call.name();
    }
}
