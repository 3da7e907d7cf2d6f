package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The small things a provider author meets first: a mistyped command gets a "did you mean", {@code init} does not
 * repeat its prefix, a {@code --report-dir} that is a file gets one clear line, and {@code rules --call} shows the
 * rules an SPI call serves.
 */
class FirstHourMessagesTest {
    @TempDir
    Path tmp;

    @Test
    void aMistypedCommandGetsTheNearestCommands() {
        List<String> commands = List.of("run", "rules", "explain", "merge", "providers", "init", "selftest", "help");
        assertThat(CommandSuggestions.near("rnu", commands)).containsExactly("run");
        assertThat(CommandSuggestions.near("ruls", commands)).startsWith("rules");
        assertThat(CommandSuggestions.near("explian", commands)).containsExactly("explain");
        assertThat(CommandSuggestions.near("prov", commands)).containsExactly("providers");
        assertThat(CommandSuggestions.near("xyzzy", commands)).isEmpty();
        assertThat(CommandSuggestions.distance("rnu", "run")).isEqualTo(1);

        Cli.Result r = Cli.run("rnu");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("ndk-tck: unknown command 'rnu' (hint: did you mean run? ./ndk-tck --help lists the commands)");
    }

    @Test
    void initNamesItselfOnce() throws Exception {
        Files.writeString(tmp.resolve("x"), "taken");
        Cli.Result r = Cli.run("init", tmp.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("ndk-tck init: " + tmp + " exists").doesNotContain("init: init:");
    }

    @Test
    void aReportDirThatIsAFileIsOneClearLine() throws Exception {
        Path file = Files.writeString(tmp.resolve("report"), "a file");
        Cli.Result r = Cli.probeRun(file);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("ndk-tck run: --report-dir " + file + " is a file, not a directory "
                + "(hint: name a directory (it is created when missing))");
    }

    @Test
    void rulesCallListsTheRulesAnSpiCallServes() {
        Cli.Result r = Cli.run("rules", "--call", "ndkflush");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("NdkFlush serves ").contains("FL-1").doesNotContain("MR-REG-8 ");
        assertThat(SpiCalls.shipped().rulesServed("NdkCreatePd")).contains("MR-FR-4", "MR-REG-8");
        Cli.Result bad = Cli.run("rules", "--call", "NdkCreatePdx");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("no rule's properties make the SPI call 'NdkCreatePdx'").contains("NdkCreatePd,");
    }
}
