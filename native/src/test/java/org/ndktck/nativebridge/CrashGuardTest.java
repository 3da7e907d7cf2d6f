package org.ndktck.nativebridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segmentation fault in the C provider does not lose the run's results. The variant
 * {@code libndk_sample_crash.so} dereferences NULL in NdkRegisterMr with RDMA_READ_SINK, which MR-REG-7's property
 * asks for. Run as {@code ./ndk-tck} runs it (the jar's main class, {@link NativeAwareMain}, in a JVM of its own):
 * MR-REG-7 is FAIL with the crash and a replay command, MR-REG-11 (run in the same command) still PASSes, the
 * reports are written and the exit code is 1.
 */
class CrashGuardTest {
    @TempDir
    Path dir;

    @Test
    void aCrashIsThatRulesFailAndTheOtherRulesStillRun() throws Exception {
        Path reports = dir.resolve("reports");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), NativeAwareMain.class.getName(), "run", "--provider", "native",
                "--set", "library=" + KitCli.lib("libndk_sample_crash.so"), "--rules", "MR-REG-7,MR-REG-11",
                "--profile", "smoke", "--quiet", "--report-dir", reports.toString());
        Path log = dir.resolve("out.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.remove(CrashGuard.CHILD_ENV);
        Process p = pb.start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("the native provider crashed").contains("MR-REG-7");
        JsonNode report = new ObjectMapper().readTree(reports.resolve("report.json").toFile());
        assertThat(report.get("exitCode").asInt()).isEqualTo(1);
        JsonNode crashed = rule(report, "MR-REG-7");
        assertThat(crashed.get("verdict").asText()).isEqualTo("FAIL");
        assertThat(crashed.get("message").asText()).contains("crashed");
        assertThat(crashed.get("replay").asText()).contains("--rules MR-REG-7").contains("--seed " + report.get("seedText").asText())
                .contains("library=");
        assertThat(rule(report, "MR-REG-11").get("verdict").asText()).isEqualTo("PASS");
        assertThat(report.at("/summary/failed").asInt()).isEqualTo(1);
        assertThat(report.at("/summary/excluded").asInt()).isZero();
        assertThat(Files.readString(reports.resolve("junit/TEST-ndk-tck.xml"))).contains("MR-REG-7");
        try (var logs = Files.list(reports)) {
            assertThat(logs.map(f -> f.getFileName().toString())).anyMatch(n -> n.startsWith("hs_err_pid"));
        }
    }

    private static JsonNode rule(JsonNode report, String id) {
        for (JsonNode r : report.get("rules")) {
            if (r.get("id").asText().equals(id)) {
                return r;
            }
        }
        throw new AssertionError(id);
    }
}
