package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.tck.kit.KitRun;
import org.ndktck.tck.report.ReportWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A PASS rests on a check that ran. GEN-CB-5 judges a provider only when the adapter runs out of MRs within 32
 * NdkCreateMr calls; the reference's default object limit (maxObjects 65536) is never reached, so every try of its
 * property passes without comparing anything. A kit that counted passing tries reported GEN-CB-5 PASS there; this one
 * reports UNTESTED with the reason and the setting that reaches the check, and PASS with checks run once the reference
 * is given {@code --set maxObjects=16}. Each route carries the count: the CLI (one JVM, {@code --jobs 2}, shards
 * merged) and a provider's own JUnit Platform build (the kit's {@code PlatformReports} listener).
 */
class ChecksRunProofTest {
    private static final String RULES = "GEN-CB-4,GEN-CB-5";

    @TempDir
    Path tmp;

    private static JsonNode report(Path dir) throws IOException {
        return ReportWriter.mapper().readTree(dir.resolve("report.json").toFile());
    }

    private static JsonNode rule(JsonNode report, String id) {
        for (JsonNode r : report.get("rules")) {
            if (r.get("id").asText().equals(id)) {
                return r;
            }
        }
        throw new AssertionError("no rule " + id);
    }

    private static JsonNode property(JsonNode report, String id) {
        for (JsonNode p : report.get("properties")) {
            if (p.get("property").asText().equals(id)) {
                return p;
            }
        }
        throw new AssertionError("no property " + id);
    }

    private Path run(String name, String... more) {
        Path dir = tmp.resolve(name);
        List<String> a = new java.util.ArrayList<>(List.of("run", "--provider", "reference", "--rules", RULES, "--profile", "smoke",
                "--seed", "31", "--report-dir", dir.toString(), "--progress", "none"));
        a.addAll(List.of(more));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertThat(r.code()).as(r.out() + r.err()).isIn(0, 1);
        return dir;
    }

    private static void assertUntestedWithItsReason(JsonNode report) {
        JsonNode cb5 = rule(report, "GEN-CB-5");
        assertThat(cb5.get("verdict").asText()).as(cb5.toString()).isEqualTo("UNTESTED");
        assertThat(cb5.get("checksRun").asLong()).isZero();
        assertThat(cb5.get("judgedTries").asLong()).as("its tries were judged by the old count").isPositive();
        assertThat(cb5.get("message").asText()).startsWith("no check ran: ")
                .contains("did not run out of MRs within 32").contains("--set maxObjects=16");
        JsonNode p = property(report, "GeneralAsyncProperties#insufficientResourcesIsACleanFailureInlineOrAsync");
        assertThat(p.get("status").asText()).isEqualTo("SUCCESSFUL");
        assertThat(p.get("checksRun").get("GEN-CB-5").asInt()).isZero();
        assertThat(p.get("checksNotReached").get("GEN-CB-5").asText()).contains("maxObjects");
        // a rule whose property compares on every try keeps its PASS, with a count
        JsonNode cb4 = rule(report, "GEN-CB-4");
        assertThat(cb4.get("verdict").asText()).isEqualTo("PASS");
        assertThat(cb4.get("checksRun").asLong()).isPositive();
    }

    @Test
    void theReferenceAtItsDefaultObjectLimitLeavesGenCb5UntestedWithTheSettingThatReachesIt() throws IOException {
        Path dir = run("default");
        assertUntestedWithItsReason(report(dir));
        assertThat(java.nio.file.Files.readString(dir.resolve("report.html"))).contains("Checks run");
    }

    @Test
    void withALowObjectLimitGenCb5IsJudgedAndPasses() throws IOException {
        JsonNode r = report(run("limited", "--set", "maxObjects=16"));
        JsonNode cb5 = rule(r, "GEN-CB-5");
        assertThat(cb5.get("verdict").asText()).as(cb5.toString()).isEqualTo("PASS");
        assertThat(cb5.get("checksRun").asLong()).isPositive();
        assertThat(property(r, "GeneralAsyncProperties#insufficientResourcesIsACleanFailureInlineOrAsync").get("checksRun")
                .get("GEN-CB-5").asLong()).isEqualTo(cb5.get("checksRun").asLong());
    }

    @Test
    void workersAndShardsCarryTheCounts() throws IOException {
        JsonNode one = report(run("one"));
        JsonNode two = report(run("two", "--jobs", "2"));
        assertUntestedWithItsReason(two);
        assertThat(rule(two, "GEN-CB-4").get("checksRun")).isEqualTo(rule(one, "GEN-CB-4").get("checksRun"));
        run("s1", "--shard", "1/2");
        run("s2", "--shard", "2/2");
        Cli.Result merged = Cli.run("merge", tmp.resolve("s1").toString(), tmp.resolve("s2").toString(),
                "--report-dir", tmp.resolve("merged").toString());
        assertThat(merged.code()).as(merged.out() + merged.err()).isIn(0, 1);
        JsonNode m = report(tmp.resolve("merged"));
        assertUntestedWithItsReason(m);
        assertThat(rule(m, "GEN-CB-4").get("checksRun")).isEqualTo(rule(one, "GEN-CB-4").get("checksRun"));
    }

    @Test
    void aProvidersOwnBuildReportsItToo() throws IOException {
        Path dir = tmp.resolve("platform");
        KitRun.Result r = KitRun.against("reference").rules("GEN-CB-5").tries(20)
                .param(PlatformReports.REPORTS, "true").param(PlatformReports.REPORT_DIR, dir.toString()).run();
        assertThat(r.failed()).as(r.describe()).isEmpty();
        assertThat(r.unjudged()).containsOnlyKeys("GEN-CB-5");
        // the kit's own proofs demand judgement: this run fails them unless the documented adapter limit explains it
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.assertJudged(java.util.Map.of()))
                .hasMessageContaining("GEN-CB-5");
        r.assertJudged(org.ndktck.tck.kit.Unjudged.INLINE_DEFAULTS);
        JsonNode cb5 = rule(report(dir), "GEN-CB-5");
        assertThat(cb5.get("verdict").asText()).as(cb5.toString()).isEqualTo("UNTESTED");
        assertThat(cb5.get("checksRun").asLong()).isZero();
        assertThat(cb5.get("message").asText()).contains("--set maxObjects=16");
    }
}
