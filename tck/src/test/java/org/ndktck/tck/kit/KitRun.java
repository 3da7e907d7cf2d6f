package org.ndktck.tck.kit;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.runner.Catches;
import org.ndktck.tck.runner.Failures;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

/**
 * The kit's in-process test runner: runs kit properties against one provider through the JUnit Platform
 * Launcher, the way the runner and a provider's own build do, and summarizes the {@link RunLedger}: which
 * rules failed.
 *
 * <p>What runs: the classes of {@link #classes} and packages of {@link #packages}, or, when none is given,
 * every property of {@value #KIT_PACKAGE}. {@link #tags} filters by tag; {@link #rules} filters by tag too,
 * but a rule without a property of its own (a rule the harness checks in passing) selects the
 * {@link #witnesses}, or every property when there are none, as {@code selftest} does.
 *
 * <p>How a failure is charged ({@link Result#failedRules()}, used to require that nothing failed, or nothing
 * but the fault's rule): with {@link Preset#KIT} to the rule of a {@link RuleViolation} thrown as the
 * failure itself; with the other presets to every rule a RuleViolation in it names (itself, causes,
 * suppressed; the runner's {@link Failures#violatedRules}). A failure that names no rule is charged to the
 * property's own rules.
 *
 * <p>A charge is not a catch. A fault is caught ({@link Result#catchOf}, {@link Result#assertCaught}) only
 * when a property's first failure is a RuleViolation of the fault's rule, as {@code selftest} counts it
 * ({@link Catches}): a crash, a time bound, a coverage or generator error, a set-up error, a violation of
 * another rule, or one buried as a cause or suppressed exception, is no catch under any preset.
 */
public final class KitRun {
    /** The package of the kit's properties. */
    public static final String KIT_PACKAGE = "org.ndktck.tck.properties";

    /** The defaults of a run: tries, jqwik database, shrinking, how failures are charged. */
    public enum Preset {
        /** Seed-page tests: 100 tries, no shrinking, a failure charged to its top-level RuleViolation only. */
        KIT("100", "target/jqwik-kit-db", false, Map.of("jqwik.reporting.usejunitplatform", "true", "jqwik.shrinking.default", "OFF")),
        /** Section tests: 100 tries, shrinking bounded to 2 s. */
        SECTIONS("100", "target/jqwik-sections-db", true, Map.of("jqwik.shrinking.bounded.seconds", "2")),
        /** Fault-catalogue tests: 20 tries, shrinking bounded to 1 s. */
        FAULTS("20", "target/jqwik-faults-db", true, Map.of("jqwik.shrinking.bounded.seconds", "1"));

        final String tries;
        final String database;
        final boolean chargesNestedViolations;
        final Map<String, String> extra;

        Preset(String tries, String database, boolean chargesNestedViolations, Map<String, String> extra) {
            this.tries = tries;
            this.database = database;
            this.chargesNestedViolations = chargesNestedViolations;
            this.extra = extra;
        }
    }

    private final Preset preset;
    private final Map<String, String> params = new LinkedHashMap<>();
    private final List<DiscoverySelector> selectors = new ArrayList<>();
    private final List<String> tags = new ArrayList<>();
    private final List<String> rules = new ArrayList<>();
    private final List<String> witnesses = new ArrayList<>();

    private KitRun(String provider, Preset preset) {
        this.preset = preset;
        params.put("ndk.tck.provider", provider);
        params.put("ndk.tck.tries", preset.tries);
        // one database per Surefire fork (the build runs the kit's tests in two JVMs at once): no fork reads what another writes
        params.put("jqwik.database", preset.database + System.getProperty("ndk.test.fork", ""));
        params.put("jqwik.reporting.onlyfailures", "true");
        // jqwik's statistics blocks go to the JUnit Platform, not the build's console, unless the build asks for them
        // (mvn verify -Djqwik.reporting.usejunitplatform=false)
        params.put("jqwik.reporting.usejunitplatform", System.getProperty("jqwik.reporting.usejunitplatform", "true"));
        params.putAll(new java.util.TreeMap<>(preset.extra));
    }

