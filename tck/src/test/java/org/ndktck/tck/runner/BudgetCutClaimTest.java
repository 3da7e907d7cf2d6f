package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A property the time budget cuts short before its tries reach its coverage claim leaves its rule UNTESTED with the
 * reason, never PASS: against legal:slow-completion (every call pends 3 ms), COV-3's claim needs 77 tries of about
 * twenty pending calls each, far more than a 3 s budget holds, so its property is cut short; its rule is UNTESTED,
 * saying which claim was not reached and that the budget cut it (before, the rule was PASS, budget-limited, with the
 * claim unchecked). A correct provider, so nothing FAILs.
 */
class BudgetCutClaimTest {
    @TempDir
    Path dir;

    @Test
    void aClaimTheBudgetCutShortIsUntestedWithItsReason() throws Exception {
        Cli.Result r = Cli.run("run", "--provider", "legal:slow-completion", "--time-budget", "3", "--rules", "COV-3",
                "--seed", "5", "--report-dir", dir.toString(), "--progress", "none", "--quiet");
        JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertThat(report.at("/summary/failed").asInt()).as(r.out() + r.err()).isZero();
        JsonNode rule = null;
        for (JsonNode x : report.get("rules")) {
            if (x.get("id").asText().equals("COV-3")) {
                rule = x;
            }
        }
        assertThat(rule).as(r.out()).isNotNull();
        assertThat(rule.get("verdict").asText()).as(rule.toString()).isEqualTo("UNTESTED");
        assertThat(rule.get("message").asText()).as(rule.toString()).contains("coverage claim not reached")
                .contains("time budget ran out (budget-limited)");
        boolean limited = false;
        for (JsonNode p : report.get("properties")) {
            limited |= p.get("budgetLimited").asBoolean() && p.get("message").asText().contains("coverage claim not reached");
        }
        assertThat(limited).as("the cut property is marked budgetLimited in report.json\n" + report.get("properties")).isTrue();
    }
}
