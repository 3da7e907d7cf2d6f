package org.ndktck.spec.rules;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The catalog's {@code guards} field: which kit interpretations still FAIL, and the page audit's source record. */
class GuardTest {
    private final RuleCatalog catalog = RuleCatalog.standard();

    private Rule rule(String id) {
        return catalog.find(id).orElseThrow();
    }

    @Test
    void theFoundingRulesStayFailLevel() {
        for (String id : List.of("MR-FR-3", "MR-FR-4")) {
            assertThat(rule(id).guards()).as(id).isEqualTo(Guard.FOUNDING);
            assertThat(rule(id).failIsAdvisory()).as(id).isFalse();
        }
    }

    @Test
    void aKitReadingThatGuardsNothingIsAdvisory() {
        for (String id : List.of("LIM-2", "TR-1", "MR-FR-16", "MR-FR-17", "MR-FR-18")) {
            assertThat(rule(id).basis()).as(id).isEqualTo(Basis.KIT_INTERPRETATION);
            assertThat(rule(id).failIsAdvisory()).as(id).isTrue();
        }
        // stated rules never become advisory through the field
        assertThat(rule("GEN-CB-1").failIsAdvisory()).isFalse();
        assertThat(rule("SEC-1").failIsAdvisory()).isFalse();
    }

    @Test
    void onlyKitInterpretationsCarryGuards() {
        assertThat(catalog.rules()).filteredOn(r -> r.guards() != null)
                .allSatisfy(r -> assertThat(r.basis()).as(r.id()).isEqualTo(Basis.KIT_INTERPRETATION));
        Rule r = rule("GEN-CB-1");
        Rule bad = new Rule(r.id(), r.title(), r.function(), r.group(), r.binds(), r.strength(), r.basis(), r.check(),
                r.statement(), r.howChecked(), r.allowedStatuses(), r.source(), r.ambiguities(), r.requires(), Guard.DATA_LOSS);
        assertThat(RuleCatalogValidator.problems(RuleCatalog.of(List.of(bad), catalog.ambiguities()))).anyMatch(m -> m.contains("guards is only for"));
    }

    @Test
    void everyAuditedPageSaysWhereAndWhenItsTextWasRead() {
        assertThat(PageAudit.standard().pages()).allSatisfy(p -> {
            assertThat(p.readFrom()).as(p.page()).isNotBlank();
            assertThat(p.lastChanged()).as(p.page()).matches("\\d{4}-\\d{2}-\\d{2}|unknown");
        });
        assertThat(PageAudit.standard().find("N:ndkpi-object-lifetime-requirements.md").orElseThrow().lastChanged())
                .isEqualTo("2022-10-05");
    }
}
