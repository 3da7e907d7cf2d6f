package org.ndktck.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.Misbehaviours;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.kit.KitRun;

/**
 * The kit classifies the misbehaving providers ({@link Misbehaviours}): each fault is caught by the
 * rule in its name (a property's first failure is a violation of that rule, not the runner's time bound, a
 * crash or another rule), every selected property still ran, and the reference provider passes the same
 * properties right afterwards in the same JVM (the kit recovered: fresh adapters, fresh caller threads). How
 * long a catch takes is measured by {@code selftest} ("time to catch") and BENCHMARKS.md, not asserted here.
 *
 * <p>Properties are selected by the rule's tag. The general rules (GEN-*, CQ-2, DEF-2, OBJ-1) are checked by
 * the harness in passing; while the kit has no property of their own, the run uses "witness" properties
 * that make the calls the fault disturbs. A fault of a rule that is neither checked in passing nor has a
 * property fails the test.
 */
class MisbehavingProvidersTest {
    /** The timeout factor of these runs: bounds of 1 s per call and per completion. */
    static final double FACTOR = 0.2;
    /** Tries per property: enough for the first try to meet the fault, few enough for a quick run. */
    static final int TRIES = 10;

    /** A fault, and the properties that meet it when its rule has no property of its own. */
    static Stream<Arguments> faults() {
        return Stream.of(
                Arguments.of("fault:GEN-TIME-1/blocks-forever", List.of("MR-DEREG-2")),
                Arguments.of("fault:GEN-CB-1/pending-never-completes", List.of("MR-DEREG-2")),
                Arguments.of("fault:GEN-CB-1/completes-twice", List.of("MR-DEREG-2")),
                Arguments.of("fault:GEN-CB-2/after-inline-return", List.of("MR-DEREG-2")),
                Arguments.of("fault:GEN-CB-1/previous-request-context", List.of("MR-DEREG-2")),
                Arguments.of("fault:CQ-2/extra-entry-never-posted", List.of("MR-FR-8")),
                Arguments.of("fault:GEN-EXC-1/throws-from-call", List.of("MR-DEREG-2")),
                Arguments.of("fault:GEN-EXC-1/throws-from-completion-path", List.of("MR-DEREG-2")),
                Arguments.of("fault:GEN-CB-4/success-without-object", List.of("MR-DEREG-2")),
                Arguments.of("fault:OBJ-1/wrong-object-type", List.of("MR-DEREG-2")),
                Arguments.of("fault:DEF-2/cq-entry-after-inline-failure", List.of("MR-FR-7")),
                Arguments.of("fault:MR-TOK-5/token-changes-between-reads", List.of()));
    }

    @Test
    void everyMisbehaviourIsTested() {
        assertThat(faults().map(a -> (String) a.get()[0]).toList())
                .containsExactlyInAnyOrderElementsOf(Misbehaviours.providers().stream().map(NdkProvider::name).toList());
    }

    static String ruleOf(String fault) {
        return fault.substring("fault:".length()).split("/", 2)[0];
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault, List<String> witnesses) {
        String rule = ruleOf(fault);
        boolean ownProperty = KitRun.propertiesOf(rule) > 0;
        assertThat(ownProperty || (NdkSession.rulesCheckedInPassing().contains(rule) && !witnesses.isEmpty()))
                .as("the kit has a property for " + rule + ", or checks it in passing and the test names witnesses").isTrue();

        KitRun.Result r = KitRun.against(fault, KitRun.Preset.FAULTS).rules(rule).witnesses(witnesses.toArray(String[]::new))
                .tries(TRIES).timeoutFactor(FACTOR).run();
        String account = r.describe();

        r.assertCaught(rule);
        assertThat(r.properties()).as("every selected property ran\n" + account).hasSize((int) r.planned());

        KitRun.Result after = KitRun.against("reference", KitRun.Preset.FAULTS).rules(rule).witnesses(witnesses.toArray(String[]::new))
                .tries(TRIES).timeoutFactor(FACTOR).run();
        assertThat(after.failedRules()).as("the reference, right after the fault, in the same JVM\n" + after.describe()).isEmpty();
        assertThat(after.properties()).hasSize((int) after.planned());
    }
}
