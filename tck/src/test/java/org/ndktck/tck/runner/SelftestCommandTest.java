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
        Cli.Result r = selftest("fault:MR-CREATE-2/probe,fault:GEN-TIME-1/probe-in-passing,legal:probe");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("FAULT").contains("CAUGHT").contains("TIME TO CATCH")
                .containsPattern("fault:MR-CREATE-2/probe\\s+MR-CREATE-2\\s+yes\\s+[0-9.]+ s\\s+MR-CREATE-2")
                .contains("Faults: 2 of 2 caught").contains("legal providers: 1 of 1 passed");
        Map<String, JsonNode> f = rows("faults");
        JsonNode create = f.get("fault:MR-CREATE-2/probe");
        assertThat(create.get("caught").asBoolean()).isTrue();
        assertThat(create.get("outcome").asText()).isEqualTo("caught");
        assertThat(create.get("caughtBy").asText()).isEqualTo("CreateMrProbe#createSucceeds");
        assertThat(create.get("outcomeDetail").asText()).contains("CreateMrProbe#createSucceeds").contains("violation of MR-CREATE-2");
        assertThat(create.get("timeToCatchMillis").isNumber()).isTrue();
        assertThat(rows("legal").get("legal:probe").get("passed").asBoolean()).isTrue();
        JsonNode doc = new ObjectMapper().readTree(tmp.resolve("selftest.json").toFile());
        assertThat(doc.get("caught").asInt()).isEqualTo(2);
        JsonNode passing = f.get("fault:GEN-TIME-1/probe-in-passing");
        assertThat(passing.get("caught").asBoolean())
                .as("a rule without a property of its own is caught in passing by the other rules' properties").isTrue();
        assertThat(passing.get("outcome").asText()).isEqualTo("caught");
        assertThat(passing.get("failedRules").toString()).contains("GEN-TIME-1")
                .as("the property that met the hang did not judge its own rule").doesNotContain("MR-CREATE-2");
        assertThat(doc.get("medianCatchMillis").isNumber()).isTrue();
        assertThat(tmp.resolve("selftest/fault_MR-CREATE-2_probe/report.json")).exists();
        JsonNode props = new ObjectMapper().readTree(tmp.resolve("selftest/fault_MR-CREATE-2_probe/report.json").toFile()).get("properties");
        assertThat(props.get(0).get("firstViolation").asText()).isEqualTo("MR-CREATE-2");
        assertThat(props.get(0).get("firstFailure").asText()).isEqualTo("violation of MR-CREATE-2");
    }

    /**
     * A fault marked {@link org.ndktck.spec.DeepProfileFault} (the proof that deep is deeper) passes the standard profile,
     * so selftest at the standard profile proves the kit against it at deep, in a row that says so.
     */
    @Test
    void aFaultOnlyTheDeepProfileReachesIsProvedAtDeep() throws IOException {
        String fault = "fault:MR-FRI-6/command-ring-16";
        Cli.Result standard = Cli.run("run", "--provider", fault, "--rules", "MR-FRI-6", "--seed", "5",
                "--report-dir", tmp.resolve("standard").toString());
        assertThat(standard.code()).as("the mark is earned: the standard profile does not reach the fault\n" + standard.out())
                .isZero();
        Cli.Result r = Cli.run("selftest", "--report-dir", tmp.toString(), "--seed", "5", "--faults", fault);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).containsPattern("fault:MR-FRI-6/command-ring-16 \\[profile=deep\\]\\s+MR-FRI-6\\s+yes");
        JsonNode row = rows("faults").get(fault + " [profile=deep]");
        assertThat(row.get("outcome").asText()).isEqualTo("caught");
        assertThat(new ObjectMapper().readTree(tmp.resolve("selftest/fault_MR-FRI-6_command-ring-16/report.json").toFile())
                .get("profile").asText()).isEqualTo("deep");
    }

    @Test
    void aFailureThatIsNoViolationOfTheFaultsRuleIsNoCatch() throws IOException {
        Cli.Result r = selftest("fault:GEN-CB-2/probe-crash,fault:GEN-CB-2/probe-buried,fault:MR-CREATE-2/probe-other-rule");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("Faults: 0 of 3 caught").contains("failed for another reason");
        Map<String, JsonNode> f = rows("faults");
        JsonNode crash = f.get("fault:GEN-CB-2/probe-crash");
        assertThat(crash.get("verdict").asText()).as("the rule is FAILed by the crash").isEqualTo("FAIL");
        assertThat(crash.get("caught").asBoolean()).as("a crash is no catch").isFalse();
        assertThat(crash.get("outcome").asText()).isEqualTo("failed for another reason");
        assertThat(crash.get("outcomeDetail").asText()).startsWith("failed for another reason: ")
                .contains("CallbackProbe#noCompletionAfterInlineReturn").contains("crash: java.lang.IllegalStateException");
        assertThat(crash.get("timeToCatchMillis").isNull()).isTrue();
        JsonNode buried = f.get("fault:GEN-CB-2/probe-buried");
        assertThat(buried.get("verdict").asText()).isEqualTo("FAIL");
        assertThat(buried.get("caught").asBoolean()).as("a violation buried as a cause is no catch").isFalse();
        assertThat(buried.get("outcomeDetail").asText()).contains("crash: java.lang.IllegalStateException");
        JsonNode other = f.get("fault:MR-CREATE-2/probe-other-rule");
        assertThat(other.get("caught").asBoolean()).as("a violation of another rule is no catch").isFalse();
        assertThat(other.get("outcome").asText()).isEqualTo("failed for another reason");
        assertThat(other.get("outcomeDetail").asText()).contains("violation of GEN-CB-2");
        assertThat(other.get("failedRules").toString()).contains("GEN-CB-2");
    }

    @Test
    void aFaultNotCaughtAStuckFaultAnUnknownRuleAndAFailingLegalProviderExitOne() throws IOException {
        Cli.Result r = selftest("fault:GEN-CB-1/probe-uncaught,fault:GEN-CB-1/probe-hang,fault:NO-SUCH-RULE/probe,legal:GEN-CB-2/probe-bad",
                "--fault-timeout", "2");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        Map<String, JsonNode> f = rows("faults");
        JsonNode uncaught = f.get("fault:GEN-CB-1/probe-uncaught");
        assertThat(uncaught.get("caught").asBoolean()).isFalse();
        assertThat(uncaught.get("outcome").asText()).isEqualTo("not caught");
        assertThat(uncaught.get("verdict").asText()).isEqualTo("PASS");
        assertThat(uncaught.get("replay").asText()).contains("--rules GEN-CB-1");
        JsonNode hang = f.get("fault:GEN-CB-1/probe-hang");
        assertThat(hang.get("caught").asBoolean()).isFalse();
        assertThat(hang.get("timedOut").asBoolean()).isTrue();
        assertThat(hang.get("outcome").asText()).as("a time bound is no catch").isEqualTo("failed for another reason");
        assertThat(hang.get("outcomeDetail").asText()).contains("time bound");
        assertThat(f.get("fault:NO-SUCH-RULE/probe").get("message").asText()).contains("no rule NO-SUCH-RULE");
        assertThat(f.get("fault:NO-SUCH-RULE/probe").get("outcome").asText()).isEqualTo("not caught");
        assertThat(rows("legal").get("legal:GEN-CB-2/probe-bad").get("passed").asBoolean()).isFalse();
        assertThat(r.out()).contains("NO").contains("Faults: 0 of 3 caught");
    }
}