    /**
     * @param provider a provider short name or class name
     * @return a run with the {@link Preset#KIT} defaults
     */
    public static KitRun against(String provider) {
        return new KitRun(provider, Preset.KIT);
    }

    /**
     * @param provider a provider short name or class name
     * @param preset   the run's defaults
     * @return a run
     */
    public static KitRun against(String provider, Preset preset) {
        return new KitRun(provider, preset);
    }

    /** Sets the provider setting {@code key=value} ({@code ndk.tck.set.KEY}). */
    public KitRun set(String key, String value) {
        params.put("ndk.tck.set." + key, value);
        return this;
    }

    /** Sets a configuration parameter. */
    public KitRun param(String key, String value) {
        params.put(key, value);
        return this;
    }

    /** Tries per property. */
    public KitRun tries(int tries) {
        return param("ndk.tck.tries", Integer.toString(tries));
    }

    /** Multiplies every time bound of the kit. */
    public KitRun timeoutFactor(double factor) {
        return param("ndk.tck.timeoutFactor", Double.toString(factor));
    }

    /** Runs these property classes. */
    public KitRun classes(Class<?>... classes) {
        for (Class<?> c : classes) {
            selectors.add(selectClass(c));
        }
        return this;
    }

    /** Runs the properties of these packages. */
    public KitRun packages(String... names) {
        for (String n : names) {
            selectors.add(selectPackage(n));
        }
        return this;
    }

    /** Runs only the properties tagged with one of these rule IDs. */
    public KitRun tags(String... ruleIds) {
        tags.addAll(List.of(ruleIds));
        return this;
    }

    /**
     * Selects the properties tagged with any of {@code ruleIds}; when some rule has no property of its own, the
     * {@link #witnesses} instead, or every property when there are none.
     */
    public KitRun rules(String... ruleIds) {
        rules.addAll(List.of(ruleIds));
        return this;
    }

    /**
     * Properties to run instead of every property when some rule of {@link #rules} has no property of its own
     * (a rule the harness checks in passing): the tags of properties known to make the calls the fault
     * disturbs.
     */
    public KitRun witnesses(String... ruleIds) {
        witnesses.addAll(List.of(ruleIds));
        return this;
    }

    private LauncherDiscoveryRequest request(List<String> withTags) {
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors.isEmpty() ? List.of(selectPackage(KIT_PACKAGE)) : selectors)
                // the kit's properties are jqwik's; a JUnit test of the build in the same package (one that checks the
                // properties' sources) is no property of the run
                .filters(org.junit.platform.launcher.EngineFilter.includeEngines("jqwik"))
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

    /** @return the outcome of the run */
    public Result run() {
        List<String> selected = new ArrayList<>(tags);
        boolean everything = false;
        if (!rules.isEmpty()) {
            List<String> own = rules.stream().filter(t -> propertiesOf(t) > 0).toList();
            if (own.size() == rules.size()) {
                selected.addAll(own);
            } else if (!witnesses.isEmpty()) {
                selected.addAll(own);
                selected.addAll(witnesses);
            } else {
                everything = true;
            }
        }
        List<String> filter = everything ? List.of() : List.copyOf(selected);
        LauncherDiscoveryRequest request = request(filter);
        Launcher launcher = LauncherFactory.create();
        long planned = launcher.discover(request).countTestIdentifiers(TestIdentifier::isTest);
        RunLedger.reset();
        PlatformEvents events = new PlatformEvents();
        long start = System.nanoTime();
        launcher.execute(request, events);
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new Result(params.get("ndk.tck.provider"), filter, planned, preset.chargesNestedViolations,
                RunLedger.properties(), RunLedger.advisories(), millis, List.copyOf(events.lines));
    }

    /**
     * What the JUnit Platform itself saw of each property (its status, its skip reason or first failure line), so a
     * run whose ledger lacks a property says what happened to it instead of only "empty".
     */
    private static final class PlatformEvents implements org.junit.platform.launcher.TestExecutionListener {
        final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            if (id.isTest()) {
                lines.add("SKIPPED " + id.getDisplayName() + ": " + reason);
            }
        }

