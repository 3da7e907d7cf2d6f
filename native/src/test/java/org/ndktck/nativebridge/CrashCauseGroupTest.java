package org.ndktck.nativebridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A C provider whose double free (native/sample/ndk_sample.c, FAULT_DOUBLE_FREE, under AddressSanitizer) ends its
 * host process in every property that deregisters: each such property is rerun alone in a fresh host process and
 * confirmed before its rule stays charged, all of them are one failure cause in report.json, the console and
 * report.html, a rule no crash touches still passes, and the run ends with all its reports and every crash log it
 * names.
 */
class CrashCauseGroupTest {
    @TempDir
    Path dir;

    private static final Pattern CRASH_LOG = Pattern.compile("crash log (\\S+?\\.log)");

    @Test
    void manyPropertiesEndingTheHostAreOneConfirmedCause() throws Exception {
        KitCli.Result r = KitCli.run(dir, "run", "--provider", "fault:MR-DEREG-2/c-double-free", "--set",
                "hostDir=" + KitCli.NATIVE.toAbsolutePath(), "--rules", "MR-DEREG-*,MR-REG-11", "--profile", "smoke",
                "--seed", "7");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.verdict("MR-REG-11")).as("a rule whose property never deregisters").isEqualTo("PASS");

        List<JsonNode> ends = new ArrayList<>();
        r.report().get("failureCauses").forEach(c -> {
            if (c.get("cause").asText().startsWith("provider process ended: ")) {
                ends.add(c);
            }
        });
        assertThat(ends).as("one cause for every end of the double free").hasSize(1);
        JsonNode cause = ends.get(0);
        assertThat(cause.get("cause").asText()).contains("AddressSanitizer: double-free");
        assertThat(cause.get("properties").size()).as("properties that ended the host").isGreaterThanOrEqualTo(2);
        assertThat(cause.get("failedRules").toString()).contains("MR-DEREG-2");

        // every property charged with it was confirmed by its rerun alone (the double free happens in each)
        for (JsonNode p : r.report().get("properties")) {
            if (p.path("firstFailure").asText("").startsWith("provider process ended: ")) {
                assertThat(p.get("message").asText()).as(p.get("property").asText()).contains("confirmed: rerun alone in a fresh host process");
                assertThat(p.get("firstViolation").asText()).isNotEqualTo("GEN-EXC-1");
            }
        }
        assertThat(r.message("MR-DEREG-2")).contains("AddressSanitizer: attempting double-free").contains("freed by thread");
        // the console lists the cause once, with its rules
        assertThat(r.out()).contains("FAIL provider process ended: SUMMARY: AddressSanitizer: double-free");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("provider process ended: SUMMARY: AddressSanitizer: double-free");
        assertThat(Files.readString(dir.resolve("junit/TEST-ndk-tck.xml"))).contains("MR-DEREG-2");
        // every crash log the reports name is there
        Matcher m = CRASH_LOG.matcher(r.report().toString());
        int logs = 0;
        while (m.find()) {
            assertThat(Path.of(m.group(1))).exists();
            logs++;
        }
        assertThat(logs).isPositive();
        assertThat(r.report().get("durationMillis").asLong()).as("the whole run, reruns included")
                .isGreaterThanOrEqualTo(sum(r.report().get("properties")));
    }

    private static long sum(JsonNode properties) {
        long s = 0;
        for (JsonNode p : properties) {
            s += p.get("durationMillis").asLong();
        }
        return s;
    }
}
