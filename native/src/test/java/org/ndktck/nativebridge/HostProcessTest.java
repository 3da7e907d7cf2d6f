package org.ndktck.nativebridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Process isolation of a C provider ({@code --set isolation=process}, {@code --set sanitizer=...}): the library runs
 * in ndk-tck-host, a crash or a sanitizer's report ends that process only and FAILs the rule of the property that
 * was running with the evidence, the run goes on with a fresh process and writes its reports; the sample passes
 * there as it does in-process.
 */
class HostProcessTest {
    @TempDir
    Path dir;

    private static final Pattern CRASH_LOG = Pattern.compile("crash log (\\S+\\.log)");

    private KitCli.Result run(String library, String rules, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--provider", "native", "--set", "library=" + KitCli.lib(library),
                "--set", "isolation=process", "--rules", rules, "--profile", "smoke", "--timeout-factor", "0.4", "--quiet"));
        for (String e : extra) {
            args.add("--set");
            args.add(e);
        }
        return KitCli.run(dir, args.toArray(String[]::new));
    }

    private static String message(KitCli.Result r, String rule) {
        for (JsonNode n : r.report().get("rules")) {
            if (n.get("id").asText().equals(rule)) {
                return n.path("message").asText("");
            }
        }
        throw new AssertionError("no rule " + rule + " in the report");
    }

    @ParameterizedTest(name = "{0} FAILs {2} with {3}")
    @CsvSource({
            "libndk_sample_fault_MR-DEREG-3_uaf_asan.so, sanitizer=address, MR-DEREG-3, AddressSanitizer: heap-use-after-free",
            "libndk_sample_fault_MR-DEREG-2_double-free_asan.so, sanitizer=address, MR-DEREG-2, AddressSanitizer: attempting double-free",
            "libndk_sample_fault_MR-TOK-6_race_tsan.so, sanitizer=thread, MR-TOK-6, ThreadSanitizer: data race",
            "libndk_sample_fault_MR-REG-13_rare-crash.so, sanitizer=none, MR-REG-13, Segmentation fault"})
    void aMemoryOrThreadFaultFailsTheRunningRuleWithItsReport(String library, String sanitizer, String rule, String evidence)
            throws Exception {
        KitCli.Result r = run(library, rule, sanitizer);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.verdict(rule)).as(r.out()).isEqualTo("FAIL");
        String message = message(r, rule);
        assertThat(message).contains("host process ended during").contains(evidence);
        Matcher m = CRASH_LOG.matcher(message);
        assertThat(m.find()).as(message).isTrue();
        assertThat(Path.of(m.group(1))).exists().startsWith(dir.toAbsolutePath());
    }

    @Test
    void aBusyLoopOnARareInputCostsItsBoundAndTheRunGoesOn() throws Exception {
        // Length 0 spins forever in C; the rest of MR-REG-11's work and MR-FR-4 run on a fresh host process
        KitCli.Result r = run("libndk_sample_fault_GEN-TIME-1_rare-hang.so", "MR-REG-11,MR-FR-4");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.verdict("GEN-TIME-1")).as(r.out()).isEqualTo("FAIL");
        assertThat(r.verdict("MR-FR-4")).as(r.out()).isEqualTo("PASS");
        // the process holding the hung call is killed with its spinning thread and replaced, and the hang is not rerun
        // to confirm it: it costs its bound once. The relay's kill and the kit's own bound fall due at the same moment,
        // so the message is the relay's account of the kill or the kit's abandonment of the call, whichever came first
        assertThat(message(r, "GEN-TIME-1")).containsAnyOf(HostRelay.KILLED_FOR_HANG, "had not returned after")
                .doesNotContain("confirmed: rerun alone");
        assertThat(r.report().get("notes").toString()).doesNotContain("rerun alone");
    }

    @Test
    void aCrashCostsTheCrashingPropertyAndTheReportsAreWritten() throws Exception {
        // the crash variant dereferences NULL in NdkRegisterMr with RDMA_READ_SINK (MR-REG-7's property)
        KitCli.Result r = run("libndk_sample_crash.so", "MR-REG-7,MR-REG-11,MR-FR-4");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.verdict("MR-REG-7")).isEqualTo("FAIL");
        assertThat(message(r, "MR-REG-7")).contains("Segmentation fault").contains("backtrace");
        assertThat(r.verdict("MR-REG-11")).isEqualTo("PASS");
        assertThat(r.verdict("MR-FR-4")).isEqualTo("PASS");
        assertThat(dir.resolve("report.html")).exists();
        assertThat(Files.list(dir.resolve("junit")).count()).isPositive();
    }

    @ParameterizedTest(name = "the sample passes {1} with {2}")
    @CsvSource({
            "libndk_sample.so, MR-FR-4, completion=pending",
            "libndk_sample.so, GEN-CB-1, completion=early",
            "libndk_sample.so, MR-REG-13, completion=inline",
            "libndk_sample_asan.so, MR-DEREG-2, sanitizer=address"})
    void theSamplePassesInAHostProcess(String library, String rule, String setting) throws Exception {
        KitCli.Result r = run(library, rule, setting);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.verdict(rule)).isEqualTo("PASS");
    }
}
