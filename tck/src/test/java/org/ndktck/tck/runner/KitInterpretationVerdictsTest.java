package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.report.RunReport;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broken check of a rule that rests on the kit's own reading (basis KIT_INTERPRETATION, no {@code guards}) is
 * ADVISORY with the note "kit interpretation"; a founding rule, a guarded one, or a finding that exposed memory stays
 * FAIL (the catalog's {@code guards} field).
 */
class KitInterpretationVerdictsTest {
    private static final RuleCatalog CATALOG = RuleCatalog.standard();

    private static PropertyInfo prop(String name, String rule) {
        return new PropertyInfo("[uid:" + name + "]", name, "x." + name, name, new LinkedHashSet<>(List.of(rule)));
    }

    private static PropertyOutcome failed(PropertyInfo p, RuleViolation v) {
        return new PropertyOutcome(p, "FAILED", 3, 3, "123", 40, v.getMessage(), v, "[x=3]", 50);
    }

    private static Map<String, RunReport.RuleReport> compute(List<PropertyOutcome> outcomes) {
        List<PropertyInfo> all = outcomes.stream().map(PropertyOutcome::property).toList();
        Set<String> selected = CATALOG.rules().stream().map(r -> r.id()).collect(Collectors.toSet());
        return Verdicts.compute(CATALOG, selected, Map.of(), KitDiscovery.byRule(all), outcomes, List.of(), id -> "replay " + id)
                .stream().collect(Collectors.toMap(RunReport.RuleReport::id, r -> r));
    }

    @Test
    void aKitReadingAloneIsAdvisoryAndSaysSo() {
        Map<String, RunReport.RuleReport> v = compute(List.of(
                failed(prop("P#lim", "LIM-2"), new RuleViolation("LIM-2", "round 2 created fewer MRs")),
                failed(prop("P#tr", "TR-1"), new RuleViolation("TR-1", "the send failed before the flush"))));
        for (String id : List.of("LIM-2", "TR-1")) {
            assertThat(v.get(id).verdict()).as(id).isEqualTo("ADVISORY");
            assertThat(v.get(id).message()).as(id).startsWith(Verdicts.KIT_INTERPRETATION);
        }
    }

    @Test
    void foundingAndGuardedRulesStayFail() {
        Map<String, RunReport.RuleReport> v = compute(List.of(
                failed(prop("P#fr4", "MR-FR-4"), new RuleViolation("MR-FR-4", "BaseVirtualAddress not congruent to FBO")),
                failed(prop("P#sgE", "SGE-2"), new RuleViolation("SGE-2", "an SGE outside its region moved bytes")),
                failed(prop("P#cb", "GEN-CB-1"), new RuleViolation("GEN-CB-1", "no completion"))));
        for (String id : List.of("MR-FR-4", "SGE-2", "GEN-CB-1")) {
            assertThat(v.get(id).verdict()).as(id).isEqualTo("FAIL");
            assertThat(v.get(id).message()).as(id).doesNotStartWith(Verdicts.KIT_INTERPRETATION);
        }
    }

    @Test
    void anAcceptedRegistrationThatExposedMemoryFails() {
        Map<String, RunReport.RuleReport> v = compute(List.of(
                failed(prop("P#16", "MR-FR-16"), new RuleViolation("MR-FR-16", Verdicts.MEMORY_EXPOSED + "a guard frame was written")),
                failed(prop("P#17", "MR-FR-17"), new RuleViolation("MR-FR-17", "accepted, nothing outside the supplied pages reached"))));
        assertThat(v.get("MR-FR-16").verdict()).isEqualTo("FAIL");
        assertThat(v.get("MR-FR-17").verdict()).isEqualTo("ADVISORY");
    }
}
