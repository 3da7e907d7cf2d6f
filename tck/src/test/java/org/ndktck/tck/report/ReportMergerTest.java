package org.ndktck.tck.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How the reports of a run's workers or shards combine into one rule verdict (ReportMerger). */
class ReportMergerTest {
    private static RunReport.RuleReport merged(RunReport.RuleReport a, RunReport.RuleReport b) {
        return ReportMerger.merge(List.of(SampleReports.withRules(false, List.of(a)), SampleReports.withRules(false, List.of(b))), null)
                .rules().get(0);
    }

    @Test
    void aPassInOneWorkerWinsOverPropertiesThatDidNotCompleteInAnother() {
        // found when the time budget came: COV-1 under --time-budget with --jobs 2 was UNTESTED, with --jobs 1 PASS
        RunReport.RuleReport pass = SampleReports.rule("COV-1", "MUST", "PASS", null, null, true);
        RunReport.RuleReport notDone = SampleReports.rule("COV-1", "MUST", "UNTESTED", "budget-limited: " + Summaries.BUDGET_RAN_OUT
                + "\n" + Summaries.NOTHING_COMPLETED + "[LiveScaleProperties#x ABANDONED]", null, true);
        RunReport.RuleReport m = merged(pass, notDone);
        assertThat(m.verdict()).isEqualTo("PASS");
        assertThat(m.message()).contains("did not complete: [LiveScaleProperties#x ABANDONED]").doesNotContain(Summaries.NOTHING_COMPLETED);
        assertThat(merged(notDone, pass).verdict()).as("whichever worker comes first").isEqualTo("PASS");
    }

    @Test
    void aRuleCutShortOrJudgedTooLittleInOneWorkerStaysUntested() {
        RunReport.RuleReport pass = SampleReports.rule("COV-1", "MUST", "PASS", null, null, true);
        RunReport.RuleReport cutShort = SampleReports.rule("COV-1", "MUST", "UNTESTED",
                "cut short: P#x stopped at a violation of MR-TOK-6 (reported under that rule), so it did not judge COV-1", null, true);
        assertThat(merged(pass, cutShort).verdict()).isEqualTo("UNTESTED");
        RunReport.RuleReport fail = SampleReports.rule("COV-1", "MUST", "FAIL", "[COV-1] MUST: lost", null, true);
        assertThat(merged(pass, fail).verdict()).isEqualTo("FAIL");
    }
}
