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
 * A correct provider whose adapter advertises small limits (NDK_ADAPTER_INFO's MaxRegistrationSize, SGE limits) gets
 * no FAIL: the kit's fixtures stay within the limits, and a check that cannot be made within them is UNTESTED with the
 * limit and the setting that reaches it, never FAIL and never PASS. Before the fixtures honoured the limits, the
 * reference with {@code --set maxRegistrationSize=8192} gave some 33 FAIL rules at the standard profile.
 */
class SmallAdapterLimitsTest {
    @TempDir
    Path tmp;

    private JsonNode run(String name, String... more) throws IOException {
        Path dir = tmp.resolve(name);
        List<String> a = new ArrayList<>(List.of("run", "--profile", "smoke", "--seed", "31", "--report-dir", dir.toString(),
                "--progress", "none"));
        a.addAll(List.of(more));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertThat(r.code()).as(r.out() + r.err()).isZero();
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

    @Test
    void aOnePageMaxRegistrationSizeLeavesThreePageChecksUntestedWithTheSetting() throws IOException {
        JsonNode report = run("one-page", "--provider", "reference", "--set", "maxRegistrationSize=4096",
                "--rules", "COV-2,MR-REG-14,MR-REG-10");
        JsonNode cov2 = rule(report, "COV-2");
        assertThat(cov2.get("verdict").asText()).as(cov2.toString()).isEqualTo("UNTESTED");
        assertThat(cov2.get("message").asText()).contains("past MaxRegistrationSize 0x0000000000001000", "--set maxRegistrationSize=");
        // undefined flag bits are still judged: the plans' Length is fitted to the limit
        assertThat(rule(report, "MR-REG-14").get("verdict").asText()).isEqualTo("PASS");
        // the property about the limit registers past it and accepts the reference's STATUS_INVALID_BUFFER_SIZE
        assertThat(rule(report, "MR-REG-10").get("verdict").asText()).isEqualTo("PASS");
    }

    @Test
    void anSgeLimitOfOneLeavesSgePositionsUntestedWithTheSetting() throws IOException {
        JsonNode report = run("tiny", "--provider", "legal:tiny-limits", "--rules", "COV-4,MR-REG-2,RW-3");
        JsonNode cov4 = rule(report, "COV-4");
        assertThat(cov4.get("verdict").asText()).as(cov4.toString()).isEqualTo("UNTESTED");
        assertThat(cov4.get("message").asText()).contains("SGE limit of 1", "--set maxSge=2");
        assertThat(rule(report, "MR-REG-2").get("verdict").asText()).isEqualTo("PASS");
        assertThat(rule(report, "RW-3").get("verdict").asText()).isEqualTo("PASS");
    }
}
