package org.ndktck.tck.runner;

import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherFactory;
import org.ndktck.tck.harness.KitLifecycle;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * Discovers the kit's properties (every test in the kit package, by default {@value #KIT_PACKAGE}) and the
 * rules each one checks, without running them.
 */
public final class KitDiscovery {
    /** The package of the kit's properties. */
    public static final String KIT_PACKAGE = "org.ndktck.tck.properties";

    private KitDiscovery() {
    }

    /**
     * @param kitPackage the package to scan
     * @param loader     the class loader to discover with (the provider loader)
     * @param parameters configuration parameters
     * @return every property, in discovery order
     */
    public static List<PropertyInfo> discover(String kitPackage, ClassLoader loader, Map<String, String> parameters) {
        synchronized (CACHE) {
            List<PropertyInfo> hit = CACHE.computeIfAbsent(loader, k -> new java.util.HashMap<>()).get(kitPackage);
            if (hit != null) {
                return hit;
            }
        }
        List<PropertyInfo> found = List.copyOf(discoverNow(kitPackage, loader, parameters));
        synchronized (CACHE) {
            CACHE.get(loader).put(kitPackage, found);
        }
        return found;
    }

    /** Discoveries by class loader and package: a selftest prepares one run per fault with the same loader. */
    private static final Map<ClassLoader, Map<String, List<PropertyInfo>>> CACHE = new java.util.WeakHashMap<>();

    private static List<PropertyInfo> discoverNow(String kitPackage, ClassLoader loader, Map<String, String> parameters) {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            LauncherDiscoveryRequest req = request().selectors(selectPackage(kitPackage))
                    .configurationParameters(parameters).build();
            Launcher launcher = LauncherFactory.create();
            TestPlan plan = launcher.discover(req);
            return properties(plan);
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /**
     * @param plan a test plan
     * @return its tests that have a method source, as properties
     */
    static List<PropertyInfo> properties(TestPlan plan) {
        List<PropertyInfo> out = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier id : plan.getDescendants(root)) {
                info(id).ifPresent(out::add);
            }
        }
        return out;
    }

    /**
     * @param id a test identifier
     * @return the property it is, when it is a test with a method source that names rules (a kit property names its
     *     rules in tags; a test without them, such as a build's own JUnit test beside the kit's properties, e.g.
     *     examples/provider-build's KitJarTest, is no property of the kit)
     */
    static java.util.Optional<PropertyInfo> info(TestIdentifier id) {
        if (!id.isTest() || id.getSource().isEmpty() || !(id.getSource().get() instanceof MethodSource ms)) {
            return java.util.Optional.empty();
        }
        Set<String> rules = new LinkedHashSet<>();
        String simple = ms.getClassName().substring(ms.getClassName().lastIndexOf('.') + 1);
        simple = simple.substring(simple.lastIndexOf('$') + 1);
        String propertyId = simple + "#" + ms.getMethodName();
        try {
            Method m = ms.getJavaMethod();
            rules.addAll(KitLifecycle.ruleIds(m));
            propertyId = KitLifecycle.propertyId(m);
        } catch (RuntimeException | LinkageError e) {
            // fall back to tags and the source's names
        }
        if (rules.isEmpty()) {
            id.getTags().forEach(tag -> rules.add(tag.getName()));
        }
        if (rules.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new PropertyInfo(id.getUniqueId(), propertyId,
                ms.getClassName(), ms.getMethodName(), rules));
    }

    /**
     * @param properties discovered properties
     * @return rule ID to the properties that check it
     */
    public static Map<String, List<PropertyInfo>> byRule(List<PropertyInfo> properties) {
        Map<String, List<PropertyInfo>> out = new LinkedHashMap<>();
        for (PropertyInfo p : properties) {
            for (String r : p.ruleIds()) {
                out.computeIfAbsent(r, k -> new ArrayList<>()).add(p);
            }
        }
        return out;
    }
}
