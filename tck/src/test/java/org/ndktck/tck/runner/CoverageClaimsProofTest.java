package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.tck.report.ReportWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A coverage claim nobody checked is not a PASS. GEN-TIME-1's property claims that every registration case of its
 * workouts came (the generator's edge cases, which run first: 44 of them); with {@code --tries 5} a kit that skipped
 * the claim below its threshold reported GEN-TIME-1 PASS on five workouts. This one reports UNTESTED, naming the claim
 * and the tries that reach it, and PASS at the smoke profile's own tries. A step-mix claim is never left out of reach
 * by {@code --tries}: the chain's property runs its {@code @LeastTries} (COV-3's 40 chains) and passes.
 */
class CoverageClaimsProofTest {
    @TempDir
    Path tmp;

    private JsonNode run(String name, String... more) throws IOException {
        Path dir = tmp.resolve(name);
        List<String> a = new ArrayList<>(List.of("run", "--provider", "reference", "--rules", "GEN-TIME-1,COV-3", "--profile", "smoke",
                "--seed", "31", "--report-dir", dir.toString(), "--progress", "none"));
        a.addAll(List.of(more));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        return ReportWriter.mapper().readTree(dir.resolve("report.json").toFile());
    }

    private static JsonNode find(JsonNode report, String array, String key, String value) {
        for (JsonNode x : report.get(array)) {
            if (x.get(key).asText().equals(value)) {
                return x;
            }
        }
        throw new AssertionError("no " + value + " in " + array);
    }

    @Test
    void aClaimTheTriesCannotReachIsUntestedWithItsReasonNotPass() throws IOException {
        JsonNode few = run("few", "--tries", "5");
        JsonNode time = find(few, "rules", "id", "GEN-TIME-1");
        assertThat(time.get("verdict").asText()).isEqualTo("UNTESTED");
        assertThat(time.get("message").asText()).contains("coverage claim not reached: 'registration'")
                .contains("need 44 tries and 5 ran").contains("--tries");
        JsonNode chain = find(few, "properties", "property", "OneAdapterChainProperties#longInterleavingsOnOneAdapterFollowTheModel");
        assertThat(chain.get("tries").asInt()).as("raised to the step-mix claim's least tries").isEqualTo(40);
        assertThat(find(few, "rules", "id", "COV-3").get("verdict").asText()).isEqualTo("PASS");

        JsonNode smoke = run("smoke");
        assertThat(find(smoke, "rules", "id", "GEN-TIME-1").get("verdict").asText()).isEqualTo("PASS");
        assertThat(find(smoke, "rules", "id", "GEN-TIME-1").get("checksRun").asInt()).isPositive();
    }
}
