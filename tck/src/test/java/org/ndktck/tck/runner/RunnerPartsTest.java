package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Shards, rule patterns, exclusions and replay quoting. */
class RunnerPartsTest {
    @TempDir
    Path tmp;

    @Test
    void shardsPartitionTheRulesDeterministicallyAndFairly() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            ids.add("R-" + i);
        }
        Set<String> withProps = new HashSet<>(ids.subList(0, 11));
        Set<String> union = new HashSet<>();
        for (int n = 1; n <= 3; n++) {
            Set<String> s = new Shard(n, 3).select(ids, withProps);
            assertThat(s).isEqualTo(new Shard(n, 3).select(ids, withProps));
            assertThat(s.stream().filter(withProps::contains).count()).isBetween(3L, 4L);
            for (String id : s) {
                assertThat(union.add(id)).as("in one shard only: " + id).isTrue();
            }
        }
        assertThat(union).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(Shard.parse(" 2 / 5 ")).isEqualTo(new Shard(2, 5));
        assertThatThrownBy(() -> Shard.parse("5/2")).isInstanceOf(UsageException.class);
    }

    @Test
    void rulePatternsAreIdsOrGlobsIgnoringCase() {
        List<String> ids = List.of("MR-FR-3", "MR-FR-4", "MR-FR-14", "MR-REG-4", "GEN-CB-1");
        assertThat(RulePatterns.select(ids, "MR-FR-*")).containsExactly("MR-FR-3", "MR-FR-4", "MR-FR-14");
        assertThat(RulePatterns.select(ids, "gen-cb-1, MR-REG-?")).containsExactly("MR-REG-4", "GEN-CB-1");
        assertThat(RulePatterns.select(ids, null)).hasSize(5);
        assertThatThrownBy(() -> RulePatterns.select(ids, "MR-FR-44")).isInstanceOf(UsageException.class)
                .hasMessageContaining("MR-FR-4");
        assertThat(RulePatterns.closest(ids, "MR-RF-4", 2)).containsExactly("MR-FR-4", "MR-REG-4");
    }

    @Test
    void exclusionsHoldThroughTheirExpiryDay() throws IOException {
        Path f = Files.writeString(tmp.resolve("x"), """
                # comment

                MR-FR-*  | 2027-01-31 | bug 1
                GEN-CB-1 | 2026-01-01 | bug 2 | with a pipe in the reason
                """);
        Exclusions ex = Exclusions.read(f, List.of("MR-FR-3", "MR-FR-4", "GEN-CB-1"));
        assertThat(ex.entries()).hasSize(2);
        assertThat(ex.entries().get(1).reason()).isEqualTo("bug 2 | with a pipe in the reason");
        Map<String, Exclusions.Entry> on = ex.inForce(List.of("MR-FR-3", "MR-FR-4", "GEN-CB-1"), LocalDate.parse("2026-01-01"));
        assertThat(on).containsOnlyKeys("MR-FR-3", "MR-FR-4", "GEN-CB-1");
        on = ex.inForce(List.of("MR-FR-3", "MR-FR-4", "GEN-CB-1"), LocalDate.parse("2026-01-02"));
        assertThat(on).containsOnlyKeys("MR-FR-3", "MR-FR-4");
        assertThat(ex.expired(LocalDate.parse("2026-01-02"))).singleElement().extracting(Exclusions.Entry::pattern).isEqualTo("GEN-CB-1");
    }

    @Test
    void replayCommandsQuoteWhatTheShellWouldInterpret() {
        String c = Replay.command("fault:MR-FR-3/overflow32", List.of(Path.of("my dir/p.jar")),
                new java.util.LinkedHashMap<>(Map.of("completion", "pending")), "SMOKE", 20, 2.0, KitDiscovery.KIT_PACKAGE,
                "MR-FR-*", -5);
        assertThat(c).isEqualTo("./ndk-tck run --provider fault:MR-FR-3/overflow32 --provider-jar 'my dir/p.jar' "
                + "--set completion=pending --rules 'MR-FR-*' --seed -5 --profile smoke --tries 20 --timeout-factor 2.0");
        assertThat(Cli.words(c)).contains("my dir/p.jar", "MR-FR-*");
        assertThat(Replay.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(Cli.words(Replay.quote("it's"))).containsExactly("it's");
    }
}
