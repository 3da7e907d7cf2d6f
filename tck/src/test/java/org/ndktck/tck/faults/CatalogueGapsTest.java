package org.ndktck.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.CatalogueGaps;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.kit.KitRun;

/**
 * The kit fails the rule in the name of every fault of {@link CatalogueGaps}, running the properties of that
 * rule only (as {@code selftest} does), with at most 100 tries. A fault whose rule has no property yet is
 * reported as not testable yet (aborted), never as passed.
 */
class CatalogueGapsTest {
    static final int TRIES = 100;

    static Stream<String> faults() {
        return CatalogueGaps.providers().stream().map(NdkProvider::name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault) {
        String rule = MisbehavingProvidersTest.ruleOf(fault);
        assumeTrue(KitRun.propertiesOf(rule) > 0, "not testable yet: the kit has no property for " + rule);
        KitRun.Result r = KitRun.against(fault, KitRun.Preset.FAULTS).rules(rule).tries(TRIES).run();
        assertThat(r.failedRules()).as(r.describe()).contains(rule);
        RunLedger.PropertyRecord first = r.firstFailureOf(rule);
        assertThat(first).isNotNull();
    }
}
