package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.tck.harness.SampleText;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a provider author reads in the first hour: {@code init} writes a {@code .gitignore} and a README whose kit
 * command names the kit's checkout, {@code --set help} and {@code providers --settings} list each setting with its
 * values and default, and a counterexample names its bare values.
 */
class FirstHourOutputsTest {
    @TempDir
    Path tmp;

    @Test
    void initWritesAGitignoreForTheBuildTheReportsAndJqwiksDatabase() throws Exception {
        Path p = tmp.resolve("p");
        assertThat(Cli.run("init", p.toString(), "--name", "acme-rnic", "--package", "com.acme.ndk").code()).isZero();
        assertThat(Files.readAllLines(p.resolve(".gitignore"))).contains("target/", ".jqwik-database");
        String readme = Files.readString(p.resolve("README.md"));
        assertThat(readme).contains("/ndk-tck run --provider acme-rnic --provider-jar target/classes --profile smoke")
                .contains("-Dndk.tck.seed=N -Dgroups=RULE")
                .doesNotContain("@KIT_ROOT@", "From the kit's checkout the same run");
    }

    @Test
    void setHelpListsEverySettingWithItsValuesAndDefaultAndRunsNothing() {
        Cli.Result r = Cli.run("run", "--set", "help=1", "--report-dir", tmp.resolve("r").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("settings of provider 'reference'")
                .containsPattern("(?m)^  completion +inline\\|pending\\|mixed: .*default inline$")
                .containsPattern("(?m)^  maxSge +.*default 16$");
        assertThat(Files.exists(tmp.resolve("r"))).isFalse();
        assertThat(Cli.run("run", "--set", "help").out()).isEqualTo(r.out());
        Cli.Result list = Cli.run("providers", "--names", "reference", "--settings");
        assertThat(list.out()).contains("readSinkNotRequired").contains("default 1.2");
    }

    /** A property method whose parameters the sample names. */
    @SuppressWarnings("unused")
    static void sample(int pages, boolean remote, List<Integer> counts, Object plan) {
    }

    @Test
    void aCounterexampleNamesItsBareValues() throws Exception {
        Method m = FirstHourOutputsTest.class.getDeclaredMethod("sample", int.class, boolean.class, List.class, Object.class);
        Object plan = new Object() {
            @Override
            public String toString() {
                return "RegPlan{Length=0x1000}";
            }
        };
        assertThat(SampleText.of(m, List.of(2, true, List.of(1, 2), plan)))
                .isEqualTo("[pages=2, remote=true, [1, 2], RegPlan{Length=0x1000}]");
        assertThat(SampleText.of(null, List.of(2, -1))).isEqualTo("[2, -1]");
    }
}
