package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code selftest} against the probe faults: caught, not caught, stuck, unknown rule; legal providers. */
class SelftestCommandTest {
    @TempDir
    Path tmp;

    private Cli.Result selftest(String faults, String... more) {
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("selftest", "--provider-jar", Cli.probeJar().toString(),
                "--kit-package", Cli.PROBES, "--report-dir", tmp.toString(), "--tries", "20", "--seed", "5", "--faults", faults));
        a.addAll(java.util.List.of(more));
        return Cli.run(a.toArray(String[]::new));
    }

    private Map<String, JsonNode> rows(String field) throws IOException {
        Map<String, JsonNode> m = new HashMap<>();
        new ObjectMapper().readTree(tmp.resolve("selftest.json").toFile()).get(field).forEach(r -> m.put(r.get("provider").asText(), r));
        return m;
    }

    @Test
    void everyFaultCaughtAndEveryLegalProviderPassingExitsZero() throws IOException {
        Cli.Result r = selftest("fault:MR-CREATE-2/probe,fault:GEN-CB-2/probe-crash,fault:GEN-TIME-1/probe-in-passing,legal:probe");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("FAULT").contains("CAUGHT").contains("TIME TO CATCH")
                .containsPattern("fault:MR-CREATE-2/probe\\s+MR-CREATE-2\\s+yes\\s+[0-9.]+ s\\s+MR-CREATE-2")
                .contains("Faults: 3 of 3 caught").contains("legal providers: 1 of 1 passed");
        Map<String, JsonNode> f = rows("faults");
        assertThat(f.get("fault:MR-CREATE-2/probe").get("caught").asBoolean()).isTrue();
        assertThat(f.get("fault:MR-CREATE-2/probe").get("timeToCatchMillis").isNumber()).isTrue();
        assertThat(f.get("fault:GEN-CB-2/probe-crash").get("failedRules").toString()).contains("GEN-CB-2");
        assertThat(rows("legal").get("legal:probe").get("passed").asBoolean()).isTrue();
        JsonNode doc = new ObjectMapper().readTree(tmp.resolve("selftest.json").toFile());
        assertThat(doc.get("caught").asInt()).isEqualTo(3);
        assertThat(f.get("fault:GEN-TIME-1/probe-in-passing").get("caught").asBoolean())
                .as("a rule without a property of its own is caught in passing by the other rules' properties").isTrue();
        assertThat(f.get("fault:GEN-TIME-1/probe-in-passing").get("failedRules").toString()).contains("GEN-TIME-1")
                .as("the property that met the hang did not judge its own rule").doesNotContain("MR-CREATE-2");
        assertThat(doc.get("medianCatchMillis").isNumber()).isTrue();
        assertThat(tmp.resolve("selftest/fault_MR-CREATE-2_probe/report.json")).exists();
    }

    @Test
    void aFaultNotCaughtAStuckFaultAnUnknownRuleAndAFailingLegalProviderExitOne() throws IOException {
        long t0 = System.nanoTime();
        Cli.Result r = selftest("fault:GEN-CB-1/probe-uncaught,fault:GEN-CB-1/probe-hang,fault:NO-SUCH-RULE/probe,legal:GEN-CB-2/probe-bad",
                "--fault-timeout", "2");
        assertThat((System.nanoTime() - t0) / 1_000_000_000L).isLessThan(30);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        Map<String, JsonNode> f = rows("faults");
        assertThat(f.get("fault:GEN-CB-1/probe-uncaught").get("caught").asBoolean()).isFalse();
        assertThat(f.get("fault:GEN-CB-1/probe-uncaught").get("verdict").asText()).isEqualTo("PASS");
        assertThat(f.get("fault:GEN-CB-1/probe-uncaught").get("replay").asText()).contains("--rules GEN-CB-1");
        assertThat(f.get("fault:GEN-CB-1/probe-hang").get("caught").asBoolean()).isFalse();
        assertThat(f.get("fault:GEN-CB-1/probe-hang").get("timedOut").asBoolean()).isTrue();
        assertThat(f.get("fault:NO-SUCH-RULE/probe").get("message").asText()).contains("no rule NO-SUCH-RULE");
        assertThat(rows("legal").get("legal:GEN-CB-2/probe-bad").get("passed").asBoolean()).isFalse();
        assertThat(r.out()).contains("NO").contains("Faults: 0 of 3 caught");
    }
}
