package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.runner.testkit.BrokenProviders;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Setup faults are setup errors: a provider that cannot be set up gives exit 2, one line on
 * standard error naming the cause with the exception's own message, and a report whose first note says so; a
 * broken services entry does not break runs or listings of the other providers.
 */
class SetupErrorsTest {
    @TempDir
    Path tmp;

    private Cli.Result run(Path reportDir, String... more) {
        List<String> a = new ArrayList<>(List.of("run", "--provider-jar", Cli.probeJar().toString(), "--kit-package", Cli.PROBES,
                "--report-dir", reportDir.toString(), "--progress", "none"));
        a.addAll(List.of(more));
        return Cli.run(a.toArray(String[]::new));
    }

    private static void setupError(Cli.Result r, Path reportDir, String... fragments) throws IOException {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.errLines()).as(r.err()).hasSize(1);
        assertThat(r.err()).doesNotContain("\tat ", "internal error");
        for (String f : fragments) {
            assertThat(r.err()).contains(f);
        }
        JsonNode report = ReportWriter.mapper().readTree(reportDir.resolve("report.json").toFile());
        assertThat(report.get("exitCode").asInt()).isEqualTo(2);
        assertThat(report.get("notes").get(0).asText()).startsWith("setup error: ").contains(fragments[fragments.length - 1]);
        assertThat(report.get("rules").size()).isGreaterThan(100);
        assertThat(report.get("summary").get("passed").asInt()).isZero();
    }

    private Path services(String... classNames) throws IOException {
        Path dir = tmp.resolve("services-" + classNames.length + "-" + Math.abs(String.join(",", classNames).hashCode()));
        Path file = dir.resolve("META-INF/services/org.ndktck.spec.NdkProvider");
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", classNames) + "\n");
        return dir;
    }

    @Test
    void aConstructorThatThrowsIsASetupErrorWithItsMessage() throws IOException {
        Path d = tmp.resolve("ctor");
        setupError(run(d, "--provider", BrokenProviders.CtorThrows.class.getName()), d,
                "constructor threw IllegalStateException", "firmware blob missing");
    }

    @Test
    void configureThatThrowsIsASetupErrorWithItsMessage() throws IOException {
        Path d = tmp.resolve("configure");
        setupError(run(d, "--provider", BrokenProviders.ConfigureThrows.class.getName()), d,
                "configure threw UnsupportedOperationException", "no device node /dev/ndk0");
    }

    @Test
    void openAdapterThatThrowsOrReturnsNullIsASetupError() throws IOException {
        Path d = tmp.resolve("open");
        setupError(run(d, "--provider", BrokenProviders.OpenThrows.class.getName()), d,
                "openAdapter threw IllegalStateException", "adapter 0 is down");
        Path e = tmp.resolve("open-null");
        setupError(run(e, "--provider", BrokenProviders.OpenReturnsNull.class.getName()), e,
                "openAdapter returned no adapter (null)");
    }

    @Test
    void aClassThatIsNotAProviderIsASetupError() throws IOException {
        Path d = tmp.resolve("not");
        setupError(run(d, "--provider", BrokenProviders.NotAProvider.class.getName()), d,
                "does not implement org.ndktck.spec.NdkProvider");
    }

    @Test
    void aServicesFileNamingAMissingClassOrABrokenOneNamesItWhenTheProviderIsNotFound() throws IOException {
        Path jar = services("com.example.ndk.MissingProvider", BrokenProviders.CtorThrows.class.getName());
        Path d = tmp.resolve("svc");
        setupError(run(d, "--provider-jar", jar.toString(), "--provider", "my-provider"), d,
                "cannot load provider 'my-provider'", "com.example.ndk.MissingProvider not found", "firmware blob missing");
    }

    @Test
    void aBrokenServicesEntryDoesNotBreakOtherProvidersRunsOrListings() throws IOException {
        Path jar = services("com.example.ndk.MissingProvider", BrokenProviders.CtorThrows.class.getName(),
                BrokenProviders.NotAProvider.class.getName());
        Cli.Result ok = run(tmp.resolve("ok"), "--provider-jar", jar.toString(), "--provider", "runner-probe");
        assertThat(ok.code()).as(ok.err()).isZero();
        Cli.Result list = Cli.run("providers", "--provider-jar", Cli.probeJar().toString(), "--provider-jar", jar.toString());
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("runner-probe", "reference");
        assertThat(list.errLines()).hasSize(3);
        assertThat(list.err()).contains("com.example.ndk.MissingProvider not found", "firmware blob missing", "NotAProvider");
    }
}