        @Override
        public void executionFinished(TestIdentifier id, org.junit.platform.engine.TestExecutionResult result) {
            if (id.isTest() || result.getStatus() != org.junit.platform.engine.TestExecutionResult.Status.SUCCESSFUL) {
                lines.add(result.getStatus() + " " + id.getUniqueId() + result.getThrowable()
                        .map(t -> ": " + t + (t.getStackTrace().length > 0 ? " at " + t.getStackTrace()[0] : "")).orElse(""));
            }
        }
    }

    /**
     * The outcome of one run.
     *
     * @param provider                the provider's name
     * @param selection               the tags selected, empty when no tag filter was applied
     * @param planned                 how many properties the selection holds
     * @param chargesNestedViolations whether a failure is charged to every RuleViolation in it, not only itself
     * @param properties              the ledger's records, in execution order
     * @param advisories              SHOULD-level findings
     * @param millis                  wall time of the run, in milliseconds
     * @param platform                what the JUnit Platform reported of each property (status and cause), in order
     */
    public record Result(String provider, List<String> selection, long planned, boolean chargesNestedViolations,
                         List<RunLedger.PropertyRecord> properties, List<RunLedger.Advisory> advisories, long millis,
                         List<String> platform) {

        /** @return the rules a failed property is charged with */
        public Set<String> chargedRules(RunLedger.PropertyRecord r) {
            Throwable f = r.failure();
            if (chargesNestedViolations) {
                Set<String> named = Failures.violatedRules(f);
                return named.isEmpty() ? new LinkedHashSet<>(r.ruleIds()) : named;
            }
            return f instanceof RuleViolation v ? Set.of(v.ruleId()) : new LinkedHashSet<>(r.ruleIds());
        }

        /** @return every rule charged with a failure */
        public Set<String> failedRules() {
            Set<String> out = new TreeSet<>();
            for (RunLedger.PropertyRecord r : failed()) {
                out.addAll(chargedRules(r));
            }
            return out;
        }

        /**
         * @return the rules of {@link #failedRules()} that the run reports FAIL: without those whose finding is
         *     ADVISORY because the rule is a kit interpretation that guards nothing the catalog names
         *     ({@code Verdicts.kitInterpretationOnly}), unless the failure says memory was exposed
         */
        public Set<String> failRules() {
            org.ndktck.spec.rules.RuleCatalog catalog = org.ndktck.spec.rules.RuleCatalog.standard();
            Set<String> out = new TreeSet<>();
            for (RunLedger.PropertyRecord r : failed()) {
                boolean exposed = String.valueOf(r.message()).contains(org.ndktck.tck.runner.Verdicts.MEMORY_EXPOSED);
                for (String id : chargedRules(r)) {
                    if (exposed || !org.ndktck.tck.runner.Verdicts.kitInterpretationOnly(catalog.find(id).orElse(null))) {
                        out.add(id);
                    }
                }
            }
            return out;
        }

        /** @return the properties that failed */
        public List<RunLedger.PropertyRecord> failed() {
            return properties.stream().filter(r -> r.status().equals("FAILED")).toList();
        }

        /** @return the properties that passed */
        public List<RunLedger.PropertyRecord> passed() {
            return properties.stream().filter(r -> r.status().equals("SUCCESSFUL")).toList();
        }

        /** @return the properties that were skipped, with their reason */
        public List<RunLedger.PropertyRecord> skipped() {
            return properties.stream().filter(r -> r.status().equals("SKIPPED")).toList();
        }

        /**
         * @param r a property's record
         * @return what its first failure was, or null when it did not fail
         */
        public static Catches.FirstFailure firstFailure(RunLedger.PropertyRecord r) {
            return Catches.of(r.status(), r.failure());
        }

        /**
         * @param ruleId a rule
         * @return the first property whose first failure is a violation of that rule (the fault of that rule is
         *     caught), or null
         */
        public RunLedger.PropertyRecord catchOf(String ruleId) {
            return failed().stream().filter(r -> firstFailure(r).catches(ruleId)).findFirst().orElse(null);
        }

        /**
         * @param ruleId a fault's rule
         * @return {@code caught by P}, {@code failed for another reason: P failed first with ...} (the rule's own
         *     properties first, then any), or {@code not caught}
         */
        public String outcomeFor(String ruleId) {
            RunLedger.PropertyRecord c = catchOf(ruleId);
            if (c != null) {
                return "caught by " + c.property();
            }
            RunLedger.PropertyRecord f = failed().stream()
                    .filter(r -> r.ruleIds().contains(ruleId) || Failures.violatedRules(r.failure()).contains(ruleId))
                    .findFirst().orElse(failed().stream().findFirst().orElse(null));
            return f == null ? "not caught" : "failed for another reason: " + f.property() + " failed first with "
                    + firstFailure(f).describe();
        }

        /**
         * Requires the fault of {@code ruleId} caught: some property's first failure is a violation of it.
         *
         * @param ruleId the fault's rule
         */
        public void assertCaught(String ruleId) {
            if (catchOf(ruleId) == null) {
                throw new AssertionError(ruleId + " not caught: " + outcomeFor(ruleId) + "\n" + describe());
            }
        }

        /**
         * The provider-checked rules (catalog {@code PROVIDER_PROPERTY}) of the passing properties whose checks never ran:
         * each of its passing properties counted 0 tries whose check of the rule reached an outcome ({@code checksRun}).
         * Rules charged with a failure are left out (a FAIL is a judgement).
         *
         * @return rule ID to the reason its properties gave (or "no try reached the rule's check"; for a rule whose
         *     properties all ended without a verdict, aborted or timed out, the first one's status and message), in
         *     rule order
         */
        public Map<String, String> unjudged() {
            Map<String, Long> sum = new java.util.TreeMap<>();
            Map<String, String> why = new LinkedHashMap<>();
            for (RunLedger.PropertyRecord r : properties) {
                boolean passedProperty = r.status().equals("SUCCESSFUL");
                // a property that ended with no verdict (aborted: too few judged tries, an unreachable claim; timed
                // out) judged nothing: a rule all of whose properties ended so ran no check either
                boolean noVerdict = !passedProperty && !r.status().equals("FAILED") && !r.status().equals("SKIPPED");
                if (!passedProperty && !noVerdict) {
                    continue;
                }
                for (String rule : r.ruleIds()) {
                    boolean providerChecked = org.ndktck.spec.rules.RuleCatalog.standard().find(rule)
                            .map(x -> x.check() == org.ndktck.spec.rules.Check.PROVIDER_PROPERTY).orElse(false);
                    if (!providerChecked) {
                        continue;
                    }
                    long n = noVerdict ? 0 : r.checksRun() == null ? r.checks() : r.checksRun().of(rule);
                    sum.merge(rule, n, Long::sum);
                    String w = noVerdict ? "its property " + r.property() + " ended " + r.status() + ": " + firstLines(r.message(), 1)
                            : r.checksRun() == null ? null : r.checksRun().whyNot(rule);
                    if (w != null) {
                        why.putIfAbsent(rule, w);
                    }
                }
            }
            Set<String> failedRules = failedRules();
            Map<String, String> out = new LinkedHashMap<>();
            sum.forEach((rule, n) -> {
                if (n == 0 && !failedRules.contains(rule)) {
                    out.put(rule, why.getOrDefault(rule, "no try reached the rule's check"));
                }
            });
            return out;
        }

        /**
         * Requires judgement, not merely no FAIL: every provider-checked rule of the run's properties ran checks
         * ({@link #unjudged()} is empty; a rule whose properties all ended without a verdict counts as unjudged), except
         * a rule {@code allowed} names whose reason starts with the documented text given for it (the adapter limit or
         * behaviour this provider does not reach; see {@link Unjudged}), and a rule left UNTESTED because every
         * discarded try of its property was an allowed refusal for lack of resources ({@link #everyDiscardARefusal}).
         *
         * @param allowed rule ID to the start of the only reason accepted for it
         */
        public void assertJudged(Map<String, String> allowed) {
            Map<String, String> left = new LinkedHashMap<>();
            unjudged().forEach((rule, why) -> {
                String ok = allowed.get(rule);
                if ((ok == null || !why.startsWith(ok)) && !everyDiscardARefusal(why)) {
                    left.put(rule, why);
                }
            });
            if (!left.isEmpty()) {
                throw new AssertionError("rules passed without a check of them reaching an outcome: " + left + "\n" + describe());
            }
        }

        /** "N discarded, M of them because the provider refused a call for lack of resources" in a floor's reason. */
        private static final java.util.regex.Pattern REFUSED_DISCARDS =
                java.util.regex.Pattern.compile("(\\d+) discarded, (\\d+) of them because the provider refused a call for lack of resources");

        /**
         * @param why an unjudged rule's reason
         * @return true when its property ended UNTESTED on the floor of judged tries and every discarded try was a
         *     refusal for lack of resources, which the pages allow on every call: the documented outcome for a provider
         *     that refuses that often (UNTESTED with the reason, neither PASS nor FAIL), not a check the kit skipped
         */
        static boolean everyDiscardARefusal(String why) {
            java.util.regex.Matcher m = REFUSED_DISCARDS.matcher(why);
            if (!why.contains("ended ABORTED") || !m.find() || Integer.parseInt(m.group(1)) <= 0) {
                return false;
            }
            // tries whose set-up lay past a limit the adapter advertises are the same documented outcome (UNTESTED with
            // the limit and the setting that reaches the check)
            java.util.regex.Matcher beyond = BEYOND_LIMIT_COUNT.matcher(why);
            int limited = beyond.find() ? Integer.parseInt(beyond.group(1)) : 0;
            return Integer.parseInt(m.group(1)) == Integer.parseInt(m.group(2)) + limited;
        }

        /** "; N of them because a request the kit needed lay past a limit the adapter advertises" in a floor's reason. */
        private static final java.util.regex.Pattern BEYOND_LIMIT_COUNT = java.util.regex.Pattern.compile(
                "; (\\d+)" + java.util.regex.Pattern.quote(org.ndktck.tck.harness.KitLifecycle.BEYOND_LIMIT_DISCARDS));

        /** @return a readable account: one line per property, failures with their first message lines, advisories */
        public String describe() {
            StringBuilder b = new StringBuilder(provider + ": " + properties.size() + " properties in " + millis + " ms"
                    + (selection.isEmpty() ? "" : " (tags " + selection + ")") + "\n");
            for (RunLedger.PropertyRecord r : properties) {
                b.append("  ").append(r.status()).append(' ').append(r.property()).append(' ').append(r.ruleIds())
                        .append(" tries=").append(r.tries()).append(" checks=").append(r.checks())
                        .append(" checksRun=").append(r.checksRun() == null ? "?" : r.checksRun().byRule()).append(' ')
                        .append(r.durationMillis()).append(" ms");
                if (!r.status().equals("SUCCESSFUL")) {
                    b.append("\n      charged=").append(r.status().equals("FAILED") ? chargedRules(r) : "-")
                            .append(r.status().equals("FAILED") ? " first failure=" + firstFailure(r).describe() : "").append(' ')
                            .append(firstLines(r.message(), 8));
                    if (r.failure() != null) {
                        for (Throwable sup : r.failure().getSuppressed()) {
                            b.append("\n      suppressed: ").append(firstLines(String.valueOf(sup.getMessage()), 3));
                        }
                    }
                }
                b.append('\n');
            }
            for (RunLedger.Advisory a : advisories) {
                b.append("  ADVISORY ").append(a.ruleId()).append(": ").append(firstLines(a.message(), 2)).append('\n');
            }
            return b.toString();
        }

        private static String firstLines(String s, int n) {
            String[] lines = String.valueOf(s).split("\n");
            return String.join("\n        ", Arrays.asList(lines).subList(0, Math.min(n, lines.length)));
        }
    }
}
