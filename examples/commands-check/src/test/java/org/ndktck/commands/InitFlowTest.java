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
 * A provider author's first hour, as written: {@code ./ndk-tck init} makes a project; in it, the README's Maven
 * commands and its kit command run as written; the untouched skeleton's run fits on one screen and names the SPI call
 * to write first; the replay the console prints and the two replays the Maven route prints (in the build, and on the
 * kit's command line with the provider's classes) fail the same rule again.
 */
class InitFlowTest {
    @TempDir
    Path tmp;

    @Test
    void theInitProjectsReadmeCommandsAndEveryReplayTheyPrintWorkAsWritten() throws Exception {
        Path project = tmp.resolve("acme");
        // the kit's artifacts in the local Maven repository, as README's "For provider authors" asks first (the same
        // command ./ndk-tck runs when its jar is missing); without it the project would compile against whatever
        // ndk-spec and ndk-tck an earlier install left there, or none
        Shell.Result installed = Shell.run(Shell.KIT, java.util.Map.of(), Shell.MVN + " -q -B -DskipTests -pl cli -am install", 10);
        assertThat(installed.code()).as(installed.toString()).isZero();
        Shell.Result init = Shell.run(Shell.KIT, "./ndk-tck init " + project + " --name acme-rnic --package com.acme.ndk");
        assertThat(init.code()).as(init.toString()).isZero();
        assertThat(Files.readAllLines(project.resolve(".gitignore"))).contains("target/", ".jqwik-database");
        String readme = Files.readString(project.resolve("README.md"));

        // "after `mvn -B compile`", then the kit's command line as the README gives it, in the project
        Matcher compile = Pattern.compile("after `(mvn -B compile)`").matcher(readme);
        assertThat(compile.find()).isTrue();
        Shell.Result built = Shell.run(project, compile.group(1).replace("mvn", Shell.MVN) + " -q");
        assertThat(built.code()).as(built.toString()).isZero();
        String kitLine = readme.lines().map(String::strip).filter(l -> l.matches("\\S+/ndk-tck run --provider acme-rnic .*"))
                .findFirst().orElseThrow();
        assertThat(kitLine).startsWith(Shell.KIT + "/ndk-tck ");
        Shell.Result cli = Shell.run(project, kitLine);
        assertThat(cli.code()).as(cli.toString()).isEqualTo(1);
        List<String> screen = cli.out().lines().toList();
        assertThat(screen.size()).as("the skeleton's run on one screen:\n" + cli.out()).isLessThanOrEqualTo(60);
        assertThat(cli.out()).contains("FAIL set-up error: kit set-up failed: NdkCreatePd() returned STATUS_NOT_IMPLEMENTED")
                .contains("write NdkCreatePd first");
        assertThat(cli.out().split("NdkCreatePd\\(\\) returned", -1).length - 1).as("the cause printed once (and once in the table's line, once in the progress)").isLessThanOrEqualTo(3);

        // the console's replay, from the kit's checkout
        String replay = DocumentedCommandsTest.replayOf(cli.out());
        assertThat(replay).contains("--provider-jar " + project.resolve("target/classes"));
        Shell.Result again = Shell.run(Shell.KIT, replay + " --report-dir " + tmp.resolve("again"));
        assertThat(again.code()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).contains("STATUS_NOT_IMPLEMENTED");

        // the README's one-rule replay in Maven, and the replays the build prints
        Matcher oneRule = Pattern.compile("(?m)^\\s+(mvn -B verify -Dndk\\.tck\\.seed=N -Dgroups=RULE)").matcher(readme);
        assertThat(oneRule.find()).isTrue();
        Shell.Result mvn = Shell.run(project, java.util.Map.of(), oneRule.group(1).replace("mvn", Shell.MVN)
                .replace("=N", "=5").replace("=RULE", "=MR-FR-4"), 10);
        assertThat(mvn.code()).as(mvn.toString()).isNotZero();
        assertThat(mvn.out()).contains("ndk-tck:     replay here:       mvn -B verify -Dndk.tck.seed=5 -Dgroups=MR-FR-4");
        String kitReplay = mvn.out().lines().map(String::strip).filter(l -> l.startsWith("ndk-tck:     replay in the kit: "))
                .findFirst().orElseThrow(() -> new AssertionError(mvn.out())).substring("ndk-tck:     replay in the kit: ".length());
        assertThat(kitReplay).contains("--provider acme-rnic --provider-jar " + project.resolve("target/classes"))
                .contains("--rules MR-FR-4").contains("--seed 5");
        Shell.Result fromMaven = Shell.run(Shell.KIT, kitReplay + " --report-dir " + tmp.resolve("from-maven"));
        assertThat(fromMaven.code()).as(fromMaven.toString()).isEqualTo(1);
        assertThat(fromMaven.out()).contains("MR-FR-4").contains("STATUS_NOT_IMPLEMENTED");
        assertThat(Files.exists(project.resolve("target/ndk-tck-report/AcmeRnicConformanceTest/report.json"))).isTrue();
    }
}
