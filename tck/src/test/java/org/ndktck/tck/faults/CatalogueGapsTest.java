package org.ndktck.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.CatalogueGaps;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.kit.KitRun;

/**
 * The kit catches every fault of {@link CatalogueGaps} by the rule in its name (a property's first failure is a
 * violation of that rule), running the properties of that rule only (as {@code selftest} does), with at most
 * 100 tries. A fault whose rule has no property fails the test.
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
        assertThat(KitRun.propertiesOf(rule)).as("properties tagged " + rule).isPositive();
        KitRun.Result r = KitRun.against(fault, KitRun.Preset.FAULTS).rules(rule).tries(TRIES).run();
        r.assertCaught(rule);
    }
}
