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
 * A coverage claim nobody checked is not passed over in silence. GEN-TIME-1's property claims that every registration
 * case of its workouts came (the generator's edge cases, which run first: 44 of them); with {@code --tries 5} a kit
 * that skipped the claim below its threshold reported a bare GEN-TIME-1 PASS. This one judges the five checks that ran
 * and its PASS says the claim was not checked and the tries that check it; at the smoke profile's own tries the claim
 * is checked and the PASS carries no such note. A step-mix claim is never left out of reach
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
        assertThat(time.get("verdict").asText()).as("its five checks ran and are judged").isEqualTo("PASS");
        String note = time.get("message").asText();
        assertThat(note).as("the PASS says the claim was not checked").contains("coverage claim not reached: 'registration'");
        // the tries it needs are the registration generator's edge cases (more than the 5 asked for), and the note says so
        java.util.regex.Matcher need = java.util.regex.Pattern.compile("need (\\d+) tries and 5 ran").matcher(note);
        assertThat(need.find()).as(note).isTrue();
        assertThat(Integer.parseInt(need.group(1))).isGreaterThan(5);
        assertThat(note).contains("at least " + need.group(1));
        assertThat(find(few, "properties", "property", "GeneralAsyncProperties#everyCallReturnsWithinTheBound").get("message").asText())
                .startsWith("coverage claim not reached: 'registration'");
        JsonNode chain = find(few, "properties", "property", "OneAdapterChainProperties#longInterleavingsOnOneAdapterFollowTheModel");
        assertThat(chain.get("tries").asInt()).as("raised to the step-mix claim's least tries").isEqualTo(40);
        assertThat(find(few, "rules", "id", "COV-3").get("verdict").asText()).isEqualTo("PASS");

        JsonNode smoke = run("smoke");
        assertThat(find(smoke, "rules", "id", "GEN-TIME-1").get("verdict").asText()).isEqualTo("PASS");
        assertThat(find(smoke, "rules", "id", "GEN-TIME-1").get("message").asText()).as("claim checked: no note").doesNotContain("coverage claim");
        assertThat(find(smoke, "rules", "id", "GEN-TIME-1").get("checksRun").asInt()).isPositive();
    }
}
