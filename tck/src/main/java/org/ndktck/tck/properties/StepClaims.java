package org.ndktck.tck.properties;

import net.jqwik.api.statistics.Statistics;
import org.ndktck.tck.harness.CurrentProperty;
import org.ndktck.tck.harness.Refusals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The step mix of an action chain as a coverage claim: every kind of step (one per action the chain is built from)
 * must have run at least once in the property's chains ({@link CoverageClaims}). A step's kind is named by the start
 * of its description; a step whose description starts with no claimed kind fails the property (the claim refuses an
 * unclaimed step, so a new action cannot be added without claiming it). The claim needs
 * {@link CoverageClaims#leastSteps} steps for the chain's rarest weight; a property that runs fewer at a profile fails
 * with a coverage error (a kit bug: its {@code @LeastTries} is too small), fewer because the user's
 * {@code --tries} asked for them or because a provider's allowed refusals (STATUS_INSUFFICIENT_RESOURCES) ended its
 * chains early leaves it UNTESTED with that reason.
 */
final class StepClaims {
    /** Statistics label of the step mix. */
    static final String LABEL = "step";

    private final Map<String, Integer> weights;
    private final int least;

    /**
     * @param weights the chain's kinds of step, each named by the start of its steps' descriptions (no name may start
     *                another), with its action's weight in the chain
     */
    StepClaims(Map<String, Integer> weights) {
        this.weights = new LinkedHashMap<>(weights);
        int total = weights.values().stream().mapToInt(Integer::intValue).sum();
        int rarest = weights.values().stream().mapToInt(Integer::intValue).min().orElse(1);
        this.least = CoverageClaims.leastSteps(weights.size(), (double) rarest / total);
    }

    /** @return the steps the claim needs */
    int leastSteps() {
        return least;
    }

    /**
     * @param description a step's description
     * @return its kind
     * @throws AssertionError when it starts with no claimed kind
     */
    String kindOf(String description) {
        for (String k : weights.keySet()) {
            if (description.startsWith(k)) {
                return k;
            }
        }
        throw new AssertionError("coverage: the step '" + description + "' is of no kind the chain's step claim names "
                + weights.keySet() + " (add its action's kind to the claim)");
    }

    /**
     * Counts one chain's steps and demands the claim at the end of the property.
     *
     * @param transformations the steps the chain ran, by description ({@code ActionChain#transformations()})
     * @param cutByRefusal    whether an allowed refusal ended this chain early
     */
    void count(List<String> transformations, boolean cutByRefusal) {
        CurrentProperty.Info info = CurrentProperty.get();
        for (String tr : transformations) {
            Statistics.label(LABEL).collect(kindOf(tr));
        }
        if (info == null) {
            return;
        }
        int[] tally = TALLY.get().tally(info);
        tally[0] += transformations.size();
        tally[1] |= cutByRefusal ? 1 : 0;
        CoverageClaims.demand(LABEL, weights.keySet(), () -> tally[0], least, "steps",
                () -> tally[1] != 0 || Refusals.count() > 0
                        ? "the provider refused calls for lack of resources (STATUS_INSUFFICIENT_RESOURCES, which the pages"
                        + " allow), which ended chains or tries early"
                        : Refusals.limitNote() != null ? "steps or tries the kit left out because " + Refusals.limitNote() : null);
    }

    /** The running property's steps so far and whether a refusal ended a chain: reset when another property runs. */
    private static final class Tally {
        private CurrentProperty.Info owner;
        private final int[] counts = new int[2];

        int[] tally(CurrentProperty.Info info) {
            if (owner != info) {
                owner = info;
                counts[0] = 0;
                counts[1] = 0;
            }
            return counts;
        }
    }

    private static final ThreadLocal<Tally> TALLY = ThreadLocal.withInitial(Tally::new);
}
