package org.ndktck.tck.kit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.SeedPageFaults;
import org.ndktck.spec.NdkProvider;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * (b) of the kit's proof: for every fault of {@link SeedPageFaults} ({@code fault:RULE-ID[/variant]}), the
 * whole seed-page kit runs against it, the fault is caught (a property's first failure is a violation of
 * RULE-ID, {@link KitRun.Result#assertCaught}), and the rules charged with a failure are exactly RULE-ID, plus
 * only the documented unavoidable extras of {@link #MAY_ALSO_FAIL}.
 *
 * <p>A failure thrown as a RuleViolation is charged to that violation's rule, any other failure to the
 * property's own rules (see {@link KitRun.Result#failedRules()}), so a crash of a property of another rule
 * shows as an extra rule and fails the test.
 */
class FaultsAreCaughtTest {
    /**
     * Unavoidable extras. A provider whose completion path uses the MR after the completion crashes its own
     * thread whenever the consumer closes the MR first, which can happen in any property: a provider thread
     * that dies with an exception is also a GEN-EXC-1 breach.
     */
    static final Map<String, Set<String>> MAY_ALSO_FAIL = Map.of(
            "fault:GEN-LIFE-1", Set.of("GEN-EXC-1"),
            // A PENDING call that never completes also breaks GEN-TIME-1 (every PENDING call completes within the
            // bound); under load the kit may see it first as a call that outlived its (shortened) bound.
            "fault:GEN-CB-1/never", Set.of("GEN-TIME-1"));

    /**
     * Provider settings a fault needs to show. Empty: a fault whose rule needs a limit the kit can reach
     * (GEN-CB-5: maxObjects, MR-REG-10: maxRegistrationSize) carries that setting as its own default, so it is
     * caught with default settings as in {@code ./ndk-tck selftest}.
     */
    static final Map<String, Map<String, String>> SETTINGS = Map.of();

    /** Time bounds: faults that never answer cost one bound per failing property, so they run with a small one. */
    static final Map<String, String> TIMEOUT_FACTOR = Map.of(
            "fault:GEN-CB-1/never", "0.1",
            "fault:GEN-TIME-1", "0.2",
            "fault:GEN-LIFE-1/deadlock", "0.2");

    static Stream<String> faults() {
        return new SeedPageFaults().providers().stream().map(NdkProvider::name);
    }

    static String ruleOf(String fault) {
        String id = fault.substring("fault:".length());
        int slash = id.indexOf('/');
        return slash < 0 ? id : id.substring(0, slash);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsExactlyTheBrokenRule(String fault) {
        KitRun k = KitRun.against(fault).tries(30).param("ndk.tck.timeoutFactor", TIMEOUT_FACTOR.getOrDefault(fault, "0.4"))
                .classes(KitProperties.seedPages());
        SETTINGS.getOrDefault(fault, Map.of()).forEach(k::set);
        KitRun.Result r = k.run();
        String rule = ruleOf(fault);
        Set<String> allowed = new TreeSet<>(MAY_ALSO_FAIL.getOrDefault(fault, Set.of()));
        allowed.add(rule);
        r.assertCaught(rule);
        assertThat(r.failedRules()).as(r.describe()).isSubsetOf(allowed);
    }
}
