package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.harness.KitLifecycle;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * (a) of the kit's proof: every property of the seed pages and GEN passes against the reference provider
 * in each completion style, having judged every provider-checked rule (a check of it ran; {@link Unjudged} lists the
 * adapter limits the reference's defaults do not reach), and the READ_SINK pair is NOT_APPLICABLE, with its reason, on an adapter
 * without NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED.
 */
class ReferencePassesTest {
    private static final int TRIES = 50;

    private static KitRun.Result run(String key, String value) {
        KitRun k = KitRun.against("reference").tries(TRIES).classes(KitProperties.seedPages());
        if (key != null) {
            k.set(key, value);
        }
        return k.run();
    }

    private static void assertAllPass(KitRun.Result r, java.util.Map<String, String> mayBeUnjudged) {
        assertThat(r.failed()).as(r.describe()).isEmpty();
        r.assertJudged(mayBeUnjudged);
        assertThat(r.properties()).as(r.describe()).hasSizeGreaterThanOrEqualTo(37);
        for (RunLedger.PropertyRecord p : r.passed()) {
            assertThat(p.tries()).as(p.property()).isGreaterThan(1);
        }
    }

    @Test
    void passesWithInlineCompletions() {
        KitRun.Result r = run("completion", "inline");
        assertAllPass(r, Unjudged.INLINE_DEFAULTS);
        assertThat(r.skipped()).isEmpty();
    }

    @Test
    void passesWithPendingCompletions() {
        KitRun.Result r = run("completion", "pending");
        assertAllPass(r, Unjudged.DEFAULT_LIMITS);
        assertThat(r.skipped()).isEmpty();
    }

    @Test
    void passesWithMixedCompletions() {
        KitRun.Result r = run("completion", "mixed");
        assertAllPass(r, Unjudged.DEFAULT_LIMITS);
        assertThat(r.skipped()).as(r.describe()).isEmpty();
    }

    @Test
    void readSinkRulesAreNotApplicableWithoutTheAdapterFlag() {
        KitRun.Result r = run("readSinkNotRequired", "false");
        assertAllPass(r, Unjudged.INLINE_DEFAULTS);
        List<RunLedger.PropertyRecord> skipped = r.skipped();
        Set<String> skippedRules = skipped.stream().flatMap(p -> p.ruleIds().stream()).collect(Collectors.toSet());
        assertThat(skippedRules).containsExactlyInAnyOrder("MR-REG-7", "MR-FR-11");
        assertThat(skipped).allSatisfy(p -> assertThat(p.message()).startsWith(KitLifecycle.NOT_APPLICABLE)
                .contains("RDMA_READ_SINK_NOT_REQUIRED"));
    }
}
