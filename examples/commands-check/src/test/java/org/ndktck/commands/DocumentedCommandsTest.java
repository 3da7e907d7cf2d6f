package org.ndktck.commands;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands README.md documents for C providers, and the replays the kit prints, run as written from the kit's
 * checkout (each at the smoke profile, or for one rule, to stay cheap): README's one-line gcc command builds the sample
 * with no warning, the kit passes what it built, a planted fault FAILs its rule, and the printed replay FAILs it again.
 */
class DocumentedCommandsTest {
    @TempDir
    Path tmp;

    private static String readme() throws Exception {
        return Files.readString(Shell.KIT.resolve("README.md"));
    }

    @Test
    void readmesGccLineBuildsTheSampleWithoutAWarningAndTheKitPassesIt() throws Exception {
        Matcher m = Pattern.compile("`(gcc -std=c11 [^`]*-o libmine\\.so mine\\.c)`").matcher(readme());
        assertThat(m.find()).as("README's gcc line").isTrue();
        // as written, in a directory holding mine.c (the sample) and the kit's native/include
        Files.copy(Shell.KIT.resolve("native/sample/ndk_sample.c"), tmp.resolve("mine.c"));
        Files.createSymbolicLink(tmp.resolve("native"), Shell.KIT.resolve("native"));
        Shell.Result gcc = Shell.run(tmp, m.group(1));
        assertThat(gcc.code()).as(gcc.toString()).isZero();
        assertThat(gcc.err()).as("gcc's warnings").isEmpty();

        Matcher run = Pattern.compile("`(\\./ndk-tck run --provider native --set library=\\./libmine\\.so)`").matcher(readme());
        assertThat(run.find()).as("README's command for one's own library").isTrue();
        Shell.Result kit = Shell.run(tmp, run.group(1).replace("./ndk-tck", Shell.KIT.resolve("ndk-tck").toString())
                + " --profile smoke --rules 'MR-FR-*' --report-dir " + tmp.resolve("report"));
        assertThat(kit.code()).as(kit.toString()).isZero();
        assertThat(kit.out()).contains("Result: PASS");
    }

    @Test
    void readmesCProviderRunsWorkFromTheCheckoutAndAPrintedReplayFailsTheSameRule() throws Exception {
        String text = readme();
        String sample = "./ndk-tck run --provider native --set library=native/target/native/libndk_sample.so";
        assertThat(text).contains(sample);
        Shell.Result ok = Shell.run(Shell.KIT, sample + " --profile smoke --rules 'MR-REG-*' --report-dir " + tmp.resolve("ok"));
        assertThat(ok.code()).as(ok.toString()).isZero();

        String fault = "--set library=native/target/native/libndk_sample_fault_MR-FR-4.so";
        assertThat(text).contains("`" + fault + "`");
        Shell.Result bad = Shell.run(Shell.KIT, "./ndk-tck run --provider native " + fault + " --profile smoke --rules MR-FR-4 --report-dir "
                + tmp.resolve("bad"));
        assertThat(bad.code()).as(bad.toString()).isEqualTo(1);
        assertThat(bad.out()).contains("FAIL MR-FR-4");
        String replay = replayOf(bad.out());
        Shell.Result again = Shell.run(Shell.KIT, replay + " --report-dir " + tmp.resolve("again"));
        assertThat(again.code()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).contains("FAIL MR-FR-4");
        assertThat(counterexample(again.out())).isEqualTo(counterexample(bad.out()));
    }

    /** @return the first replay command the console printed */
    static String replayOf(String out) {
        return out.lines().map(String::strip).filter(l -> l.startsWith("replay: ")).findFirst()
                .map(l -> l.substring("replay: ".length())).orElseThrow(() -> new AssertionError("no replay in:\n" + out));
    }

    static String counterexample(String out) {
        return out.lines().map(String::strip).filter(l -> l.startsWith("counterexample: ")).findFirst().orElse("(none)");
    }

    static List<String> lines(String out) {
        return out.lines().toList();
    }
}
