package org.ndktck.tck.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.ndktck.tck.runner.Console;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One cause is one message: failures that share a first failure (a set-up call failing for every property, one
 * provider bug several properties meet) are one entry of report.json's {@code failureCauses}, one block on the
 * console and one article at the top of report.html.
 */
class FailureCausesTest {
    private static final String SETUP = "kit set-up failed: NdkCreatePd() returned STATUS_NOT_IMPLEMENTED (0xC0000002)";

    private static RunReport.RuleReport rule(String id, String strength, String verdict, String message, String seed, String cx) {
        return new RunReport.RuleReport(id, "title of " + id, "NdkCreatePd", strength, "PROVIDER_PROPERTY", verdict, true, 1, 1, 1, 1,
                message, cx, seed, "./ndk-tck run --rules " + id + " --seed 9", List.of("P#" + id), List.of());
    }

    private static RunReport.PropertyReport prop(String rule, String seed, String message, String cx, String firstFailure) {
        return new RunReport.PropertyReport("P#" + rule, List.of(rule), "FAILED", 1, 1, seed, 5, message, cx, List.of(), 0,
                firstFailure, null);
    }

    /** Five rules stopped by the same set-up error (one of them SHOULD), and one rule with a violation of its own. */
    static RunReport skeletonLike() {
        List<RunReport.RuleReport> rules = new ArrayList<>();
        List<RunReport.PropertyReport> props = new ArrayList<>();
        String[] ids = {"MR-FR-3", "MR-FR-4", "MR-REG-8", "MR-TOK-1", "MR-REG-10"};
        for (int i = 0; i < ids.length; i++) {
            String strength = ids[i].equals("MR-REG-10") ? "SHOULD" : "MUST";
            rules.add(rule(ids[i], strength, strength.equals("SHOULD") ? "ADVISORY" : "FAIL", SETUP, "" + i, "[sample " + i + "]"));
            props.add(prop(ids[i], "" + i, SETUP, "[sample " + i + "]", "set-up error: " + SETUP));
        }
        rules.add(rule("MR-FR-6", "MUST", "FAIL", "[MR-FR-6] MUST: NdkFastRegister(...) returned STATUS_SUCCESS", "77", "[plan]"));
        props.add(prop("MR-FR-6", "77", "[MR-FR-6] MUST: NdkFastRegister(...) returned STATUS_SUCCESS", "[plan]", "violation of MR-FR-6"));
        RunReport s = SampleReports.withRules(false, rules);
        return new RunReport(s.format(), s.kit(), s.provider(), s.seed(), s.seedGiven(), s.profile(), s.tries(), s.timeoutFactor(),
                s.strict(), s.rulesPattern(), s.shard(), s.mergedShards(), s.startedAt(), s.durationMillis(), s.triesPerSecond(),
                s.summary(), s.exclusions(), s.notes(), s.replay(), 1, rules, props);
    }

    @Test
    void aSetUpErrorEveryPropertyMeetsIsOneCauseWithItsRulesAndTheCallToWriteFirst() throws Exception {
        List<FailureCauses.FailureCause> causes = skeletonLike().failureCauses();
        assertThat(causes).extracting(FailureCauses.FailureCause::cause).containsExactly("set-up error: " + SETUP, "violation of MR-FR-6");
        FailureCauses.FailureCause setup = causes.get(0);
        assertThat(setup.properties()).hasSize(5);
        assertThat(setup.failedRules()).containsExactly("MR-FR-3", "MR-FR-4", "MR-REG-8", "MR-TOK-1");
        assertThat(setup.advisoryRules()).containsExactly("MR-REG-10");
        assertThat(setup.implementFirst()).isEqualTo("NdkCreatePd");
        assertThat(causes.get(1).rules()).containsExactly("MR-FR-6");
        assertThat(causes.get(1).implementFirst()).isNull();

        JsonNode json = ReportWriter.mapper().readTree(ReportWriter.mapper().writeValueAsString(skeletonLike()));
        assertThat(json.get("failureCauses")).hasSize(2);
        assertThat(json.get("failureCauses").get(0).get("implementFirst").asText()).isEqualTo("NdkCreatePd");
        assertThat(json.get("failureGroups").get(0).get("cause").asText()).isEqualTo("set-up error: " + SETUP);
        // the groups keep their fields
        assertThat(json.get("failureGroups").get(0).has("failedRules")).isTrue();
        assertThat(ReportWriter.mapper().readValue(json.toString(), RunReport.class).failureCauses()).isEqualTo(causes);
    }

    @Test
    void theConsolePrintsTheSharedCauseOnceWithItsRulesUnderIt() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Console.results(new PrintStream(bytes, true, StandardCharsets.UTF_8), skeletonLike(), null, false);
        String out = bytes.toString(StandardCharsets.UTF_8);
        // once in the table's fold line, once as the block's title: never once per rule
        assertThat(out.split(java.util.regex.Pattern.quote(SETUP), -1)).hasSize(3);
        assertThat(out).contains("(4 FAIL and 1 ADVISORY rules not shown: set-up error: " + SETUP + "; listed once below)")
                .contains("FAIL: MR-FR-3, MR-FR-4, MR-REG-8, MR-TOK-1")
                .contains("ADVISORY: MR-REG-10")
                .contains("write NdkCreatePd first")
                .contains("replay: ./ndk-tck run --rules MR-FR-3 --seed 9")
                .doesNotContain("[sample 1]")
                // the rule with a cause of its own is printed as before
                .contains("FAIL MR-FR-6 (MUST): title of MR-FR-6")
                .contains("counterexample: [plan]");
    }

    @Test
    void reportHtmlOpensOnTheFailuresByCauseAboveTheTable() {
        String html = HtmlReport.render(skeletonLike());
        int causes = html.indexOf("<section id=\"causes\">");
        assertThat(causes).isPositive().isLessThan(html.indexOf("<table id=\"rules\">"));
        assertThat(html).contains("<a href=\"#cx-MR-REG-10\">MR-REG-10</a>").contains("Write <b>NdkCreatePd</b> first");
        assertThat(html.substring(causes, html.indexOf("</section>", causes))).contains(esc(SETUP)).contains("violation of MR-FR-6");
        // a passing run has no such section
        assertThat(HtmlReport.render(SampleReports.withRules(false, List.of(SampleReports.rule("MR-FR-4", "MUST", "PASS", null, null, true)))))
                .doesNotContain("id=\"causes\"");
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
