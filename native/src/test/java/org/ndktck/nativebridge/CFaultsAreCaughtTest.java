package org.ndktck.nativebridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each compile-time fault variant of the sample (native/sample/ndk_sample.c, FAULT_*) FAILs
 * the rule it breaks through the bridge, with the rule's own properties at the smoke profile (caught: a property's
 * first failure is a violation of that rule, not a crash), and the sample itself passes those rules with checks run; and point 5: a
 * native call that never returns is bounded like a Java one (GEN-TIME-1, at a shortened time bound).
 */
class CFaultsAreCaughtTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} FAILs {1}")
    @CsvSource({
            "libndk_sample_fault_MR-FR-4.so, MR-FR-4, MR-FR-4",
            "libndk_sample_fault_MR-FR-3.so, MR-FR-3, MR-FR-3",
            "libndk_sample_fault_MR-REG-4_wrap.so, MR-REG-4, MR-REG-4",
            "libndk_sample_fault_MR-REG-7.so, MR-REG-7, MR-REG-7",
            "libndk_sample_fault_GEN-CB-1_twice.so, GEN-CB-1, GEN-CB-1",
            "libndk_sample_fault_GEN-TIME-1_hang.so, MR-REG-11, GEN-TIME-1",
            // met only when the kit makes a chain with an MDL of ByteCount 0 inside and delivers it to C
            "libndk_sample_fault_LAM-4_empty-mdl.so, LAM-4, LAM-4"})
    void theBrokenRuleFails(String library, String rules, String broken) throws Exception {
        KitCli.Result r = KitCli.run(dir, "run", "--provider", "native", "--set", "library=" + KitCli.lib(library),
                "--rules", rules, "--profile", "smoke", "--timeout-factor", "0.4", "--quiet");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.verdict(broken)).as(r.out()).isEqualTo("FAIL");
        // caught only when a property's first failure is a violation of that rule: a crash or another rule is no catch
        assertThat(r.caught(broken)).as("a property's first failure is a violation of " + broken + "\n" + r.out()).isTrue();
    }

    @ParameterizedTest(name = "the sample passes {0}")
    @CsvSource({"MR-FR-4", "MR-FR-3", "MR-REG-4", "MR-REG-7", "GEN-CB-1", "MR-REG-11", "LAM-4"})
    void theSampleItselfPassesThoseRules(String rule) throws Exception {
        KitCli.Result r = KitCli.run(dir, "run", "--provider", "native", "--set", "library=" + KitCli.lib("libndk_sample.so"),
                "--set", "completion=pending", "--rules", rule, "--profile", "smoke", "--quiet");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.verdict(rule)).isEqualTo("PASS");
        assertThat(r.checksRun(rule)).as("checks of " + rule + " that ran").isPositive();
    }
}
