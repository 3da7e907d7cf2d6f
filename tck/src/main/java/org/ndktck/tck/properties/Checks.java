package org.ndktck.tck.properties;

import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCases;
import net.jqwik.api.Shrinkable;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.CurrentProperty;
import org.ndktck.tck.harness.FrScenario;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Violations;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.Set;
import java.util.function.Function;

/** Checks the kit's properties share. */
final class Checks {
    private Checks() {
    }

    /**
     * MUST (fail) / SHOULD (code): the call must not succeed; a failure with another status than the
     * listed one is a SHOULD-level finding recorded in the RunLedger. A refusal for lack of resources
     * (STATUS_INSUFFICIENT_RESOURCES, which the pages allow any call) judges neither: the try is discarded
     * ({@link Refusals}).
     *
     * @param rule     the rule
     * @param call     the call in hex
     * @param status   the final status
     * @param describe how the call ended
     * @param listed   the listed status
     * @param expected what the rule requires, for the message
     */
    static void mustFail(String rule, String call, NtStatus status, String describe, NtStatus listed, String expected) {
        if (NtStatus.STATUS_SUCCESS.equals(status)) {
            throw Violations.of(rule, call, expected, describe);
        }
        Refusals.discardIfRefused(status);
        if (listed != null && !listed.equals(status)) {
            Violations.advisory(rule, call, listed.toString(), describe);
        }
    }

    /**
     * "Never registered" for a fast registration: the request must not end in STATUS_SUCCESS, and the MR
     * grants no access afterwards.
     *
     * @param s    the session
     * @param sc   the scenario
     * @param rule the rule the plan breaks
     * @param why  the rule in a few words (built only for a failure message)
     * @return the outcome
     */
    static WrOutcome neverRegistered(NdkSession s, FrScenario sc, String rule, Supplier<String> why) {
        WrOutcome o = sc.post();
        if (FrScenario.registered(o)) {
            throw Violations.of(rule, o.call(), why.get() + ": never registered (an inline error, or a CQ entry with an error status)", o.describe());
        }
        sc.assertGrantsNothing(rule, why);
        return o;
    }

    /**
     * Labels a try for statistics and, when the property runs enough tries to have met every edge case,
     * requires that each edge class of the generator was produced at least once (so a generator that
     * stops producing a class of input fails the property instead of turning silently green).
     *
     * @param label     the statistics label
     * @param value     this try's class
     * @param generator the property's generator (its edge cases name the classes); asked once per property run
     * @param classOf   the class of a generated value
     * @param <T>       the value type
     */
    static <T> void cover(String label, String value, Supplier<Arbitrary<T>> generator, Function<T, String> classOf) {
        Statistics.label(label).collect(value);
        CurrentProperty.Info info = CurrentProperty.get();
        if (info == null) {
            return;
        }
        Object[] c = CACHE.get();
        if (c[0] != info) {
            c[0] = info;
            c[1] = new HashMap<String, Set<String>>();
        }
        @SuppressWarnings("unchecked")
        Map<String, Set<String>> byLabel = (Map<String, Set<String>>) c[1];
        Set<String> required = byLabel.computeIfAbsent(label, k -> edgeClasses(generator.get(), classOf));
        int tries = info.tries();
        if (tries >= 2 * required.size() && tries >= 20) {
            Statistics.label(label).coverage(cov -> {
                if (org.ndktck.tck.harness.TimeBudget.cutShort()) {
                    return; // fewer tries than planned (the run's time budget, issue 20): no coverage can be demanded
                }
                for (String r : required) {
                    cov.check(r).count((Consumer<Integer>) n -> {
                        if (n < 1) {
                            throw new AssertionError("coverage: the generator produced no '" + r + "' case in " + tries + " tries");
                        }
                    });
                }
            });
        }
    }

    private static final ThreadLocal<Object[]> CACHE = ThreadLocal.withInitial(() -> new Object[2]);

    static <T> Set<String> edgeClasses(Arbitrary<T> generator, Function<T, String> classOf) {
        Set<String> out = new LinkedHashSet<>();
        EdgeCases<T> edges = generator.edgeCases();
        for (Shrinkable<T> e : edges) {
            out.add(classOf.apply(e.value()));
        }
        return out;
    }
}
