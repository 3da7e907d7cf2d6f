package org.ndktck.tck.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A report with one rule of every verdict, for the report writers' tests. */
final class SampleReports {
    static final String FR3_MESSAGE = "[MR-FR-3] MUST: NdkFastRegister accepted Length one byte over the page array: "
            + "AdapterPageCount=2 FBO=0xF00 Length=0x1101 BaseVirtualAddress=0x10F00 PAGE_SIZE=0x1000; peer read "
            + "RemoteAddress=0x12000 AccessLength=0x1 Access=read returned STATUS_SUCCESS; expected the request never registered";

    private SampleReports() {
    }

    static RunReport.RuleReport rule(String id, String strength, String verdict, String message, String cx, boolean selected) {
        return new RunReport.RuleReport(id, "title of " + id, "NdkFastRegister", strength, "PROVIDER_PROPERTY", verdict, selected,
                verdict.equals("PASS") || verdict.equals("FAIL") ? 1000 : 0, 1000, 420, 2380.9, message, cx,
                verdict.equals("FAIL") ? "-77" : null, "./ndk-tck run --rules " + id + " --seed 9", List.of("P#" + id), List.of(),
                verdict.equals("PASS") || verdict.equals("FAIL") ? 950 : 0);
    }

    static RunReport sample(boolean strict) {
        return withRules(strict, sampleRules());
    }

    private static List<RunReport.RuleReport> sampleRules() {
        List<RunReport.RuleReport> rules = new ArrayList<>();
        rules.add(rule("MR-FR-3", "MUST", "FAIL", FR3_MESSAGE, "[FastRegisterRequest[pages=2, fbo=0xF00]]", true));
        rules.add(rule("MR-FR-4", "MUST", "PASS", null, null, true));
        rules.add(rule("MR-REG-9", "SHOULD", "ADVISORY", "[MR-REG-9] SHOULD: STATUS_INSUFFICIENT_RESOURCES instead of STATUS_INVALID_PARAMETER", null, true));
        rules.add(rule("MR-REG-7", "MUST", "NOT_APPLICABLE", "MR-REG-7: the adapter does not set NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED", null, true));
        rules.add(rule("GEN-IRQL-1", "MUST", "NOT_TESTABLE", "not observable from outside the provider", null, true));
        rules.add(rule("MR-TOK-2", "MUST", "UNTESTED", "the kit has no property for this rule yet", null, true));
        rules.add(rule("MR-FR-12", "MUST", "EXCLUDED", "excluded until 2030-01-01: vendor bug <1234> & co", null, true));
        rules.add(rule("MR-FR-5", "MUST", "UNTESTED", "not selected in this run (--rules / --shard)", null, false));
        rules.add(rule("GEN-CB-2", "MUST_NOT", "FAIL", "reported by P#x (MR-FR-3): completion after an inline return\u0001", null, false));
        return rules;
    }

    /**
     * @param strict whether the run was strict
     * @param rules  its rule results
     * @return the sample run with these results
     */
    static RunReport withRules(boolean strict, List<RunReport.RuleReport> rules) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("completion", "pending");
        Map<String, Object> ai = new LinkedHashMap<>();
        ai.put("version", "1.2");
        ai.put("adapterFlagsHex", "0x00000002");
        ai.put("adapterFlagNames", List.of("RDMA_READ_SINK_NOT_REQUIRED"));
        ai.put("frmrPageCount", 256);
        ai.put("maxRegistrationSize", 4294967296L);
        ai.put("pageSize", 4096);
        RunReport.Provider p = new RunReport.Provider("reference", "org.ndktck.reference.ReferenceProvider", "the reference",
                List.of(), settings, Map.of("completion", "pending"), ai, null);
        return new RunReport(RunReport.FORMAT, new RunReport.Kit("0.1.0-SNAPSHOT", 9, "org.ndktck.tck.properties"), p, 9, true,
                "standard", null, 1.0, strict, null, null, List.of(), "2026-11-29T06:00:00Z", 5000, 1234.5,
                Summaries.summarize(rules, 2000, 840), List.of(), List.of("a note <with> markup"), "./ndk-tck run --seed 9",
                Summaries.exitCode(rules, strict), rules, List.of());
    }
}
