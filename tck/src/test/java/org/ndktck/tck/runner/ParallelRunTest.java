package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run --jobs N}: the verdicts equal those of {@code --jobs 1} with the same seed, and what a
 * provider does in one worker (fails, throws, hangs, ends its JVM) does not change another worker's verdicts;
 * the merged report is always written.
 */
class ParallelRunTest {
    @TempDir
    Path tmp;

    /** The probe properties' rules, in catalog order. */
    private static final List<String> PROBE_RULES = RuleCatalog.standard().rules().stream().map(Rule::id)
            .filter(id -> Set.of("GEN-CB-1", "GEN-CB-2", "MR-CREATE-2").contains(id)).toList();

    private static Map<String, String> verdicts(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        new ObjectMapper().readTree(dir.resolve("report.json").toFile()).get("rules")
                .forEach(r -> m.put(r.get("id").asText(), r.get("verdict").asText() + "/" + r.get("tries").asInt()));
        return m;
    }

    @Test
    void twoWorkersGiveTheVerdictsOfOne() throws IOException {
        String[] common = {"--tries", "15", "--seed", "99", "--set", "fail=MR-CREATE-2", "--set", "violate=GEN-CB-2>GEN-CB-1",
                "--set", "crash=GEN-CB-1"};
        Cli.Result one = Cli.probeRun(tmp.resolve("one"), concat(common, "--jobs", "1"));
        Cli.Result two = Cli.probeRun(tmp.resolve("two"), concat(common, "--jobs", "2"));
        assertThat(one.code()).isEqualTo(1);
        assertThat(two.code()).as(two.out() + two.err()).isEqualTo(1);
        assertThat(two.out()).contains("jobs         2 workers").contains("FAIL MR-CREATE-2");
        assertThat(verdicts(tmp.resolve("two"))).isEqualTo(verdicts(tmp.resolve("one")));
        assertThat(tmp.resolve("two/workers/1/report.json")).exists();
        assertThat(tmp.resolve("two/workers/2/report.json")).exists();
        assertThat(tmp.resolve("two/report.html")).exists();
        assertThat(tmp.resolve("two/junit/TEST-ndk-tck.xml")).exists();
        JsonNode w = new ObjectMapper().readTree(tmp.resolve("two/report.json").toFile());
        JsonNode o = new ObjectMapper().readTree(tmp.resolve("one/report.json").toFile());
        assertThat(w.get("replay").asText()).isEqualTo(o.get("replay").asText()).doesNotContain("--shard");
        assertThat(w.get("shard").isNull()).isTrue();
        assertThat(w.get("summary").get("tries")).isEqualTo(o.get("summary").get("tries"));
        assertThat(w.get("notes").toString()).doesNotContain("missing shards");
        // each property ran in exactly one worker
        List<String> ran = new ArrayList<>();
        for (String k : List.of("1", "2")) {
            new ObjectMapper().readTree(tmp.resolve("two/workers/" + k + "/report.json").toFile()).get("properties")
                    .forEach(p -> ran.add(p.get("property").asText()));
        }
        assertThat(ran).doesNotHaveDuplicates().hasSameSizeAs(o.get("properties"));
    }

    @Test
    void workersOfAShardGiveTheVerdictsOfThatShard() throws IOException {
        String[] common = {"--tries", "12", "--seed", "5", "--set", "fail=MR-CREATE-2,GEN-CB-1", "--shard", "1/2"};
        Cli.Result one = Cli.probeRun(tmp.resolve("one"), concat(common, "--jobs", "1"));
        Cli.Result two = Cli.probeRun(tmp.resolve("two"), concat(common, "--jobs", "2"));
        assertThat(two.code()).as(two.out() + two.err()).isEqualTo(one.code());
        assertThat(verdicts(tmp.resolve("two"))).isEqualTo(verdicts(tmp.resolve("one")));
        JsonNode w = new ObjectMapper().readTree(tmp.resolve("two/report.json").toFile());
        assertThat(w.get("shard").get("index").asInt()).isEqualTo(1);
        assertThat(w.get("shard").get("count").asInt()).isEqualTo(2);
        assertThat(w.get("replay").asText()).contains("--shard 1/2");
    }

