package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A property the runner abandons (it far outlasts its share of the time budget) stops its launcher for good: the
 * rest of the run goes on on a fresh launcher only, and a correct but slow provider never FAILs: each selected rule PASSes
 * or is UNTESTED for the budget (with two workers the
 * report has one budget note for the whole run). Before the
 * abandoned launcher was stopped it went on running the same properties beside the fresh one, and jqwik, whose
 * stores are process-wide, dropped the fresh property's statistics store when its twin ended
 * (CannotFindStoreException, a FAIL of a legal provider in {@code selftest}).
 */
class AbandonedPropertyTest {
    @TempDir
    Path dir;

    @Test
    void aSlowProviderPassesAWholeBudgetRunInWhichPropertiesWereAbandoned() throws Exception {
        Cli.Result r = Cli.run("run", "--provider", "legal:slow-completion", "--time-budget", "15", "--rules", "MR-TOK-6,COV-1",
                "--profile", "smoke", "--seed", "5", "--jobs", "2", "--report-dir", dir.toString(), "--quiet");
        JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertThat(report.get("notes").toString()).as("the scenario: a property was abandoned and the run went on")
                .contains("abandoned unfinished");
        assertThat(report.at("/summary/failed").asInt()).as(r.out()).isZero();
        // every selected rule PASSes, or is UNTESTED because of the budget (a property stopped unfinished, or cut short
        // before its tries reached its coverage claim): nothing else went wrong
        for (JsonNode rule : report.get("rules")) {
            if (rule.get("selected").asBoolean() && !rule.get("verdict").asText().equals("PASS")) {
                assertThat(rule.get("verdict").asText()).as(rule.toString()).isEqualTo("UNTESTED");
                assertThat(rule.get("message").asText()).as(rule.toString()).contains("budget");
            }
        }
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        // the two workers' budget notes are one note of the whole run, counting every budget-limited property
        java.util.List<String> budgetNotes = new java.util.ArrayList<>();
        report.get("notes").forEach(n -> {
            if (n.asText().startsWith("time budget of 15 s: ")) {
                budgetNotes.add(n.asText());
            }
        });
        long limited = 0;
        for (JsonNode p : report.get("properties")) {
            limited += p.get("budgetLimited").asBoolean() ? 1 : 0;
        }
        assertThat(budgetNotes).hasSize(1);
        assertThat(budgetNotes.get(0)).startsWith("time budget of 15 s: " + limited + " of " + report.get("properties").size());
    }
}
