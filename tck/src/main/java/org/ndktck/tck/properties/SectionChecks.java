package org.ndktck.tck.properties;

import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Assume;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.CoverageTries;
import org.ndktck.tck.harness.CurrentProperty;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Violations;

import java.util.Collection;
import java.util.function.Consumer;

/**
 * Checks shared by the properties of the sections after the three seed pages (deregistration to adapter
 * information), next to {@link Checks}: the outcome of a valid registration, and coverage guards of
 * generators whose classes are not their edge cases.
 */
final class SectionChecks {
    private SectionChecks() {
    }

    /**
     * A registration the kit built to be valid must succeed (MR-REG-10); STATUS_INSUFFICIENT_RESOURCES
     * rejects the try (GEN-CB-5).
     *
     * @param s the session
     * @param o the outcome of NdkRegisterMr
     */
    static void requireRegistered(NdkSession s, Outcome o) {
        Refusals.discardIfRefused(o.status());
        if (!o.succeeded()) {
            throw Violations.of("MR-REG-10", o.call(), "STATUS_SUCCESS for a valid registration", o.describe());
        }
    }

    /**
     * Labels a try for the statistics report.
     *
     * @param label the statistics label
     * @param value this try's class
     */
    static void cover(String label, String value) {
        Statistics.label(label).collect(value);
    }

    /**
     * Labels a try and, when the property runs at least {@link org.ndktck.tck.harness.CoverageTries#leastTries} tries for
     * {@code required.size()} classes, requires every class in {@code required} to have been produced at least once
     * (a generator that stops producing a class of input fails the property instead of turning silently green). The
     * property carries {@link CoverageClasses} so that every profile runs that many tries; a property that claims
     * more classes than its annotation says fails with a coverage error naming the annotation (a kit bug, never
     * silence). Only an explicit try count below the least, or the run's time budget, leaves the claim unchecked.
     *
     * @param label    the statistics label
     * @param value    this try's class
     * @param required the classes the generator must produce, equally likely
     */
    static void cover(String label, String value, Collection<String> required) {
        Statistics.label(label).collect(value);
        int tries = CurrentProperty.tries();
        int least = CoverageTries.leastTries(required.size());
        if (tries < least) {
            if (CurrentProperty.get() != null && org.ndktck.tck.harness.TckConfig.current().tries().isEmpty()) {
                throw new AssertionError("coverage: the claim '" + label + "' of " + required.size() + " classes needs "
                        + least + " tries and the property runs " + tries + "; its @CoverageClasses must say "
                        + required.size() + " or more");
            }
            return;
        }
        Statistics.label(label).coverage(cov -> {
            if (org.ndktck.tck.harness.TimeBudget.cutShort() || org.ndktck.tck.harness.KitLifecycle.endedAtAdvisory()) {
                return; // fewer tries than planned (the run's time budget): no coverage can be demanded
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
