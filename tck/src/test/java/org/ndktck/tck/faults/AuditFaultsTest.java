package org.ndktck.tck.faults;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.AuditFaults;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.kit.KitRun;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit catches every fault of {@link AuditFaults} (the rules the page audit added) by the rule in
 * its name (a property's first failure is a violation of that rule), running the properties of that rule only, as
 * {@code selftest} does, with at most 100 tries.
 */
class AuditFaultsTest {
    static final int TRIES = 100;

    static Stream<String> faults() {
        return AuditFaults.providers().stream().map(NdkProvider::name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault) {
        String rule = MisbehavingProvidersTest.ruleOf(fault);
        assertThat(KitRun.propertiesOf(rule)).as("properties of " + rule).isPositive();
        KitRun.Result r = KitRun.against(fault, KitRun.Preset.FAULTS).rules(rule).tries(TRIES).run();
        r.assertCaught(rule);
    }
}
