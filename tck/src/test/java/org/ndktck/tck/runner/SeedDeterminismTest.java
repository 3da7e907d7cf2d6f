package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ndktck.tck.report.ReportWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same seed gives the same run: two runs of one provider, rules, profile and seed write report.json files whose
 * every rule has the same verdict, tries, judged and discarded tries, checks run and counterexample, and whose every
 * property has the same status, tries, seed and counterexample. Shrinking and every other search of the kit are
 * bounded by steps, not time, so this holds on a busy machine too (the kit's own build is run with both cores kept
 * busy to show it: README, "Determinism"). Times, rates and the report's paths are left out of the comparison.
 */
class SeedDeterminismTest {
    @TempDir
    Path tmp;

    /** The fields of report.json that a seed decides. */
    private static List<String> decided(Path dir) throws IOException {
        JsonNode r = ReportWriter.mapper().readTree(dir.resolve("report.json").toFile());
        List<String> out = new ArrayList<>();
        out.add("seed " + r.get("seedText").asText() + " profile " + r.get("profile").asText() + " exit " + r.get("exitCode").asText());
        for (JsonNode x : r.get("rules")) {
            out.add(x.get("id").asText() + " " + x.get("verdict").asText() + " tries " + x.get("tries") + " judged "
                    + x.get("judgedTries") + " discarded " + x.get("discardedTries") + " checks " + x.get("checksRun")
                    + " counterexample " + x.get("counterexample") + " seed " + x.get("seed"));
        }
        for (JsonNode p : r.get("properties")) {
            out.add(p.get("property").asText() + " " + p.get("status").asText() + " tries " + p.get("tries") + " seed "
                    + p.get("seed") + " counterexample " + p.get("counterexample") + " checks " + p.get("checksRun")
                    + " first " + p.get("firstFailure"));
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "fault:MR-FR-4               | MR-FR-*,MR-TOK-*                | 77",
            "fault:MR-TOK-6/shared-token | MR-TOK-*,MR-DEREG-*,INV-*,COV-3 | 1234567",
            "reference                   | GEN-*,SEC-1,COV-3,MR-DEREG-3    | 31"})
    void theSameSeedGivesTheSameTriesCounterexamplesAndVerdicts(String provider, String rules, long seed) throws IOException {
        List<List<String>> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Path dir = tmp.resolve("run-" + i);
            Cli.Result r = Cli.run("run", "--provider", provider, "--rules", rules, "--profile", "smoke", "--seed", Long.toString(seed),
                    "--report-dir", dir.toString(), "--progress", "none", "--quiet");
            assertThat(r.code()).as(r.out() + r.err()).isIn(0, 1);
            runs.add(decided(dir));
        }
        assertThat(runs.get(0)).as("a run decides something").hasSizeGreaterThan(10);
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
    }
}
