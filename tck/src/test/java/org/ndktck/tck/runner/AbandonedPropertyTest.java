package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A property the runner abandons (it far outlasts its share of the time budget) stops its launcher for good: the
 * rest of the run goes on on a fresh launcher only, and a correct but slow provider still PASSes. Before the
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
                "--profile", "smoke", "--seed", "5", "--report-dir", dir.toString(), "--quiet");
        JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertThat(report.get("notes").toString()).as("the scenario: a property was abandoned and the run went on")
                .contains("abandoned unfinished");
        assertThat(report.at("/summary/failed").asInt()).as(r.out()).isZero();
        assertThat(report.at("/summary/passed").asInt()).as(r.out()).isPositive();
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }
}
