package org.ndktck.tck.faults;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.runner.Failures;

/**
 * Runs the kit's properties ({@code org.ndktck.tck.properties}) against one provider through the JUnit
 * Platform Launcher, as the runner does, and says which rules failed: a property's failure is charged to
 * every rule a {@link org.ndktck.tck.RuleViolation} in it names (itself, causes, suppressed; the runner's
 * {@link Failures#violatedRules}) and, when it names none, to the property's own rules.
 *
 * <p>Rules are selected by tag. A rule without a property of its own (a rule the harness checks in passing,
 * such as GEN-TIME-1 before the kit has a property for it) selects every property, as {@code selftest} does.
 */
public final class FaultRun {
    static final String KIT_PACKAGE = "org.ndktck.tck.properties";

    private final Map<String, String> params = new LinkedHashMap<>();
    private final List<String> tags = new ArrayList<>();
    private final List<String> witnesses = new ArrayList<>();

    private FaultRun(String provider) {
        params.put("ndk.tck.provider", provider);
        params.put("ndk.tck.tries", "20");
        params.put("jqwik.database", "target/jqwik-faults-db");
        params.put("jqwik.reporting.onlyfailures", "true");
        params.put("jqwik.shrinking.bounded.seconds", "1");
    }

    public static FaultRun against(String provider) {
        return new FaultRun(provider);
    }

    public FaultRun tries(int tries) {
        params.put("ndk.tck.tries", Integer.toString(tries));
        return this;
    }

    FaultRun timeoutFactor(double factor) {
        params.put("ndk.tck.timeoutFactor", Double.toString(factor));
        return this;
    }

    public FaultRun set(String key, String value) {
        params.put("ndk.tck.set." + key, value);
        return this;
    }

    /** Selects the properties tagged with any of {@code ruleIds}; none at all selects every property. */
    public FaultRun rules(String... ruleIds) {
        tags.addAll(List.of(ruleIds));
        return this;
    }

    /**
     * Properties to run instead of every property when some rule of {@link #rules} has no property of its own
     * (a rule the harness checks in passing): the tags of properties known to make the calls the fault
     * disturbs. Without witnesses such a run selects every property, as {@code selftest} does.
     */
    FaultRun witnesses(String... ruleIds) {
        witnesses.addAll(List.of(ruleIds));
        return this;
    }

    private LauncherDiscoveryRequest request(List<String> withTags) {
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request().selectors(selectPackage(KIT_PACKAGE))
                .configurationParameters(params);
        if (!withTags.isEmpty()) {
            b.filters(TagFilter.includeTags(withTags));
        }
        return b.build();
    }

    /**
     * @param ruleId a rule ID
     * @return how many kit properties carry the rule's tag
     */
    public static long propertiesOf(String ruleId) {
        TestPlan plan = LauncherFactory.create().discover(against("reference").request(List.of(ruleId)));
        return plan.countTestIdentifiers(TestIdentifier::isTest);
    }

    public Result run() {
        List<String> selected = new ArrayList<>();
        for (String t : tags) {
            if (propertiesOf(t) > 0) {
                selected.add(t);
            }
        }
        boolean ownProperties = !tags.isEmpty() && selected.size() == tags.size();
        if (!ownProperties && !witnesses.isEmpty()) {
            selected.addAll(witnesses);
        }
        boolean everything = !ownProperties && witnesses.isEmpty();
        LauncherDiscoveryRequest request = request(everything ? List.of() : selected);
        Launcher launcher = LauncherFactory.create();
        long planned = launcher.discover(request).countTestIdentifiers(TestIdentifier::isTest);
        RunLedger.reset();
        long start = System.nanoTime();
        launcher.execute(request);
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new Result(params.get("ndk.tck.provider"), everything ? List.of() : List.copyOf(selected), planned,
                RunLedger.properties(), RunLedger.advisories(), millis);
    }

    /**
     * The outcome of one run.
     *
     * @param provider   the provider's name
     * @param selection  the tags selected, empty when every property ran
     * @param planned    how many properties the selection holds
     * @param properties the ledger's records, in execution order
     * @param advisories SHOULD-level findings
     * @param millis     wall time of the run
     */
    public record Result(String provider, List<String> selection, long planned, List<RunLedger.PropertyRecord> properties,
                  List<RunLedger.Advisory> advisories, long millis) {

        static Set<String> charged(RunLedger.PropertyRecord r) {
            Set<String> named = Failures.violatedRules(r.failure());
            return named.isEmpty() ? new LinkedHashSet<>(r.ruleIds()) : named;
        }

        /** @return every rule charged with a failure */
        public Set<String> failedRules() {
            Set<String> out = new TreeSet<>();
            for (RunLedger.PropertyRecord r : failed()) {
                out.addAll(charged(r));
            }
            return out;
        }

        /** @return the properties that failed */
        List<RunLedger.PropertyRecord> failed() {
            return properties.stream().filter(r -> r.status().equals("FAILED")).toList();
        }

        /**
         * @param ruleId a rule
         * @return the first failed property charged to it, or null
         */
        public RunLedger.PropertyRecord firstFailureOf(String ruleId) {
            return failed().stream().filter(r -> charged(r).contains(ruleId)).findFirst().orElse(null);
        }

        /** @return a readable account: one line per property, failures with their first message lines */
        public String describe() {
            StringBuilder b = new StringBuilder(provider + ": " + properties.size() + " properties in " + millis + " ms"
                    + (selection.isEmpty() ? " (every property)" : " (tags " + selection + ")") + "\n");
            for (RunLedger.PropertyRecord r : properties) {
                b.append("  ").append(r.status()).append(' ').append(r.property()).append(' ').append(r.ruleIds())
                        .append(" tries=").append(r.tries()).append(' ').append(r.durationMillis()).append(" ms");
                if (r.status().equals("FAILED")) {
                    b.append(" charged=").append(charged(r)).append("\n      ").append(firstLines(r.message(), 4));
                    if (r.failure() != null) {
                        for (Throwable sup : r.failure().getSuppressed()) {
                            b.append("\n      suppressed: ").append(firstLines(String.valueOf(sup.getMessage()), 3));
                        }
                    }
                }
                b.append('\n');
            }
            return b.toString();
        }

        private static String firstLines(String s, int n) {
            String[] lines = String.valueOf(s).split("\n");
            return String.join("\n      ", java.util.Arrays.asList(lines).subList(0, Math.min(n, lines.length)));
        }
    }
}
