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
 * Every printed replay reproduces its failure: for a sample of faults, a run over several rules
 * prints, for each FAIL, a replay command; running that command makes the same rule FAIL with the same
 * counterexample, also when the failure was found by a property of another rule (fault:MR-FR-10/fbo-dropped: the
 * life-cycle property of MR-DEREG-3 finds an MR-TOK-2 breach).
 */
class ReplayReproducesTest {
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

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "fault:MR-FR-10/fbo-dropped | MR-FR-*,MR-TOK-*,MR-DEREG-*,INV-*,LAM-* | 5553449687380011",
            "fault:MR-FR-4              | MR-FR-*,MR-TOK-*                         | 77",
            "fault:MR-TOK-6/shared-token | MR-TOK-*,MR-DEREG-*,INV-*               | 1234567"})
    void eachPrintedReplayMakesTheSameRuleFailWithTheSameCounterexample(String fault, String rules, long seed) throws IOException {
        Path first = tmp.resolve("first");
        Cli.Result r = Cli.run("run", "--provider", fault, "--rules", rules, "--profile", "smoke", "--seed", Long.toString(seed),
                "--report-dir", first.toString(), "--progress", "none", "--quiet");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode original = report(first);
        List<JsonNode> failed = new ArrayList<>();
        original.get("rules").forEach(x -> {
            if (x.get("verdict").asText().equals("FAIL")) {
                failed.add(x);
            }
        });
        assertThat(failed).isNotEmpty();
        int n = 0;
        int printed = 0; // the console prints one replay per cause (the rules sharing it are listed under it)
        for (JsonNode f : failed) {
            String replay = f.get("replay").asText();
            printed += r.out().contains("replay: " + replay) ? 1 : 0;
            List<String> args = new ArrayList<>(Cli.words(replay));
            assertThat(args.subList(0, 2)).containsExactly("./ndk-tck", "run");
            args = new ArrayList<>(args.subList(1, args.size()));
            Path again = tmp.resolve("replay-" + n++);
            args.addAll(List.of("--report-dir", again.toString(), "--progress", "none", "--quiet"));
            Cli.Result rr = Cli.run(args.toArray(String[]::new));
            JsonNode replayed = rule(report(again), f.get("id").asText());
            assertThat(replayed.get("verdict").asText()).as(replay + "\n" + rr.out()).isEqualTo("FAIL");
            assertThat(replayed.get("counterexample").asText()).as(replay).isEqualTo(f.get("counterexample").asText());
        }
        assertThat(printed).as("replays printed on the console\n" + r.out()).isPositive();
    }
}
