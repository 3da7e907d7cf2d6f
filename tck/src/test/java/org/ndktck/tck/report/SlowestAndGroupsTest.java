package org.ndktck.tck.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * report.json names the slowest properties with their share of the run and groups failures by
 * the property that found them (point 4).
 */
class SlowestAndGroupsTest {
    private static RunReport.PropertyReport prop(String id, String rule, String status, long millis, String seed, String cx,
                                                 List<String> violated) {
        return new RunReport.PropertyReport(id, List.of(rule), status, 10, 10, seed, millis, null, cx, violated, 0, null, null);
    }

    private static RunReport withProperties(List<RunReport.RuleReport> rules, List<RunReport.PropertyReport> props) {
        RunReport s = SampleReports.sample(false);
        return new RunReport(s.format(), s.kit(), s.provider(), s.seed(), s.seedGiven(), s.profile(), s.tries(), s.timeoutFactor(),
                s.strict(), s.rulesPattern(), s.shard(), s.mergedShards(), s.startedAt(), s.durationMillis(), s.triesPerSecond(),
                s.summary(), s.exclusions(), s.notes(), s.replay(), s.exitCode(), rules, props);
    }

    @Test
    void theSlowestPropertiesAreNamedSlowestFirstWithTheirShare() throws Exception {
        List<RunReport.PropertyReport> props = new ArrayList<>();
        props.add(prop("A#fast", "MR-FR-4", "SUCCESSFUL", 100, "1", null, List.of()));
        props.add(prop("B#timer", "MR-FR-5", "SUCCESSFUL", 7_500, "2", null, List.of()));
        props.add(prop("C#mid", "MR-FR-6", "SUCCESSFUL", 2_400, "3", null, List.of()));
        RunReport r = withProperties(List.of(), props);
        List<RunReport.SlowProperty> slow = r.slowestProperties();
        assertThat(slow).extracting(RunReport.SlowProperty::property).containsExactly("B#timer", "C#mid", "A#fast");
        assertThat(slow.get(0).share()).isEqualTo(0.75);
        assertThat(slow.get(0).rules()).containsExactly("MR-FR-5");
        JsonNode json = ReportWriter.mapper().readTree(ReportWriter.mapper().writeValueAsString(r));
        assertThat(json.get("slowestProperties").get(0).get("property").asText()).isEqualTo("B#timer");
        assertThat(json.get("slowestProperties").get(0).get("share").asDouble()).isEqualTo(0.75);
        // written, not read: a report with the field reads back
        assertThat(ReportWriter.mapper().readValue(json.toString(), RunReport.class).slowestProperties()).isEqualTo(slow);
    }

    @Test
    void failuresAreGroupedByTheFindingPropertyWithTheRulesTheyMadeFail() throws Exception {
        List<RunReport.RuleReport> rules = List.of(
                SampleReports.rule("MR-TOK-2", "MUST", "FAIL", "reported by L#chain (MR-DEREG-3): ...", "[chain]", true),
                SampleReports.rule("MR-DEREG-3", "MUST", "FAIL", "...", "[chain]", true),
                SampleReports.rule("MR-FR-4", "MUST", "FAIL", "...", "[other]", true));
        // SampleReports gives every FAIL the seed -77
        List<RunReport.PropertyReport> props = List.of(
                prop("L#chain", "MR-DEREG-3", "FAILED", 10, "-77", "[chain]", List.of("MR-TOK-2")),
                prop("F#plan", "MR-FR-4", "FAILED", 10, "-77", "[other]", List.of("MR-FR-4")),
                prop("P#ok", "MR-FR-5", "SUCCESSFUL", 10, "5", null, List.of()));
        List<RunReport.FailureGroup> groups = withProperties(rules, props).failureGroups();
        assertThat(groups).extracting(RunReport.FailureGroup::property).containsExactly("L#chain", "F#plan");
        assertThat(groups.get(0).violatedRules()).containsExactly("MR-TOK-2");
        assertThat(groups.get(0).failedRules()).containsExactly("MR-TOK-2", "MR-DEREG-3");
        assertThat(groups.get(1).failedRules()).containsExactly("MR-FR-4");
    }
}
