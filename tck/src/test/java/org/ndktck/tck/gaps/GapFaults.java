package org.ndktck.tck.gaps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.tck.kit.KitRun;

/** What the gap tests share: the fault names of a source, and the check that the kit fails the rule in a fault's name. */
final class GapFaults {
    private GapFaults() {
    }

    /** @return the names of the source's faults */
    static Stream<String> names(NdkProviderSource source) {
        return source.providers().stream().map(NdkProvider::name);
    }

    /** @return the rule ID in a {@code fault:RULE[/variant]} name */
    static String ruleOf(String fault) {
        return fault.substring("fault:".length()).split("/", 2)[0];
    }

    /**
     * Runs only the properties of the fault's rule, as {@code selftest} does, and requires the fault caught: a
     * property's first failure is a violation of that rule ({@link KitRun.Result#assertCaught}).
     *
     * @param fault the fault's name
     * @param tries tries per property
     */
    static void assertCaughtByItsRule(String fault, int tries) {
        String rule = ruleOf(fault);
        assertThat(KitRun.propertiesOf(rule)).as("properties tagged " + rule).isPositive();
        KitRun.Result r = KitRun.against(fault, KitRun.Preset.FAULTS).rules(rule).tries(tries).run();
        r.assertCaught(rule);
    }
}
