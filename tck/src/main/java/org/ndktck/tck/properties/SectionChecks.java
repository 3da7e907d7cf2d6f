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
     * Labels a try and claims that every class in {@code required} comes at least once in the property's tries
     * ({@link CoverageClaims}): the classes are equally likely, so the claim needs
     * {@link org.ndktck.tck.harness.CoverageTries#leastTries} tries for {@code required.size()} classes, which the
     * property's {@link org.ndktck.tck.harness.CoverageClasses} gives it at every profile and at any {@code --tries}; a property that claims
     * more classes than its annotation says fails with a coverage error naming the annotation (a kit bug, never
     * silence).
     *
     * @param label    the statistics label
     * @param value    this try's class
     * @param required the classes the generator must produce, equally likely
     */
    static void cover(String label, String value, Collection<String> required) {
        Statistics.label(label).collect(value);
        int tries = CurrentProperty.tries();
        CoverageClaims.demand(label, required, () -> tries, CoverageTries.leastTries(required.size()), "tries");
    }
}
