package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ndktck.tck.report.ReportWriter;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Messages say what went wrong: the failure a fault provider causes, as {@code run} reports it,
 * names the status by its NTSTATUS name, the flags by their NDK_*_FLAG names and, where bytes differ, which byte
 * first differs with the value expected and found. Each row runs one fault's rule and reads the message of the
 * rule's FAIL in report.json and on the console.
 */
class FailureMessagesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // a create refused with STATUS_NOT_SUPPORTED: the status by name, not only 0xC00000BB
            "fault:MR-CREATE-2            | MR-CREATE-2 | returned STATUS_NOT_SUPPORTED (0xC00000BB)  | expected: STATUS_SUCCESS",
            // a fast registration's flags by name
            "fault:MR-FR-4                | MR-FR-4     | Flags=NDK_OP_FLAG_ALLOW_REMOTE_READ|NDK_OP_FLAG_ALLOW_REMOTE_WRITE (0x00000038) | STATUS_SUCCESS (0x00000000)",
            // bytes landed in the wrong frame: which region byte differs first, expected and found
            "fault:COV-2/contiguous-frames | COV-2      | (differs first at region byte 0x | expected, 0x",
            // a work request's flags by name (none) and the status that came instead of success
            "fault:MR-TOK-2/wrong-local-token | MR-TOK-2 | Flags=none (0x00000000) | CQ entry with status STATUS_ACCESS_VIOLATION (0xC0000005)"})
    void aFaultsFailureNamesWhatDiffered(String fault, String rule, String fragment, String another) throws IOException {
        Path dir = tmp.resolve("r");
        Cli.Result r = Cli.run("run", "--provider", fault, "--rules", rule, "--profile", "smoke", "--seed", "7",
                "--report-dir", dir.toString(), "--progress", "none", "--quiet");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode report = ReportWriter.mapper().readTree(dir.resolve("report.json").toFile());
        JsonNode failed = null;
        for (JsonNode x : report.get("rules")) {
            if (x.get("id").asText().equals(rule)) {
                failed = x;
            }
        }
        assertThat(failed).isNotNull();
        assertThat(failed.get("verdict").asText()).isEqualTo("FAIL");
        String message = failed.get("message").asText();
        assertThat(message).contains("actual:").contains(fragment).contains(another);
        assertThat(r.out()).contains(fragment);
    }
}
