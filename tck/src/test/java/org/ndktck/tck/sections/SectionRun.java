package org.ndktck.tck.sections;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.RunLedger;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

/**
 * Runs kit property classes through the JUnit Platform Launcher (as the runner and a provider's own build
 * do) and summarizes the RunLedger: which rules failed. A failure thrown as a {@link RuleViolation} is
 * charged to that violation's rule, any other failure to the property's own rules.
 */
final class SectionRun {
    private final Map<String, String> params = new LinkedHashMap<>();
    private final List<DiscoverySelector> selectors = new ArrayList<>();
    private final List<String> tags = new ArrayList<>();

    private SectionRun(String provider) {
        params.put("ndk.tck.provider", provider);
        params.put("ndk.tck.tries", "100");
        params.put("jqwik.database", "target/jqwik-sections-db");
        params.put("jqwik.reporting.onlyfailures", "true");
        params.put("jqwik.shrinking.bounded.seconds", "2");
    }

    static SectionRun against(String provider) {
        return new SectionRun(provider);
    }

    SectionRun set(String key, String value) {
        params.put("ndk.tck.set." + key, value);
        return this;
    }

    SectionRun param(String key, String value) {
        params.put(key, value);
        return this;
    }

    SectionRun tries(int tries) {
        return param("ndk.tck.tries", Integer.toString(tries));
    }

    SectionRun classes(Class<?>... classes) {
        for (Class<?> c : classes) {
            selectors.add(selectClass(c));
        }
        return this;
    }

    SectionRun packages(String... names) {
        for (String n : names) {
            selectors.add(selectPackage(n));
        }
        return this;
    }

    SectionRun tags(String... ruleIds) {
        tags.addAll(List.of(ruleIds));
        return this;
    }

    Result run() {
        RunLedger.reset();
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request().selectors(selectors).configurationParameters(params);
        if (!tags.isEmpty()) {
            b.filters(TagFilter.includeTags(tags));
        }
        LauncherDiscoveryRequest req = b.build();
        Launcher launcher = LauncherFactory.create();
        long start = System.nanoTime();
        launcher.execute(req);
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new Result(RunLedger.properties(), RunLedger.advisories(), millis);
    }

    /** The outcome of a run. */
    record Result(List<RunLedger.PropertyRecord> properties, List<RunLedger.Advisory> advisories, long millis) {
        /** @return rule IDs charged with a failure */
        Set<String> failedRules() {
            Set<String> out = new TreeSet<>();
            for (RunLedger.PropertyRecord r : properties) {
                if (r.status().equals("FAILED")) {
                    out.addAll(chargedRules(r));
                }
            }
            return out;
        }

        static Set<String> chargedRules(RunLedger.PropertyRecord r) {
            Set<String> named = org.ndktck.tck.runner.Failures.violatedRules(r.failure());
            return named.isEmpty() ? new LinkedHashSet<>(r.ruleIds()) : named;
        }

        /** @return properties that failed */
        List<RunLedger.PropertyRecord> failed() {
            return properties.stream().filter(r -> r.status().equals("FAILED")).toList();
        }

        /** @return properties that were skipped */
        List<RunLedger.PropertyRecord> skipped() {
            return properties.stream().filter(r -> r.status().equals("SKIPPED")).toList();
        }

        /** @return properties that passed */
        List<RunLedger.PropertyRecord> passed() {
            return properties.stream().filter(r -> r.status().equals("SUCCESSFUL")).toList();
        }

        String describe() {
            StringBuilder b = new StringBuilder("run of " + properties.size() + " properties in " + millis + " ms\n");
            for (RunLedger.PropertyRecord r : properties) {
                b.append("  ").append(r.status()).append(' ').append(r.property()).append(' ').append(r.ruleIds())
                        .append(" tries=").append(r.tries()).append(" checks=").append(r.checks()).append(' ')
                        .append(r.durationMillis()).append("ms");
                if (!r.status().equals("SUCCESSFUL")) {
                    b.append("\n      charged=").append(r.status().equals("FAILED") ? chargedRules(r) : "-").append(' ')
                            .append(firstLines(r.message(), 8));
                }
                b.append('\n');
            }
            for (RunLedger.Advisory a : advisories) {
                b.append("  ADVISORY ").append(a.ruleId()).append(": ").append(firstLines(a.message(), 2)).append('\n');
            }
            return b.toString();
        }

        static String firstLines(String s, int n) {
            String[] lines = String.valueOf(s).split("\n");
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < Math.min(n, lines.length); i++) {
                b.append(i == 0 ? "" : "\n        ").append(lines[i]);
            }
            return b.toString();
        }
    }
}
