package org.ndktck.nativebridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A library that cannot be loaded, lacks an entry point, reports another header version, a
 * missing {@code library} setting or a setting the library rejects: exit 2 with one line on standard error that
 * names the cause, no stack trace, no report.
 */
class BadLibrariesTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "library=NATIVE/no-such-library.so | no such file",
            "library=NATIVE/libndk_not_a_library.so | file too short",
            "library=NATIVE/libndk_missing_symbol.so | lacks the symbol NdkTckGetProviderInfo",
            "library=NATIVE/libndk_sample_header99.so | built against ndk_tck_provider.h version 99; this kit speaks version 1",
            "crashGuard=off | setting library is required",
            "library=NATIVE/libndk_sample.so,completion=sometimes | invalid setting completion=sometimes: allowed is inline, pending, mixed or early"})
    void exitTwoWithOneLine(String settings, String cause) throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "--provider", "native"));
        for (String s : settings.split(",")) {
            args.add("--set");
            args.add(s.replace("NATIVE", KitCli.NATIVE.toString()));
        }
        KitCli.Result r = KitCli.run(dir, args.toArray(String[]::new));
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains(cause).doesNotContain("Exception").doesNotContain("\tat ");
        // a setup error still writes report.json, with the cause as its first note (README "Exit codes")
        assertThat(r.report()).isNotNull();
        assertThat(r.report().path("exitCode").asInt()).isEqualTo(2);
        assertThat(r.report().path("notes").toString()).contains("setup error");
    }
}
