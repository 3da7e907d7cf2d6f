package org.ndktck.tck.runner;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.harness.ProviderUnderTest;
import org.ndktck.tck.harness.SuiteParameters;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.report.Summaries;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The kit's reports in a provider's own build (Surefire, Gradle, an IDE): a JUnit Platform
 * {@code TestExecutionListener} the kit registers as a service, which writes the same per-rule reports as
 * {@code ./ndk-tck run} ({@code report.json}, {@code report.html}, {@code junit/TEST-ndk-tck.xml}) once the kit's
 * properties of a test plan, or of one {@code @Suite} class, have run.
 *
 * <p>Where: the configuration parameter (or system property) {@value #REPORT_DIR}, by default
 * {@code target/ndk-tck-report} under the working directory (Surefire's is the module's directory); the properties
 * of a {@code @Suite} class report into a directory named after the suite class's simple name below it. It does
 * nothing in a plan where no kit property ran, nor when {@value #REPORTS} is {@code false} (the kit's own runner
 * sets that: it writes its reports itself).
 */
public final class PlatformReports implements TestExecutionListener {
    /** Configuration parameter or system property: where the reports go. */
    public static final String REPORT_DIR = "ndk.tck.reportDir";
    /** Configuration parameter or system property: {@code false} turns the reports off. */
    public static final String REPORTS = "ndk.tck.reports";
    /** The default report directory, relative to the working directory. */
    public static final String DEFAULT_DIR = "target/ndk-tck-report";

    private final Deque<Run> runs = new ArrayDeque<>();
    private TestPlan plan;

    /** The kit properties under one test plan or suite, and what is needed to judge them. */
    private static final class Run {
        final String uniqueId;
        final Path dir;
        final KitExecution.Listener listener;
        final int advisoryMark;
        final Instant startedAt = Instant.now();
        final long startNanos = System.nanoTime();
        TckConfig config;
        String setupError;
        /** The {@code ndk.tck.jobs} notice of this run, or null. */
        String jobsNotice;
        ProviderUnderTest provider;
        NdkAdapterInfo adapterInfo;

        Run(String uniqueId, Path dir, KitExecution.Listener listener) {
            this.uniqueId = uniqueId;
            this.dir = dir;
            this.listener = listener;
            this.advisoryMark = RunLedger.advisories().size();
        }
    }

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        runs.clear();
        if (!enabled(testPlan, Optional.empty())) {
            return;
        }
        Run r = newRun("", dir(testPlan, Optional.empty(), null));
        r.jobsNotice = org.ndktck.tck.harness.PlatformJobs.notice(k -> lookup(testPlan, Optional.empty(), k)).orElse(null);
        r.listener.watch(testPlan, testPlan.getRoots(), id -> suiteOf(id).isEmpty());
        runs.push(r);
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        Run target;
        synchronized (this) {
            if (plan == null) {
                return;
            }
            Optional<SuiteParameters.Declared> suite = suiteOf(id);
            if (suite.isPresent()) {
                if (!enabled(plan, suite)) {
                    return;
                }
                String name = ((ClassSource) id.getSource().get()).getJavaClass().getSimpleName();
                Run r = newRun(id.getUniqueId(), dir(plan, suite, name));
                TestPlan p = plan;
                r.jobsNotice = org.ndktck.tck.harness.PlatformJobs.notice(k -> lookup(p, suite, k)).orElse(null);
                java.util.Set<TestIdentifier> root = java.util.Set.of(id);
                r.listener.watch(plan, List.of(id), t -> root.contains(t) || suiteOf(t).isEmpty());
                runs.push(r);
                return;
            }
            target = runs.peek();
        }
        if (target != null) {
            if (target.config == null && KitDiscovery.info(id).isPresent()) {
                capture(target);
            }
            target.listener.executionStarted(id);
        }
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        Run target;
        synchronized (this) {
            target = runs.peek();
        }
        if (target != null) {
            target.listener.executionSkipped(id, reason);
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        Run done = null;
        Run target;
        synchronized (this) {
            target = runs.peek();
            if (target != null && !target.uniqueId.isEmpty() && target.uniqueId.equals(id.getUniqueId())) {
                done = runs.pop();
            }
        }
        if (done != null) {
            write(done);
        } else if (target != null) {
            target.listener.executionFinished(id, result);
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        List<Run> left;
        synchronized (this) {
            left = new ArrayList<>(runs);
            runs.clear();
            plan = null;
        }
        left.forEach(this::write);
    }

    private static Run newRun(String uniqueId, Path dir) {
        KitExecution.Request req = new KitExecution.Request(KitDiscovery.KIT_PACKAGE, null, Map.of(), Set.of(), List.of(),
                0, 0, null, new KitExecution.Progress() {
        });
        return new Run(uniqueId, dir, new KitExecution.Listener(req, System.nanoTime()));
    }

    /** Reads the run's configuration and provider when its first property starts (the kit's own listener has set them). */
    private static void capture(Run r) {
        try {
            r.config = TckConfig.current();
        } catch (RuntimeException e) {
            r.setupError = e.getMessage();
            return;
        }
        Optional<String> err = ProviderUnderTest.setupError();
        if (err.isPresent()) {
            r.setupError = err.get();
            return;
        }
        try {
            r.provider = ProviderUnderTest.get();
            r.adapterInfo = r.provider.adapterInfo();
        } catch (RuntimeException e) {
            r.setupError = e.getMessage();
        }
    }

    private void write(Run r) {
        List<PropertyOutcome> outcomes = new ArrayList<>(r.listener.snapshot().values());
        if (outcomes.isEmpty()) {
            return; // no kit property ran here
        }
        try {
            RunReport report = report(r, outcomes);
            ReportWriter.write(report, r.dir, true);
            MavenRouteSummary.lines(report, r.dir).forEach(System.out::println);
        } catch (Exception | LinkageError e) {
            System.err.println("ndk-tck: could not write the kit's report to " + r.dir + ": " + e.getMessage());
        }
    }

    /**
     * @return the directory or jar the provider's class came from, for the replay's {@code --provider-jar}: the build's
     *     own classes ({@code target/classes}); empty for a provider of the kit's own jars ({@code org.ndktck.*}), which
     *     {@code ./ndk-tck} has already, or when the location is not a file
     */
    private static List<java.nio.file.Path> providerJars(Run r) {
        if (r.provider == null) {
            return List.of();
        }
        Class<?> type = r.provider.provider().getClass();
        if (type.getName().startsWith("org.ndktck.")) {
            return List.of();
        }
        try {
            java.security.CodeSource src = type.getProtectionDomain().getCodeSource();
            if (src == null || src.getLocation() == null || !"file".equals(src.getLocation().getProtocol())) {
                return List.of();
            }
            return List.of(java.nio.file.Path.of(src.getLocation().toURI()));
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return List.of();
        }
    }

    private static RunReport report(Run r, List<PropertyOutcome> outcomes) {
        RuleCatalog catalog = RuleCatalog.standard();
        List<PropertyInfo> watched = r.listener.watched();
        Map<String, List<PropertyInfo>> byRule = KitDiscovery.byRule(watched);
        Set<String> selected = new LinkedHashSet<>(byRule.keySet());
        if (runsEveryProperty(watched)) {
            // the whole kit ran (no tag or class filter): every rule is selected, as in ./ndk-tck run without --rules
            catalog.rules().forEach(rule -> selected.add(rule.id()));
        }
        List<RunLedger.Advisory> all = RunLedger.advisories();
        List<RunLedger.Advisory> advisories = all.subList(Math.min(r.advisoryMark, all.size()), all.size());
        TckConfig c = r.config != null ? r.config
                : new TckConfig("?", Map.of(), 0, false, TckConfig.Profile.STANDARD, Optional.empty(), 1.0);
        String profile = c.profile().name().toLowerCase(Locale.ROOT);
        Integer tries = c.tries().orElse(null);
        List<java.nio.file.Path> jars = providerJars(r);
        java.util.function.Function<String, String> replay = rules -> Replay.command(c.provider(), jars, c.settings(),
                profile, tries, c.timeoutFactor(), KitDiscovery.KIT_PACKAGE, rules, c.seed());
        NdkAdapterInfo info = r.adapterInfo;
        List<RunReport.RuleReport> rules = Verdicts.compute(catalog, selected, Map.of(), byRule, outcomes, advisories,
                replay, rule -> info == null ? Optional.empty() : org.ndktck.tck.harness.Capabilities.missing(rule.requires(), info));
        long triesSum = outcomes.stream().mapToLong(PropertyOutcome::tries).sum();
        long propMillis = outcomes.stream().mapToLong(PropertyOutcome::durationMillis).sum();
        List<RunReport.PropertyReport> props = outcomes.stream().map(o -> new RunReport.PropertyReport(
                o.property().propertyId(), new ArrayList<>(o.property().ruleIds()), o.status(), o.tries(), o.checks(),
                o.seed(), o.durationMillis(), blankToNull(o.message()), blankToNull(o.counterexample()),
                new ArrayList<>(Failures.violatedRules(o.failure())), o.finishedAtMillis(),
                Optional.ofNullable(Catches.of(o)).map(Catches.FirstFailure::describe).orElse(null),
                Optional.ofNullable(Catches.of(o)).map(Catches.FirstFailure::rule).orElse(null),
                o.checksRun() == null ? null : o.checksRun().byRule(),
                o.checksRun() == null ? null : o.checksRun().notReached(),
                o.checksRun() == null ? null : o.checksRun().modelPairs())).toList();
        Map<String, String> settings = new java.util.TreeMap<>(c.settings());
        String className = null;
        String description = null;
        Map<String, Object> adapter = Map.of();
        if (r.provider != null) {
            className = r.provider.provider().getClass().getName();
            description = r.provider.provider().description();
            try {
                r.provider.factory().effectiveSettings().forEach(settings::putIfAbsent);
            } catch (RuntimeException e) {
                // the settings as given
            }
            if (info != null) {
                Map<String, Object> m = new LinkedHashMap<>(AdapterInfoView.toMap(info));
                m.put("pageSize", Integer.toUnsignedLong(r.provider.pageSize()));
                adapter = m;
            }
        }
        List<String> notes = new ArrayList<>();
        if (r.setupError != null) {
            notes.add(SetupErrorReport.NOTE + r.setupError);
        }
        if (r.jobsNotice != null) {
            notes.add(r.jobsNotice.substring("ndk-tck: ".length()));
        }
        notes.add("written by the kit's JUnit Platform listener in the provider's own build; each rule's replay is the "
                + "equivalent ./ndk-tck command, run from the kit's checkout (its --provider-jar is the provider's own classes; "
                + "add the jars they depend on), or replay in this build: the whole run with -D" + TckConfig.SEED + "=" + c.seed()
                + ", one rule with -D" + TckConfig.SEED + "=" + c.seed() + " -Dgroups=RULE");
        int exit = r.setupError != null ? NdkTckCommand.USAGE : Summaries.exitCode(rules, false);
        RunReport.Provider prov = new RunReport.Provider(c.provider(), className, description, List.of(), settings,
                new java.util.TreeMap<>(c.settings()), adapter, r.setupError);
        return new RunReport(RunReport.FORMAT, new RunReport.Kit(KitVersion.get(), catalog.rules().size(), KitDiscovery.KIT_PACKAGE),
                prov, c.seed(), c.seedGiven(), profile, tries, c.timeoutFactor(), false, null, null, List.of(),
                r.startedAt.toString(), (System.nanoTime() - r.startNanos) / 1_000_000, Summaries.rate(triesSum, propMillis),
                Summaries.summarize(rules, triesSum, propMillis), List.of(), notes, replay.apply(null), exit, rules, props);
    }

    private static boolean runsEveryProperty(List<PropertyInfo> watched) {
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            List<PropertyInfo> kit = KitDiscovery.discover(KitDiscovery.KIT_PACKAGE,
                    loader != null ? loader : PlatformReports.class.getClassLoader(), Map.of());
            Set<String> ran = new java.util.HashSet<>();
            watched.forEach(p -> ran.add(p.propertyId()));
            return !kit.isEmpty() && kit.stream().allMatch(p -> ran.contains(p.propertyId()));
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static boolean enabled(TestPlan plan, Optional<SuiteParameters.Declared> suite) {
        return !lookup(plan, suite, REPORTS).map(v -> v.trim().equalsIgnoreCase("false")).orElse(false);
    }

    private static Path dir(TestPlan plan, Optional<SuiteParameters.Declared> suite, String suiteName) {
        Path base = Path.of(lookup(plan, Optional.empty(), REPORT_DIR).orElse(DEFAULT_DIR));
        if (suite.isPresent()) {
            Optional<String> own = Optional.ofNullable(suite.get().parameters().get(REPORT_DIR));
            return own.map(Path::of).orElse(base.resolve(suiteName));
        }
        return base;
    }

    private static Optional<String> lookup(TestPlan plan, Optional<SuiteParameters.Declared> suite, String key) {
        if (suite.isPresent() && suite.get().parameters().containsKey(key)) {
            return Optional.of(suite.get().parameters().get(key));
        }
        Optional<String> v = plan.getConfigurationParameters().get(key);
        return v.isPresent() ? v : Optional.ofNullable(System.getProperty(key));
    }

    private static Optional<SuiteParameters.Declared> suiteOf(TestIdentifier id) {
        if (id.getSource().isEmpty() || !(id.getSource().get() instanceof ClassSource cs)) {
            return Optional.empty();
        }
        try {
            return SuiteParameters.of(cs.getJavaClass());
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
