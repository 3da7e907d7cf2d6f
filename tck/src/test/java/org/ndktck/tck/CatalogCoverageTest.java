package org.ndktck.tck;

import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.harness.KitLifecycle;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.runner.KitDiscovery;
import org.ndktck.tck.runner.PropertyInfo;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build-time contract between the kit and the rule catalog: every property names
 * existing rules, with a matching jqwik tag; every provider-checked rule has at least one property (the
 * list of those without one is printed and must be empty); no committed property fixes its seed.
 */
class CatalogCoverageTest {
    private static List<PropertyInfo> properties;
    private static List<Method> methods;

    @BeforeAll
    static void discover() throws ClassNotFoundException {
        properties = KitDiscovery.discover(KitDiscovery.KIT_PACKAGE, CatalogCoverageTest.class.getClassLoader(), Map.of());
        methods = new ArrayList<>();
        for (PropertyInfo p : properties) {
            Class<?> c = Class.forName(p.className());
            Arrays.stream(c.getDeclaredMethods()).filter(m -> m.getName().equals(p.methodName())).forEach(methods::add);
        }
    }

    @Test
    void theKitHasProperties() {
        assertThat(properties).hasSizeGreaterThan(50);
    }

    @Test
    void everyPropertyNamesExistingRulesWithMatchingTags() {
        RuleCatalog catalog = RuleCatalog.standard();
        List<String> problems = new ArrayList<>();
        for (Method m : methods) {
            if (!m.isAnnotationPresent(Property.class)) {
                continue;
            }
            String where = m.getDeclaringClass().getSimpleName() + "#" + m.getName();
            List<String> tags = Arrays.stream(m.getAnnotationsByType(Tag.class)).map(Tag::value).toList();
            if (tags.isEmpty()) {
                problems.add(where + " names no rule (@Tag(\"RULE-ID\"))");
            }
            if (new java.util.HashSet<>(tags).size() != tags.size()) {
                problems.add(where + " names a rule twice: " + tags);
            }
            for (String r : tags) {
                if (catalog.find(r).isEmpty()) {
                    problems.add(where + " names " + r + ", which the catalog does not have");
                }
            }
            if (!List.copyOf(KitLifecycle.ruleIds(m)).equals(tags)) {
                problems.add(where + ": the kit reads the rules " + KitLifecycle.ruleIds(m) + ", its tags are " + tags);
            }
            if (!m.getDeclaringClass().isAnnotationPresent(NdkKit.class)) {
                problems.add(where + ": its class is not annotated @NdkKit");
            }
        }
        assertThat(problems).as("properties that break the kit/catalog contract").isEmpty();
    }

    @Test
    void everyProviderCheckedRuleHasAProperty() {
        Set<String> covered = KitDiscovery.byRule(properties).keySet();
        Set<String> missing = new TreeSet<>();
        for (Rule r : RuleCatalog.standard().rules()) {
            if (r.needsProperty() && !covered.contains(r.id())) {
                missing.add(r.id());
            }
        }
        System.out.println("Provider-checked rules without a property: " + (missing.isEmpty() ? "none" : missing));
        assertThat(missing).as("provider-checked rules of the catalog without a kit property").isEmpty();
    }

    @Test
    void noCommittedPropertyFixesItsSeed() {
        List<String> fixed = methods.stream()
                .filter(m -> m.isAnnotationPresent(Property.class))
                .filter(m -> !m.getAnnotation(Property.class).seed().isBlank())
                .map(m -> m.getDeclaringClass().getSimpleName() + "#" + m.getName())
                .collect(Collectors.toList());
        assertThat(fixed).as("properties with a fixed seed (forbidden: seeds come from the run)").isEmpty();
    }
}
