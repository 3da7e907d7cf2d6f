package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every usage or setup error exits 2 with one line on standard error (message and hint), never a stack trace. */
class UsageErrorsTest {
    @TempDir
    Path tmp;

    private Cli.Result probe(String... more) {
        List<String> a = new ArrayList<>(List.of("run", "--provider-jar", Cli.probeJar().toString(), "--kit-package", Cli.PROBES,
                "--report-dir", tmp.resolve("r").toString()));
        a.addAll(List.of(more));
        return Cli.run(a.toArray(String[]::new));
    }

    private static void oneLine(Cli.Result r, String... fragments) {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.errLines()).as(r.err()).hasSize(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ").contains("hint");
        assertThat(r.out()).as("nothing on stdout").isEmpty();
        for (String f : fragments) {
            assertThat(r.err()).contains(f);
        }
    }

    @Test
    void unknownOption() {
        oneLine(Cli.run("run", "--strcit"), "Unknown option: '--strcit'", "--strict");
    }

    @Test
    void missingCommand() {
        oneLine(Cli.run(), "a command is required");
    }

    @Test
    void badTimeBudgetIsEchoedAsTyped() {
        oneLine(Cli.run("run", "--time-budget", "-1"), "--time-budget must be a positive number of seconds, got '-1'");
        oneLine(Cli.run("run", "--time-budget", "soon"), "got 'soon'");
        oneLine(Cli.run("run", "--time-budget", ""), "got ''");
        oneLine(Cli.run("run", "--time-budget", "0.5"), "--time-budget must be at least 1 second, got '0.5'");
    }

    @Test
    void unknownCommand() {
        oneLine(Cli.run("rnu"), "rnu");
    }

    @Test
    void unknownProviderListsTheKnownOnes() {
        oneLine(probe("--provider", "refrence"), "unknown provider 'refrence'", "runner-probe", "fault:* providers");
    }

    @Test
    void badSetting() {
        oneLine(probe("--provider", "runner-probe", "--set", "colour=blue"), "rejected its settings", "colour", "settings of this provider");
    }

    @Test
    void settingWithoutValue() {
        Cli.Result r = probe("--provider", "runner-probe", "--set", "fail");
        oneLine(r, "KEY=VALUE", "'fail'");
        assertThat(r.err()).doesNotContain("option option");
        oneLine(probe("--provider", "runner-probe", "--set", "=x"), "no KEY");
    }

    @Test
    void badSettingOfTheReferenceListsTheKnownSettingsOnceSorted() {
        Cli.Result r = Cli.run("run", "--set", "colour=blue", "--report-dir", tmp.resolve("r").toString());
        oneLine(r, "unknown setting colour=blue", "settings of this provider: completion, frmrPageCount, maxObjects");
        assertThat(r.err().split("maxRegistrationSize", -1)).as(r.err()).hasSize(2);
    }

    @Test
    void unknownRulePatternNamesTheClosestIds() {
        oneLine(probe("--provider", "runner-probe", "--rules", "GEN-CB-9"), "rule pattern 'GEN-CB-9' matches no rule", "closest: GEN-CB-1");
        oneLine(probe("--provider", "runner-probe", "--rules", "MR-FX-*"), "rule pattern 'MR-FX-*' matches no rule");
    }

    @Test
    void unreadableJar() throws IOException {
        oneLine(probe("--provider-jar", tmp.resolve("missing.jar").toString()), "cannot read provider jar", "no such file");
        Path notAJar = Files.writeString(tmp.resolve("notes.jar"), "hello");
        oneLine(probe("--provider-jar", notAJar.toString()), "cannot read provider jar", "not a jar");
    }

    @Test
    void badShard() {
        oneLine(probe("--provider", "runner-probe", "--shard", "3/2"), "bad --shard '3/2'");
        oneLine(probe("--provider", "runner-probe", "--shard", "one"), "bad --shard 'one'");
        oneLine(probe("--provider", "runner-probe", "--shard", "0/2"), "bad --shard '0/2'");
    }

    @Test
    void badSeed() {
        oneLine(probe("--provider", "runner-probe", "--seed", "12ab"), "'12ab' is not a 64-bit integer seed");
    }

    @Test
    void badProfileTriesAndTimeoutFactor() {
        oneLine(probe("--provider", "runner-probe", "--profile", "quick"), "--profile", "smoke");
        oneLine(probe("--provider", "runner-probe", "--tries", "0"), "bad --tries 0");
        oneLine(probe("--provider", "runner-probe", "--tries", "many"), "--tries");
        oneLine(probe("--provider", "runner-probe", "--timeout-factor", "-1"), "bad --timeout-factor");
    }

    @Test
    void badExclusionsFile() throws IOException {
        oneLine(probe("--provider", "runner-probe", "--exclusions", tmp.resolve("none.txt").toString()), "cannot read exclusions file",
                "none.txt: no such file");
        oneLine(probe("--provider", "runner-probe", "--exclusions", tmp.toString()), "cannot read exclusions file", "is a directory");
        Path f = Files.writeString(tmp.resolve("ex.txt"), "GEN-CB-1 | someday | reason\n");
        oneLine(probe("--provider", "runner-probe", "--exclusions", f.toString()), "bad expiry date 'someday'", "ex.txt:1");
        Path g = Files.writeString(tmp.resolve("ex2.txt"), "# comment\nGEN-CB-1 2030-01-01 no pipes\n");
        oneLine(probe("--provider", "runner-probe", "--exclusions", g.toString()), "bad exclusion at", "ex2.txt:2");
        Path h = Files.writeString(tmp.resolve("ex3.txt"), "NOPE-1 | 2030-01-01 | reason\n");
        oneLine(probe("--provider", "runner-probe", "--exclusions", h.toString()), "unknown rule pattern 'NOPE-1'", "ex3.txt:1");
    }

    @Test
    void unwritableReportDir() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        oneLine(Cli.run("run", "--provider-jar", Cli.probeJar().toString(), "--kit-package", Cli.PROBES, "--provider", "runner-probe",
                "--report-dir", file.resolve("sub").toString()), "report directory");
    }

    @Test
    void explainUnknownIdNamesTheClosest() {
        oneLine(Cli.run("explain", "GEN-CB-9"), "unknown rule 'GEN-CB-9'", "closest rule IDs: GEN-CB-1");
    }

    @Test
    void mergeOfMissingOrForeignReports() throws IOException {
        oneLine(Cli.run("merge", tmp.resolve("nope").toString(), "--report-dir", tmp.resolve("m").toString()), "no such report");
        Path bad = Files.writeString(tmp.resolve("report.json"), "{\"hello\": 1}");
        oneLine(Cli.run("merge", bad.toString(), "--report-dir", tmp.resolve("m").toString()), "not an ndk-tck report.json");
    }

    @Test
    void selftestWithoutFaults() {
        oneLine(Cli.run("selftest", "--provider-jar", Cli.probeJar().toString(), "--faults", "fault:NOTHING*",
                "--report-dir", tmp.toString()), "no fault:* or legal:* providers found");
    }
}
