package org.ndktck.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.Providers;
import org.ndktck.spec.rules.Check;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;

/**
 * The fault catalogue as a whole: names are unique and well-formed, each names a catalog rule and
 * says in one line what it breaks, and every provider-checked MUST / MUST NOT rule has at least one fault.
 */
class FaultCatalogueTest {

    private static List<NdkProvider> all() {
        return Providers.all(FaultCatalogueTest.class.getClassLoader());
    }

    static String ruleOf(String fault) {
        return fault.substring("fault:".length()).split("/", 2)[0];
    }

    @Test
    void namesAreUniqueAndDescriptionsAreOneLine() {
        Map<String, Integer> count = new HashMap<>();
        for (NdkProvider p : all()) {
            count.merge(p.name(), 1, Integer::sum);
        }
        assertThat(count).as("provider names registered more than once").allSatisfy((name, n) -> assertThat(n).as(name).isEqualTo(1));
        for (NdkProvider p : all()) {
            if (p.name().startsWith("fault:") || p.name().startsWith("legal:")) {
                assertThat(p.description()).as(p.name()).isNotBlank().doesNotContain("\n").isNotEqualTo(p.name());
            }
        }
    }

    @Test
    void everyFaultNamesACatalogRule() {
        RuleCatalog catalog = RuleCatalog.standard();
        List<String> unknown = new ArrayList<>();
        for (NdkProvider p : all()) {
            if (p.name().startsWith("fault:") && catalog.find(ruleOf(p.name())).isEmpty()) {
                unknown.add(p.name());
            }
        }
        assertThat(unknown).as("faults whose name does not start with a catalog rule ID").isEmpty();
    }

    /** @return provider-checked MUST / MUST NOT rules without a fault in any {@code NdkProviderSource}, in catalog order */
    static List<String> mustRulesWithoutAFault() {
        Set<String> covered = new TreeSet<>();
        for (NdkProvider p : all()) {
            if (p.name().startsWith("fault:")) {
                covered.add(ruleOf(p.name()));
            }
        }
        List<String> missing = new ArrayList<>();
        for (Rule r : RuleCatalog.standard().rules()) {
            if (r.check() == Check.PROVIDER_PROPERTY && r.strength().isMandatory() && !covered.contains(r.id())) {
                missing.add(r.id());
            }
        }
        return missing;
    }

    @Test
    void everyProviderCheckedMustRuleHasAFault() {
        List<String> missing = mustRulesWithoutAFault();
        System.out.println("provider-checked MUST / MUST NOT rules without a fault (" + missing.size() + "): " + missing);
        assertThat(missing).as("provider-checked MUST / MUST NOT rules without a fault").isEmpty();
    }
}
