package org.ndktck.tck.gaps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.MutationGapFaults;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.kit.KitRun;

/**
 * The kit fails the rule in the name of every fault of {@link MutationGapFaults} (surviving PIT mutants of the
 * reference provider turned into faults), running only the properties of that rule, as {@code selftest} does.
 * Each of these faults survived the kit before its gap was closed.
 */
class MutationGapsTest {
    /**
     * Tries per fault: the rarest of these faults (MR-REG-4/mdl-boundary-in-page, caught when a chain's inner MDL
     * boundary falls inside a page and the probe reaches past it) took 14 to 113 tries over five seeds, so 400
     * keeps the chance of a miss below 10^-4 while a caught fault stops at its first failure.
     */
    static final int TRIES = 400;

    static Stream<String> faults() {
        return new MutationGapFaults().providers().stream().map(NdkProvider::name);
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
