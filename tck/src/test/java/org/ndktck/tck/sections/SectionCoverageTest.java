package org.ndktck.tck.sections;

import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.Providers;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every provider-checked rule of the sections after the three seed pages (and MR-REG-3) has a property in
 * this branch's classes, every MUST / MUST NOT one of them a fault in the catalogue named after it, and
 * {@link SectionFaultsTest} runs every one of those faults.
 */
class SectionCoverageTest {
    private static final List<String> PREFIXES = List.of("MR-DEREG-", "MR-FRI-", "MR-TOK-", "PRIV-", "SGE-", "LAM-", "INV-", "WRP-",
            "RW-", "FL-", "CQ-", "DEF-", "CL-", "AI-");

    static Set<String> sectionRules(boolean mandatoryOnly) {
        return RuleCatalog.standard().rules().stream()
                .filter(Rule::needsProperty)
                .filter(r -> r.id().equals("MR-REG-3") || PREFIXES.stream().anyMatch(p -> r.id().startsWith(p)))
                .filter(r -> !mandatoryOnly || r.strength().isMandatory())
                .map(Rule::id).collect(Collectors.toCollection(TreeSet::new));
    }

    static Set<String> propertyRules() {
        Set<String> out = new TreeSet<>();
        for (Class<?> c : SectionProperties.all()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Property.class)) {
                    out.addAll(org.ndktck.tck.harness.KitLifecycle.ruleIds(m));
                }
            }
        }
        return out;
    }

    @Test
    void everyProviderCheckedRuleOfTheSectionsHasAProperty() {
        Set<String> missing = new TreeSet<>(sectionRules(false));
        missing.removeAll(propertyRules());
        assertThat(missing).as("provider-checked rules of the sections without a property").isEmpty();
        assertThat(sectionRules(false)).hasSizeGreaterThanOrEqualTo(45);
    }

    @Test
    void everyPropertyOfTheSectionsNamesACatalogRule() {
        for (String id : propertyRules()) {
            assertThat(RuleCatalog.standard().find(id)).as(id).isPresent();
        }
    }

    @Test
    void everyMandatoryRuleOfTheSectionsHasAFaultThatTheTestsRun() {
        Set<String> faults = Providers.all(getClass().getClassLoader()).stream().map(NdkProvider::name)
                .filter(n -> n.startsWith("fault:")).collect(Collectors.toSet());
        Set<String> tested = SectionFaultsTest.cases().stream().map(SectionFaultsTest.Case::fault).collect(Collectors.toSet());
        assertThat(faults).containsAll(tested);
        Set<String> caught = SectionFaultsTest.cases().stream().map(SectionFaultsTest.Case::rule).collect(Collectors.toCollection(TreeSet::new));
        // the faults of the rules the page audit added are run by AuditFaultsTest
        for (NdkProvider p : org.ndktck.faults.AuditFaults.providers()) {
            String id = p.name().substring("fault:".length());
            caught.add(id.contains("/") ? id.substring(0, id.indexOf('/')) : id);
        }
        Set<String> missing = new TreeSet<>(sectionRules(true));
        missing.removeAll(caught);
        assertThat(missing).as("MUST rules of the sections without a fault that SectionFaultsTest catches").isEmpty();
    }
}
