package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code merge} of the shards of a run gives the verdicts (and tries) of the unsharded run with the same seed. */
class ShardMergeTest {
    @TempDir
    Path tmp;

    private static Map<String, String> verdicts(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        new ObjectMapper().readTree(dir.resolve("report.json").toFile()).get("rules")
                .forEach(r -> m.put(r.get("id").asText(), r.get("verdict").asText() + "/" + r.get("tries").asInt()));
        return m;
    }

    @Test
    void mergeOfTwoShardsEqualsTheUnshardedRun() throws IOException {
        String[] common = {"--tries", "15", "--seed", "99", "--set", "fail=MR-CREATE-2",
                "--set", "violate=GEN-CB-2>GEN-CB-1"};
        Cli.Result whole = Cli.probeRun(tmp.resolve("whole"), common);
        Cli.Result s1 = Cli.probeRun(tmp.resolve("s1"), concat(common, "--shard", "1/2"));
        Cli.Result s2 = Cli.probeRun(tmp.resolve("s2"), concat(common, "--shard", "2/2"));
        assertThat(whole.code()).isEqualTo(1);
        assertThat(s1.code() + s2.code()).isPositive();
        assertThat(verdicts(tmp.resolve("s1"))).isNotEqualTo(verdicts(tmp.resolve("whole")));

        Cli.Result merged = Cli.run("merge", tmp.resolve("s1").toString(), tmp.resolve("s2").toString(),
                "--report-dir", tmp.resolve("merged").toString());
        assertThat(merged.code()).as(merged.out() + merged.err()).isEqualTo(1);
        assertThat(merged.out()).contains("shards [1/2, 2/2]").contains("FAIL MR-CREATE-2");
        assertThat(verdicts(tmp.resolve("merged"))).isEqualTo(verdicts(tmp.resolve("whole")));
        JsonNode m = new ObjectMapper().readTree(tmp.resolve("merged/report.json").toFile());
        JsonNode w = new ObjectMapper().readTree(tmp.resolve("whole/report.json").toFile());
        assertThat(m.get("summary").get("failed")).isEqualTo(w.get("summary").get("failed"));
        assertThat(m.get("summary").get("tries")).isEqualTo(w.get("summary").get("tries"));
        assertThat(m.get("mergedShards")).hasSize(2);
        assertThat(m.get("replay").asText()).doesNotContain("--shard");
        assertThat(tmp.resolve("merged/report.html")).exists();
        assertThat(tmp.resolve("merged/junit/TEST-ndk-tck.xml")).exists();
    }

    @Test
    void aMissingShardIsNotedAndItsRulesStayUntested() throws IOException {
        Cli.probeRun(tmp.resolve("s1"), "--tries", "5", "--seed", "1", "--shard", "1/2");
        Cli.Result merged = Cli.run("merge", tmp.resolve("s1").toString(), "--report-dir", tmp.resolve("m").toString());
        assertThat(merged.out()).contains("missing shards 2/2");
        assertThat(verdicts(tmp.resolve("m")).values()).anyMatch(v -> v.startsWith("UNTESTED"));
    }

    @Test
    void reportsOfDifferentRunsAreNotMerged() {
        Cli.probeRun(tmp.resolve("a"), "--tries", "5", "--seed", "1", "--shard", "1/2");
        Cli.probeRun(tmp.resolve("b"), "--tries", "5", "--seed", "2", "--shard", "2/2");
        Cli.Result merged = Cli.run("merge", tmp.resolve("a").toString(), tmp.resolve("b").toString(),
                "--report-dir", tmp.resolve("m").toString());
        assertThat(merged.code()).isEqualTo(2);
        assertThat(merged.err()).contains("seed differs");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
