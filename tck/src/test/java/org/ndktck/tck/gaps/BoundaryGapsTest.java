package org.ndktck.tck.gaps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.BoundaryFaults;
import org.ndktck.faults.FaultDefaults;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.kit.KitRun;

/**
 * The kit fails the rule in the name of every fault of {@link BoundaryFaults} (a limit of a provider-checked rule
 * moved by one at exactly its boundary value), running only the properties of that rule at the smoke profile's
 * 50 tries, as the PIT run does.
 */
class BoundaryGapsTest {
    static final int TRIES = 50;

    static Stream<String> faults() {
        return new BoundaryFaults().providers().stream().map(NdkProvider::name);
    }

    static String ruleOf(String fault) {
        return fault.substring("fault:".length()).split("/", 2)[0];
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault) {
        String rule = ruleOf(fault);
        assertThat(KitRun.propertiesOf(rule)).as("properties tagged " + rule).isPositive();
        KitRun.Result r = KitRun.against(fault, KitRun.Preset.FAULTS).rules(rule).tries(TRIES).run();
        assertThat(r.failedRules()).as(r.describe()).contains(rule);
        assertThat(r.firstFailureOf(rule)).isNotNull();
    }
}
