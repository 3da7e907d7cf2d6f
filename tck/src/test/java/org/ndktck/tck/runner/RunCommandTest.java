package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.Verdict;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code run} end to end, in-process, against the probe provider and probe properties. */
class RunCommandTest {
    @TempDir
    Path tmp;

    private static JsonNode json(Path dir) throws IOException {
        return new ObjectMapper().readTree(dir.resolve("report.json").toFile());
    }

    private static Map<String, JsonNode> rules(JsonNode report) {
        Map<String, JsonNode> m = new HashMap<>();
        report.get("rules").forEach(r -> m.put(r.get("id").asText(), r));
        return m;
    }

    @Test
    void aPassingRunExitsZeroPrintsTheConfigurationAndReportsEveryCatalogRule() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "20", "--seed", "42");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("provider     runner-probe").contains("seed         42")
                .contains("settings     advise= (default)").contains("adapter      NDKPI 1.2")
                .contains("RULE").contains("STRENGTH").contains("VERDICT").contains("TRIES")
                .contains("Result: PASS (exit 0)").contains("tries/s");
        assertThat(r.out().indexOf("provider     runner-probe")).isLessThan(r.out().indexOf("RULE "));
        JsonNode rep = json(tmp);
        assertThat(rep.get("seed").asLong()).isEqualTo(42);
        assertThat(rep.at("/provider/name").asText()).isEqualTo("runner-probe");
        assertThat(rep.at("/provider/settings").has("fail")).isTrue();
        assertThat(rep.at("/provider/adapterInfo/version").asText()).isEqualTo("1.2");
        assertThat(rep.at("/kit/version").isTextual()).isTrue();
        for (String f : List.of("passed", "failed", "advisory", "notApplicable", "notTestable", "untested", "excluded")) {
            assertThat(rep.get("summary").has(f)).as(f).isTrue();
        }
        Set<String> catalogIds = RuleCatalog.standard().rules().stream().map(x -> x.id()).collect(Collectors.toSet());
        Map<String, JsonNode> rules = rules(rep);
        assertThat(rules.keySet()).containsAll(catalogIds);
        for (JsonNode rule : rep.get("rules")) {
            assertThat(Verdict.valueOf(rule.get("verdict").asText())).isNotNull();
            for (String f : List.of("id", "strength", "verdict", "tries", "durationMillis", "message", "counterexample", "replay")) {
                assertThat(rule.has(f)).as(rule.get("id") + "." + f).isTrue();
            }
        }
        assertThat(rules.get("GEN-CB-1").get("verdict").asText()).isEqualTo("PASS");
        assertThat(rules.get("GEN-CB-1").get("tries").asInt()).isEqualTo(20);
        assertThat(rules.get("MR-CREATE-2").get("verdict").asText()).isEqualTo("PASS");
        assertThat(rep.get("triesPerSecond").asDouble()).isPositive();
        assertThat(rep.get("summary").get("passed").asInt()).isEqualTo(3);
        assertThat(rep.get("exitCode").asInt()).isZero();
        assertThat(tmp.resolve("report.html")).exists();
        assertThat(tmp.resolve("junit/TEST-ndk-tck.xml")).exists();
        try (var files = Files.list(tmp.resolve("junit-platform"))) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("TEST-") && n.endsWith(".xml"));
        }
    }

    @Test
    void aFailurePrintsRuleStrengthMessageSeedAndAReplayCommandThatReproducesIt() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "30", "--seed", "7", "--set", "fail=MR-CREATE-2");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL MR-CREATE-2 (MUST)").contains("FBO=0x200").contains("seed: 7")
                .contains("Result: FAIL (exit 1)");
        String replay = r.out().lines().filter(l -> l.contains("replay: ") && l.contains("--rules MR-CREATE-2"))
                .findFirst().orElseThrow().substring(r.out().lines().filter(l -> l.contains("replay: ")
                        && l.contains("--rules MR-CREATE-2")).findFirst().orElseThrow().indexOf("./ndk-tck"));
        assertThat(replay).startsWith("./ndk-tck run --provider runner-probe --provider-jar ")
                .contains("--set fail=MR-CREATE-2").contains("--rules MR-CREATE-2").contains("--seed 7").contains("--tries 30");
        JsonNode rule = rules(json(tmp)).get("MR-CREATE-2");
        assertThat(rule.get("verdict").asText()).isEqualTo("FAIL");
        assertThat(rule.get("replay").asText()).isEqualTo(replay);
        assertThat(rule.get("counterexample").asText()).isNotBlank();
        String seed = rule.get("seed").asText();

        List<String> args = new ArrayList<>(Cli.words(replay));
        assertThat(args.subList(0, 2)).containsExactly("./ndk-tck", "run");
        args = new ArrayList<>(args.subList(1, args.size()));
        Path again = tmp.resolve("again");
        args.addAll(List.of("--report-dir", again.toString(), "--progress", "none"));
        Cli.Result r2 = Cli.run(args.toArray(String[]::new));
        assertThat(r2.code()).isEqualTo(1);
        JsonNode rule2 = rules(json(again)).get("MR-CREATE-2");
        assertThat(rule2.get("verdict").asText()).isEqualTo("FAIL");
        assertThat(rule2.get("seed").asText()).isEqualTo(seed);
        assertThat(rule2.get("counterexample").asText()).isEqualTo(rule.get("counterexample").asText());
        assertThat(rules(json(again)).get("GEN-CB-1").get("selected").asBoolean()).isFalse();
    }

    @Test
    void anAdvisoryPassesUnlessStrict() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "10", "--set", "advise=GEN-CB-1");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("ADVISORY GEN-CB-1 (MUST)");
        assertThat(rules(json(tmp)).get("GEN-CB-1").get("verdict").asText()).isEqualTo("ADVISORY");
        Cli.Result strict = Cli.probeRun(tmp.resolve("s"), "--tries", "10", "--set", "advise=GEN-CB-1", "--strict");
        assertThat(strict.code()).isEqualTo(1);
        assertThat(strict.out()).contains("ADVISORY fails under --strict");
    }

    @Test
    void aCrashingPropertyIsThatRulesFailWithTheException() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "10", "--set", "crash=GEN-CB-2");
        assertThat(r.code()).isEqualTo(1);
        Map<String, JsonNode> rules = rules(json(tmp));
        assertThat(rules.get("GEN-CB-2").get("verdict").asText()).isEqualTo("FAIL");
        assertThat(rules.get("GEN-CB-2").get("message").asText()).contains("IllegalStateException").contains("probe provider exploded");
        assertThat(rules.get("GEN-CB-1").get("verdict").asText()).isEqualTo("PASS");
        assertThat(rules.get("MR-CREATE-2").get("verdict").asText()).isEqualTo("PASS");
    }

    @Test
    void aRuleViolationNamingAnotherRuleFailsThatRuleAndLeavesThePropertysRuleUntested() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "10", "--set", "violate=MR-CREATE-2>GEN-CB-2", "--rules", "MR-CREATE-2");
        assertThat(r.code()).isEqualTo(1);
        Map<String, JsonNode> rules = rules(json(tmp));
        assertThat(rules.get("GEN-CB-2").get("verdict").asText()).isEqualTo("FAIL");
        assertThat(rules.get("GEN-CB-2").get("selected").asBoolean()).isFalse();
        assertThat(rules.get("GEN-CB-2").get("message").asText()).contains("reported by CreateMrProbe#createSucceeds");
        assertThat(rules.get("MR-CREATE-2").get("verdict").asText()).as("its property stopped at GEN-CB-2's violation").isEqualTo("UNTESTED");
        assertThat(rules.get("MR-CREATE-2").get("message").asText()).contains("cut short").contains("GEN-CB-2");
        assertThat(rules.get("GEN-CB-1").get("verdict").asText()).isEqualTo("UNTESTED");
    }

    @Test
    void aStuckPropertyIsAbandonedAndTheRestOfTheRunGoesOn() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "10", "--set", "hang=GEN-CB-1", "--property-timeout", "1");
        assertThat(r.code()).isEqualTo(1);
        Map<String, JsonNode> rules = rules(json(tmp));
        assertThat(rules.get("GEN-CB-1").get("verdict").asText()).isEqualTo("FAIL");
        assertThat(rules.get("GEN-CB-1").get("message").asText()).contains("did not finish within 1000 ms");
        assertThat(rules.get("GEN-CB-2").get("verdict").asText()).isEqualTo("PASS");
        assertThat(rules.get("MR-CREATE-2").get("verdict").asText()).isEqualTo("PASS");
        assertThat(json(tmp).get("notes").toString()).contains("abandoned");
    }

    @Test
    void rulePatternsSelectRulesAndTheOthersAreReportedUnselected() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "5", "--rules", "gen-cb-*");
        assertThat(r.code()).isZero();
        Map<String, JsonNode> rules = rules(json(tmp));
        assertThat(rules.get("GEN-CB-1").get("verdict").asText()).isEqualTo("PASS");
        assertThat(rules.get("GEN-CB-2").get("verdict").asText()).isEqualTo("PASS");
        assertThat(rules.get("MR-CREATE-2").get("verdict").asText()).isEqualTo("UNTESTED");
        assertThat(rules.get("MR-CREATE-2").get("selected").asBoolean()).isFalse();
        assertThat(rules.get("MR-CREATE-2").get("tries").asInt()).isZero();
    }

    @Test
    void exclusionsHoldUntilTheirExpiryAndExpiredOnesAreIgnoredWithANote() throws IOException {
        Path file = tmp.resolve("exclusions.txt");
        Files.writeString(file, """
                # rule | expires | reason
                MR-CREATE-2 | 2030-01-01 | vendor bug 1234, fixed in firmware 2.2
                GEN-CB-*    | 2020-01-01 | an old excuse
                """);
        Cli.Result r = Cli.probeRun(tmp.resolve("out"), "--tries", "5", "--set", "fail=MR-CREATE-2,GEN-CB-1",
                "--exclusions", file.toString(), "--today", "2026-06-01");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("EXPIRED on 2020-01-01, ignored: GEN-CB-*")
                .contains("MR-CREATE-2 excluded until 2030-01-01");
        JsonNode rep = json(tmp.resolve("out"));
        Map<String, JsonNode> rules = rules(rep);
        assertThat(rules.get("MR-CREATE-2").get("verdict").asText()).isEqualTo("EXCLUDED");
        assertThat(rules.get("MR-CREATE-2").get("message").asText()).contains("vendor bug 1234");
        assertThat(rules.get("MR-CREATE-2").get("tries").asInt()).isZero();
        assertThat(rules.get("GEN-CB-1").get("verdict").asText()).isEqualTo("FAIL");
        assertThat(rep.get("notes").toString()).contains("expired on 2020-01-01");

        Cli.Result later = Cli.probeRun(tmp.resolve("later"), "--tries", "5", "--set", "fail=MR-CREATE-2",
                "--exclusions", file.toString(), "--today", "2030-01-02");
        assertThat(later.code()).isEqualTo(1);
        assertThat(rules(json(tmp.resolve("later"))).get("MR-CREATE-2").get("verdict").asText()).isEqualTo("FAIL");
    }

    @Test
    void quietPrintsOnlyFailuresAndTheSummary() {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "5", "--quiet", "--set", "fail=GEN-CB-2");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).doesNotContain("provider     runner-probe").doesNotContain("[  ")
                .contains("FAIL GEN-CB-2").contains("Result: FAIL");
        assertThat(r.out().lines().filter(l -> l.startsWith("GEN-CB-1 "))).isEmpty();
    }

    @Test
    void plainProgressPrintsOneLinePerPropertyWithPropertiesDoneOutOfTotal() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "5");
        assertThat(r.out()).contains("[1/3 properties]").contains("[2/3 properties]").contains("[3/3 properties]")
                .contains("elapsed").contains("(3 properties)");
        // the table collapses UNTESTED and NOT_TESTABLE rules into count lines that agree with the summary
        JsonNode rep = json(tmp);
        long untested = rep.get("summary").get("untested").asLong();
        assertThat(untested).isPositive();
        assertThat(r.out()).contains("(" + untested + " UNTESTED rules not shown");
        rep.get("rules").forEach(n -> {
            if (n.get("verdict").asText().equals("UNTESTED")) {
                assertThat(r.out().lines().filter(l -> l.startsWith(n.get("id").asText() + " "))).isEmpty();
            }
        });
        Cli.Result v = Cli.probeRun(tmp.resolve("v"), "--tries", "5", "--verbose");
        rep.get("rules").forEach(n -> assertThat(v.out().lines().filter(l -> l.startsWith(n.get("id").asText() + " ")))
                .as(n.get("id").asText()).isNotEmpty());
        assertThat(v.out()).doesNotContain("rules not shown");
    }

    @Test
    void aRandomSeedIsExactInJsonAndSeedTextCarriesItsDecimal() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "3", "--rules", "GEN-CB-1");
        assertThat(r.code()).isZero();
        JsonNode rep = json(tmp);
        long seed = rep.get("seed").asLong();
        assertThat(seed).isBetween(0L, (1L << 53) - 1);
        assertThat(rep.get("seedText").asText()).isEqualTo(Long.toString(seed));
        assertThat(rep.get("seedGiven").asBoolean()).isFalse();
        Cli.Result big = Cli.probeRun(tmp.resolve("b"), "--tries", "3", "--rules", "GEN-CB-1", "--seed", "-9223372036854775807");
        assertThat(big.code()).isZero();
        assertThat(json(tmp.resolve("b")).get("seedText").asText()).isEqualTo("-9223372036854775807");
        assertThat(json(tmp.resolve("b")).get("seed").asLong()).isEqualTo(-9223372036854775807L);
    }

    @Test
    void theHtmlReportOfARunHasEveryRuleAndDrawsTheCounterexample() throws IOException {
        Cli.Result r = Cli.probeRun(tmp, "--tries", "10", "--seed", "11", "--set", "fail=MR-CREATE-2");
        assertThat(r.code()).isEqualTo(1);
        org.jsoup.nodes.Document doc = org.jsoup.Jsoup.parse(tmp.resolve("report.html").toFile(), "UTF-8");
        List<String> ids = new ArrayList<>();
        json(tmp).get("rules").forEach(n -> ids.add(n.get("id").asText()));
        assertThat(doc.select("table#rules tr.rule td.id").eachText()).containsExactlyElementsOf(ids);
        assertThat(doc.select("tr#rule-MR-CREATE-2").attr("data-verdict")).isEqualTo("FAIL");
        assertThat(doc.select("tr#rule-GEN-CB-1").attr("data-verdict")).isEqualTo("PASS");
        org.jsoup.nodes.Element svg = doc.selectFirst("article#cx-MR-CREATE-2 svg.region-drawing");
        assertThat(svg).isNotNull();
        assertThat(svg.select("rect.page")).hasSize(2);
        assertThat(svg.select("rect.region, line.fbo, rect.access")).hasSize(3);
        assertThat(svg.select("text").eachText()).contains("FBO 0x200", "Length 0x1000", "BaseVirtualAddress 0x7000200");
        assertThat(doc.select("article#cx-MR-CREATE-2 code.replay").text()).contains("--rules MR-CREATE-2 --seed 11");
    }
}
