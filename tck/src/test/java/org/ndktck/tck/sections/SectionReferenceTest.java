package org.ndktck.tck.sections;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.kit.KitRun;

import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The section properties pass against the reference provider in every configuration the kit supports: no
 * property fails, and the capability-gated rules are skipped (NOT_APPLICABLE) exactly where the adapter
 * lacks the capability.
 */
class SectionReferenceTest {
    private static final int TRIES = 40;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
            "completion=inline",
            "completion=pending",
            "completion=mixed,seed=7",
            "readSinkNotRequired=false",
            "ndkVersion=1.1",
            "pageSize=16384"})
    void referencePasses(String settings) {
        KitRun run = KitRun.against("reference", KitRun.Preset.SECTIONS).tries(TRIES).classes(SectionProperties.all());
        for (String kv : settings.split(",")) {
            run.set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        KitRun.Result r = run.run();
        assertThat(r.failed()).as(r.describe()).isEmpty();
        Set<String> skipped = new TreeSet<>();
        r.skipped().forEach(p -> skipped.addAll(p.ruleIds()));
        Set<String> expectedSkips = new TreeSet<>();
        if (settings.contains("readSinkNotRequired=false")) {
            expectedSkips.add("PRIV-3");
        }
        if (settings.contains("ndkVersion=1.1")) {
            expectedSkips.addAll(Set.of("DEF-3", "DEF-4", "RW-4"));
            // FlushProperties' DEFER property carries FL-1 beside DEF-3 and is skipped with it; FL-1's own property runs
            expectedSkips.add("FL-1");
            assertThat(r.passed()).as(r.describe()).anyMatch(p -> p.ruleIds().contains("FL-1"));
        }
        assertThat(skipped).as(r.describe()).isEqualTo(expectedSkips);
        assertThat(r.passed()).as("every other property ran").hasSize(r.properties().size() - r.skipped().size());
        assertThat(RunLedger.properties()).isNotEmpty();
    }
}
