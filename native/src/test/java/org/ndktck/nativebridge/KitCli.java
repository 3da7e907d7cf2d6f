package org.ndktck.nativebridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.ndktck.tck.runner.NdkTckCommand;

/** Runs the kit's command line in-process, as {@code ./ndk-tck} would, and reads what it wrote. */
final class KitCli {
    /** Where the Maven build put the sample and its variants (system property set by the POM). */
    static final Path NATIVE = Path.of(System.getProperty("ndk.native.dir", "target/native"));

    /** @return the path of a library the build made, e.g. {@code libndk_sample.so} */
    static String lib(String file) {
        return NATIVE.resolve(file).toString();
    }

    /**
     * @param code   the exit code
     * @param out    standard output
     * @param err    standard error
     * @param report report.json, or null when none was written
     */
    record Result(int code, String out, String err, JsonNode report) {
        /** @return the verdict of a rule in report.json */
        String verdict(String rule) {
            for (JsonNode r : report.get("rules")) {
                if (r.get("id").asText().equals(rule)) {
                    return r.get("verdict").asText();
                }
            }
            throw new AssertionError("no rule " + rule + " in the report");
        }

        /**
         * @param rule a rule
         * @return true when some property's first failure is a violation of that rule (report.json's
         *     {@code firstViolation}): the fault of the rule is caught, not merely a FAIL charged from a crash
         */
        boolean caught(String rule) {
            for (JsonNode p : report.get("properties")) {
                JsonNode v = p.get("firstViolation");
                if (v != null && !v.isNull() && v.asText().equals(rule)) {
                    return true;
                }
            }
            return false;
        }

        /** @return the message of a rule in report.json, or null */
        String message(String rule) {
            for (JsonNode r : report.get("rules")) {
                if (r.get("id").asText().equals(rule)) {
                    JsonNode m = r.get("message");
                    return m == null || m.isNull() ? null : m.asText();
                }
            }
            throw new AssertionError("no rule " + rule + " in the report");
        }

        /** @return the checks of a rule that reached an outcome (report.json's {@code checksRun}) */
        long checksRun(String rule) {
            for (JsonNode r : report.get("rules")) {
                if (r.get("id").asText().equals(rule)) {
                    return r.get("checksRun").asLong();
                }
            }
            throw new AssertionError("no rule " + rule + " in the report");
        }

        /** @return the rules with a verdict */
        List<String> rulesWith(String verdict) {
            List<String> ids = new ArrayList<>();
            report.get("rules").forEach(r -> {
                if (r.get("verdict").asText().equals(verdict)) {
                    ids.add(r.get("id").asText());
                }
            });
            return ids;
        }
    }

    static Result run(Path reportDir, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--report-dir");
        all.add(reportDir.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = NdkTckCommand.execute(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        Path json = reportDir.resolve("report.json");
        JsonNode report = Files.exists(json) ? new ObjectMapper().readTree(json.toFile()) : null;
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), report);
    }
}