    @Test
    void aWorkerWhoseJvmEndsLeavesTheRulesOfItsClaimedPropertyUntestedAndTheOthersAsInOneRun() throws IOException {
        Cli.Result one = Cli.probeRun(tmp.resolve("one"), "--tries", "10", "--seed", "3", "--set", "fail=MR-CREATE-2", "--jobs", "1");
        // worker 1 holds its first property until worker 2 has claimed one; worker 2 ends its JVM in that property
        Cli.Result two = Cli.probeRun(tmp.resolve("two"), "--tries", "10", "--seed", "3", "--set", "fail=MR-CREATE-2",
                "--set", "haltWorker=2", "--set", "holdFor=2", "--jobs", "2");
        assertThat(one.code()).isEqualTo(1);
        assertThat(two.code()).as(two.out() + two.err()).isEqualTo(1);
        List<String> lost = new ArrayList<>();
        try (var claims = java.nio.file.Files.list(tmp.resolve("two/workers/claims"))) {
            claims.filter(f -> readString(f).equals("2")).forEach(f -> lost.add(f.getFileName().toString()));
        }
        assertThat(lost).hasSize(1);
        JsonNode report = new ObjectMapper().readTree(tmp.resolve("two/report.json").toFile());
        Set<String> lostRules = new LinkedHashSet<>();
        new ObjectMapper().readTree(tmp.resolve("one/report.json").toFile()).get("rules").forEach(r -> r.get("properties").forEach(p -> {
            if (p.asText().replaceAll("[^A-Za-z0-9._-]", "_").equals(lost.get(0))) {
                lostRules.add(r.get("id").asText());
            }
        }));
        assertThat(lostRules).isNotEmpty();
        Map<String, String> v = verdicts(tmp.resolve("two"));
        Map<String, String> o = verdicts(tmp.resolve("one"));
        for (String id : o.keySet()) {
            if (lostRules.contains(id)) {
                assertThat(v.get(id)).as(id).startsWith("UNTESTED");
            } else {
                assertThat(v.get(id)).as(id).isEqualTo(o.get(id));
            }
        }
        assertThat(report.get("notes").toString()).contains("worker 2 of 2").contains("exit code 7").contains("without a report")
                .contains("claimed by worker 2");
    }

    private static String readString(Path f) {
        try {
            return java.nio.file.Files.readString(f).trim();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aHangInOneWorkerCostsOnlyItsPropertyBound() throws IOException {
        String[] common = {"--tries", "10", "--seed", "4", "--set", "hang=GEN-CB-2", "--property-timeout", "2"};
        Cli.Result one = Cli.probeRun(tmp.resolve("one"), concat(common, "--jobs", "1"));
        Cli.Result two = Cli.probeRun(tmp.resolve("two"), concat(common, "--jobs", "2"));
        assertThat(two.code()).as(two.out() + two.err()).isEqualTo(1).isEqualTo(one.code());
        assertThat(verdicts(tmp.resolve("two"))).isEqualTo(verdicts(tmp.resolve("one")));
        assertThat(verdicts(tmp.resolve("two")).get("GEN-CB-2")).startsWith("FAIL");
    }

    @Test
    void aWorkersProgressLineBecomesAFinishedProperty() {
        PropertyInfo p = new PropertyInfo("[engine:jqwik]/[class:X]/[property:y]", "X#y", "X", "y", Set.of("GEN-CB-1"));
        Map<String, PropertyInfo> byId = Map.of("X#y", p);
        PropertyOutcome ok = ParallelRun.progress("[ 3/87 properties] ok        GEN-CB-1  X#y  50 tries  0.9 s  (elapsed 00:01)", byId);
        assertThat(ok).isNotNull();
        assertThat(ok.status()).isEqualTo("SUCCESSFUL");
        assertThat(ok.tries()).isEqualTo(50);
        assertThat(ok.durationMillis()).isEqualTo(900);
        PropertyOutcome cut = ParallelRun.progress("[4/9 properties] cut short by GEN-CB-2: GEN-CB-1  X#y  2 tries  0.0 s  (elapsed 00:00)", byId);
        assertThat(cut.status()).isEqualTo("FAILED");
        PropertyOutcome timedOut = ParallelRun.progress("[4/9 properties] TIMED OUT GEN-CB-1  X#y  0 tries  2.0 s  (elapsed 00:03)", byId);
        assertThat(timedOut.status()).isEqualTo(PropertyOutcome.TIMED_OUT);
        assertThat(ParallelRun.progress("seed         5", byId)).isNull();
        assertThat(ParallelRun.progress("[1/1 properties] ok  GEN-CB-1  Other#z  1 tries  0.0 s  (elapsed 00:00)", byId)).isNull();
    }

    @Test
    void theSmokeProfileDefaultsToOneWorkerAndTheOthersToTheProcessors() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty(ParallelRun.JOBS) == null && System.getenv("NDK_TCK_JOBS") == null,
                "a jobs default is set for this JVM");
        int processors = Math.max(1, Runtime.getRuntime().availableProcessors());
        assertThat(ParallelRun.jobs(null, org.ndktck.tck.harness.TckConfig.Profile.SMOKE)).isEqualTo(1);
        assertThat(ParallelRun.jobs(null, org.ndktck.tck.harness.TckConfig.Profile.STANDARD)).isEqualTo(processors);
        assertThat(ParallelRun.jobs(null, org.ndktck.tck.harness.TckConfig.Profile.DEEP)).isEqualTo(processors);
        assertThat(ParallelRun.jobs(3, org.ndktck.tck.harness.TckConfig.Profile.SMOKE)).isEqualTo(3);
    }

    @Test
    void aBadJobsCountIsAUsageError() {
        Cli.Result r = Cli.probeRun(tmp.resolve("bad"), "--jobs", "0");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("bad --jobs 0");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
