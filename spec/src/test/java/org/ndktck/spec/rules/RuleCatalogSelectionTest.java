package org.ndktck.spec.rules;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** {@link RuleCatalog#matching(String)} and {@link RuleCatalog#closestIds(String, int)} (for --rules and explain). */
class RuleCatalogSelectionTest {

    private final RuleCatalog catalog = RuleCatalog.standard();

    private List<String> ids(String patterns) {
        return catalog.matching(patterns).stream().map(Rule::id).toList();
    }

    @Test
    void anExactIdSelectsThatRule() {
        assertThat(ids("MR-FR-4")).containsExactly("MR-FR-4");
        assertThat(ids(" mr-fr-4 ")).containsExactly("MR-FR-4");
    }

    @Test
    void aGlobSelectsItsFamilyOnly() {
        List<String> fr = ids("MR-FR-*");
        assertThat(fr).hasSize(20).allMatch(id -> id.startsWith("MR-FR-")).doesNotContain("MR-FRI-1");
        assertThat(ids("MR-FR-1?")).containsExactly(
                "MR-FR-10", "MR-FR-11", "MR-FR-12", "MR-FR-13", "MR-FR-14", "MR-FR-15", "MR-FR-16", "MR-FR-17",
                "MR-FR-18", "MR-FR-19");
        assertThat(ids("*")).hasSameSizeAs(catalog.rules());
    }

    @Test
    void aListIsMergedInCatalogOrderWithoutDuplicates() {
        assertThat(ids("MR-FR-4,GEN-CB-*,MR-FR-4,")).containsExactly(
                "GEN-CB-1", "GEN-CB-2", "GEN-CB-3", "GEN-CB-4", "GEN-CB-5", "MR-FR-4");
    }

    @Test
    void aPatternMatchingNothingIsNamed() {
        assertThatIllegalArgumentException().isThrownBy(() -> catalog.matching("MR-FR-4,NOPE-*"))
                .withMessageContaining("'NOPE-*'");
        assertThatIllegalArgumentException().isThrownBy(() -> catalog.matching("MR-FR-40"))
                .withMessageContaining("'MR-FR-40'").withMessageContaining("MR-FR-4");
        assertThatIllegalArgumentException().isThrownBy(() -> catalog.matching(" , "));
        assertThatIllegalArgumentException().isThrownBy(() -> catalog.matching(""));
        assertThatIllegalArgumentException().isThrownBy(() -> catalog.matching(null));
    }

    @Test
    void regexCharactersInAPatternAreLiteral() {
        assertThatIllegalArgumentException().isThrownBy(() -> catalog.matching("MR.FR.4"));
        assertThatIllegalArgumentException().isThrownBy(() -> catalog.matching("MR-FR-[4]"));
    }

    @Test
    void closestIdsRankByEditDistanceThenPrefix() {
        assertThat(catalog.closestIds("MR-FR-40", 3)).first().isEqualTo("MR-FR-4");
        assertThat(catalog.closestIds("MR-FR4", 1)).containsExactly("MR-FR-4");
        assertThat(catalog.closestIds("mr-reg-2", 1)).containsExactly("MR-REG-2");
        assertThat(catalog.closestIds("LAM-REL-4", 2)).containsExactly("LAM-REL-1", "LAM-REL-2");
        assertThat(catalog.closestIds("MR-FRI-9", 5)).hasSize(5).first().asString().startsWith("MR-FRI-");
    }

    @Test
    void closestIdsHonoursMax() {
        assertThat(catalog.closestIds("X", 0)).isEmpty();
        assertThat(catalog.closestIds("X", -1)).isEmpty();
        assertThat(catalog.closestIds(null, 2)).hasSize(2);
        assertThat(catalog.closestIds("X", 10_000)).hasSameSizeAs(catalog.rules());
    }

    @Test
    void editDistanceIsLevenshtein() {
        assertThat(RuleCatalog.editDistance("", "")).isZero();
        assertThat(RuleCatalog.editDistance("kitten", "sitting")).isEqualTo(3);
        assertThat(RuleCatalog.editDistance("MR-FR-4", "MR-FR-4")).isZero();
        assertThat(RuleCatalog.editDistance("MR-FR-4", "MR-FRI-4")).isEqualTo(1);
        assertThat(RuleCatalog.editDistance("abc", "")).isEqualTo(3);
    }

    @Test
    void rulesCitingFindsEveryRuleOfAnAmbiguity() {
        assertThat(catalog.rulesCiting("AMB-6").stream().map(Rule::id)).contains("GEN-CB-1", "GEN-CB-2", "CL-1");
        assertThat(catalog.rulesCiting("AMB-999")).isEmpty();
    }
}
