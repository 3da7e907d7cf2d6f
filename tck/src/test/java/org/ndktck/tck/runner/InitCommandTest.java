package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.tck.report.ReportWriter;
import org.w3c.dom.Document;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider author starts in minutes: {@code init DIR} writes a skeleton that compiles against
 * the SPI, registers itself, and that the kit runs on and reports (every checkable rule FAIL, none PASS, no setup
 * error, no crash); its POM names the kit's artifacts at the kit's version, its suite names the provider, and its
 * workflow runs the build and publishes the kit's JUnit XML. The Maven build of the skeleton itself is not run here
 * (a nested Maven inside the build); its sources are compiled with the JDK's compiler against the SPI instead.
 */
class InitCommandTest {
    @TempDir
    Path tmp;

    @Test
    void theSkeletonCompilesAndTheKitRunsOnIt() throws Exception {
        Path project = tmp.resolve("acme");
        Cli.Result init = Cli.run("init", project.toString(), "--name", "acme-rnic", "--package", "com.acme.ndk");
        assertThat(init.code()).as(init.err()).isZero();
        assertThat(init.out()).contains("org.ndktck:ndk-spec:" + InitCommand.kitVersion());

        List<Path> sources;
        try (Stream<Path> s = Files.walk(project.resolve("src/main/java"))) {
            sources = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(sources).extracting(p -> p.getFileName().toString()).containsExactly("AcmeRnicAdapter.java", "AcmeRnicCq.java",
                "AcmeRnicMr.java", "AcmeRnicPd.java", "AcmeRnicProvider.java", "AcmeRnicQp.java");
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"), "-Xlint:all", "-Werror"));
        sources.forEach(p -> args.add(p.toString()));
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
        assertThat(rc).as(diagnostics.toString()).isZero();
        Path services = Path.of("META-INF/services/org.ndktck.spec.NdkProvider");
        assertThat(Files.readString(project.resolve("src/main/resources").resolve(services)).strip()).isEqualTo("com.acme.ndk.AcmeRnicProvider");
        Files.createDirectories(classes.resolve(services).getParent());
        Files.copy(project.resolve("src/main/resources").resolve(services), classes.resolve(services));

        Path reportDir = tmp.resolve("report");
        Cli.Result run = Cli.run("run", "--provider", "acme-rnic", "--provider-jar", classes.toString(), "--profile", "smoke",
                "--seed", "5", "--report-dir", reportDir.toString(), "--progress", "none", "--quiet");
        assertThat(run.code()).as(run.err() + run.out()).isEqualTo(1);
        assertThat(run.err()).doesNotContain("internal error", "setup error", "\tat ");
        JsonNode report = ReportWriter.mapper().readTree(reportDir.resolve("report.json").toFile());
        assertThat(report.get("summary").get("passed").asInt()).isZero();
        assertThat(report.get("summary").get("failed").asInt()).isGreaterThan(50);
        assertThat(run.out()).contains("STATUS_NOT_IMPLEMENTED (0xC0000002)");
    }

    @Test
    void thePomTheSuiteAndTheWorkflowNameTheKitAndTheProvider() throws Exception {
        Path project = tmp.resolve("p");
        assertThat(Cli.run("init", project.toString(), "--name", "acme-rnic", "--package", "com.acme.ndk").code()).isZero();
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(project.resolve("pom.xml").toFile());
        var xpath = XPathFactory.newInstance().newXPath();
        String v = InitCommand.kitVersion();
        assertThat(v).isNotBlank().doesNotContain("unknown", "${");
        assertThat(xpath.evaluate("/project/properties/*[local-name()='ndk-tck.version']", pom)).isEqualTo(v);
        assertThat(xpath.evaluate("count(/project/dependencies/dependency[groupId='org.ndktck' and artifactId='ndk-spec' and scope='provided'])", pom)).isEqualTo("1");
        assertThat(xpath.evaluate("count(/project/dependencies/dependency[groupId='org.ndktck' and artifactId='ndk-tck' and scope='test'])", pom)).isEqualTo("1");
        assertThat(Files.readString(project.resolve("src/test/java/com/acme/ndk/AcmeRnicConformanceTest.java")))
                .contains("@ConfigurationParameter(key = \"ndk.tck.provider\", value = \"acme-rnic\")", "@SelectPackages(\"org.ndktck.tck.properties\")");
        JsonNode wf = new ObjectMapper(new YAMLFactory()).readTree(project.resolve(".github/workflows/ndk-tck.yml").toFile());
        String steps = wf.get("jobs").get("conformance").get("steps").toString();
        assertThat(steps).contains("mvn -B verify", "target/ndk-tck-report/**/junit/TEST-ndk-tck.xml", "actions/upload-artifact");
        assertThat(Files.readString(project.resolve("README.md"))).contains("org.ndktck:ndk-spec:" + v, "org.ndktck:ndk-tck:" + v);
    }

    @Test
    void aDirectoryThatIsNotEmptyIsAUsageError() throws IOException {
        Path d = tmp.resolve("full");
        Files.createDirectories(d);
        Files.writeString(d.resolve("keep.txt"), "mine");
        Cli.Result r = Cli.run("init", d.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("exists and is not an empty directory").doesNotContain("\tat ");
        assertThat(Files.readString(d.resolve("keep.txt"))).isEqualTo("mine");
        assertThat(Cli.run("init", tmp.resolve("x").toString(), "--name", "Bad_Name").code()).isEqualTo(2);
    }
}
