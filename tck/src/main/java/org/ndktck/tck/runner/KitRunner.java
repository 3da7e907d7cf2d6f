package org.ndktck.tck.runner;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.harness.ProviderUnderTest;
import org.ndktck.tck.harness.SettingKeys;
import org.ndktck.tck.harness.PropertyClaims;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.TimeBudget;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One kit run from the command line: {@link #prepare} validates everything that can be wrong before
 * anything runs (provider, jars, settings, rule patterns, shard, exclusions, report directory; each a
 * {@link UsageException}), then {@link Prepared#execute} runs the selected properties and always writes
 * the report, even when the run breaks down.
 */
public final class KitRunner {
    /** System property: the running CLI run's report directory, for providers that write files the report names. */
    public static final String RUN_REPORT_DIR = "ndk.tck.runReportDir";

    private KitRunner() {
    }

    /**
     * Options of {@code run} (see {@code ./ndk-tck run --help}).
     *
     * @param provider              provider short name or class name
     * @param providerJars          jars or class directories of the provider and its dependencies
     * @param settings              provider settings as given, in order
     * @param rules                 comma-separated IDs or globs, or null for every rule
     * @param profile               smoke, standard or deep
     * @param tries                 tries per property overriding the profile, or null
     * @param seed                  the run seed, or null for a random one
     * @param timeoutFactor         multiplies every time bound, &gt; 0
     * @param strict                whether ADVISORY fails the run
     * @param exclusions            exclusions file, or null
     * @param shard                 the shard to run, or null
     * @param reportDir             where reports go
     * @param kitPackage            the package of properties to run
     * @param propertyTimeoutMillis the bound of one property, or null for the default
     * @param today                 the date exclusions are judged against
     * @param timeBudgetMillis      the time budget of the whole run ({@code --time-budget}, {@link TimeBudget}), in
     *                              milliseconds, or null for none
     */
    public record Options(String provider, List<Path> providerJars, Map<String, String> settings, String rules,
                          TckConfig.Profile profile, Integer tries, Long seed, double timeoutFactor, boolean strict,
                          Path exclusions, Shard shard, Path reportDir, String kitPackage, Long propertyTimeoutMillis,
                          LocalDate today, Long timeBudgetMillis) {
        /**
         * Options without a time budget (as before {@code --time-budget} was added).
         *
         * @param provider              provider short name or class name
         * @param providerJars          jars or class directories of the provider and its dependencies
         * @param settings              provider settings as given, in order
         * @param rules                 comma-separated IDs or globs, or null for every rule
         * @param profile               smoke, standard or deep
         * @param tries                 tries per property overriding the profile, or null
         * @param seed                  the run seed, or null for a random one
         * @param timeoutFactor         multiplies every time bound, &gt; 0
         * @param strict                whether ADVISORY fails the run
         * @param exclusions            exclusions file, or null
         * @param shard                 the shard to run, or null
         * @param reportDir             where reports go
         * @param kitPackage            the package of properties to run
         * @param propertyTimeoutMillis the bound of one property, or null for the default
         * @param today                 the date exclusions are judged against
         */
        public Options(String provider, List<Path> providerJars, Map<String, String> settings, String rules,
                       TckConfig.Profile profile, Integer tries, Long seed, double timeoutFactor, boolean strict,
                       Path exclusions, Shard shard, Path reportDir, String kitPackage, Long propertyTimeoutMillis,
                       LocalDate today) {
            this(provider, providerJars, settings, rules, profile, tries, seed, timeoutFactor, strict, exclusions, shard,
                    reportDir, kitPackage, propertyTimeoutMillis, today, null);
        }

        /** Copies collections, fills defaults. */
        public Options {
            providerJars = providerJars == null ? List.of() : List.copyOf(providerJars);
            settings = settings == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
            profile = profile == null ? TckConfig.Profile.STANDARD : profile;
            kitPackage = kitPackage == null || kitPackage.isBlank() ? KitDiscovery.KIT_PACKAGE : kitPackage;
            today = today == null ? LocalDate.now() : today;
            if (timeoutFactor <= 0 || Double.isNaN(timeoutFactor) || Double.isInfinite(timeoutFactor)) {
                throw new UsageException("bad --timeout-factor " + timeoutFactor + ": must be a positive number",
                        "use e.g. --timeout-factor 2 on a slow machine");
            }
            if (tries != null && tries < 1) {
                throw new UsageException("bad --tries " + tries + ": must be at least 1", "use e.g. --tries 100");
            }
            if (timeBudgetMillis != null && timeBudgetMillis < 1000) {
                throw new UsageException("bad --time-budget " + timeBudgetMillis / 1000.0 + ": must be at least 1 second",
                        "use e.g. --time-budget 60 for a run of at most a minute");
            }
        }
    }

    /**
     * Validates the options and prepares the run: nothing of the kit has run yet.
     *
     * @param o the options
     * @return the prepared run
     * @throws UsageException for anything the user must fix (exit 2)
     */
    public static Prepared prepare(Options o) {
        // where a provider puts files the report names (the native bridge's crash logs of its host processes)
        System.setProperty(RUN_REPORT_DIR, o.reportDir().toAbsolutePath().toString());
        ClassLoader loader = ProviderLoader.classLoader(o.providerJars());
        long seed = o.seed() != null ? o.seed() : TckConfig.randomSeed();
        o.settings().keySet().forEach(SettingKeys::register);
        TckConfig config = new TckConfig(o.provider(), new TreeMap<>(o.settings()), seed, o.seed() != null, o.profile(),
                Optional.ofNullable(o.tries()), o.timeoutFactor());
        NdkProvider provider;
        ProviderUnderTest put;
        ProviderLoader.AdapterInfoResult info;
        try {
            provider = ProviderLoader.find(o.provider(), loader);
            put = ProviderLoader.open(config, loader);
            info = ProviderLoader.adapterInfo(put, loader, config.scaled(5000));
            if (info.info() == null && !info.timedOut()) {
                // no adapter could be opened or queried: nothing of the kit can run (a hang is judged by GEN-TIME-1)
                throw new UsageException("setup error: " + info.error(),
                        "the provider's openAdapter and NdkQueryAdapterInfo must work before any rule can be checked");
            }
        } catch (UsageException e) {
            SetupErrorReport.write(o, seed, e);
            throw e;
        }

        RuleCatalog catalog = RuleCatalog.standard();
        List<String> ids = catalog.rules().stream().map(Rule::id).toList();
        Set<String> patternSelected = select(catalog, o.rules());
        Exclusions exclusions = o.exclusions() == null ? Exclusions.NONE : Exclusions.read(o.exclusions(), ids);

        if (Files.exists(o.reportDir()) && !Files.isDirectory(o.reportDir())) {
            throw new UsageException("--report-dir " + o.reportDir() + " is a file, not a directory",
                    "name a directory (it is created when missing)");
        }
        try {
            Files.createDirectories(o.reportDir());
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot create report directory " + o.reportDir() + ": " + e.getMessage(),
                    "choose a writable --report-dir");
        }
        if (!Files.isWritable(o.reportDir())) {
            throw new UsageException("report directory " + o.reportDir() + " is not writable", "choose a writable --report-dir");
        }

        Map<String, String> params = parameters(o, seed);
        List<PropertyInfo> all;
        try {
            all = KitDiscovery.discover(o.kitPackage(), loader, params);
        } catch (RuntimeException | LinkageError e) {
            throw new UsageException("cannot discover the kit's properties in " + o.kitPackage() + ": " + e,
                    "check --provider-jar entries for conflicting JUnit or jqwik versions");
        }
        Map<String, List<PropertyInfo>> byRule = KitDiscovery.byRule(all);
        Set<String> selected = o.shard() == null ? patternSelected
                : o.shard().select(new ArrayList<>(patternSelected), byRule.keySet());
        Map<String, Exclusions.Entry> excluded = new LinkedHashMap<>();
        exclusions.inForce(ids, o.today()).forEach((id, e) -> {
            if (selected.contains(id)) {
                excluded.put(id, e);
            }
        });
        Set<String> runRules = new LinkedHashSet<>();
        for (String id : selected) {
            if (!excluded.containsKey(id) && byRule.containsKey(id)) {
                runRules.add(id);
            }
        }
        List<PropertyInfo> planned = all.stream().filter(p -> p.ruleIds().stream().anyMatch(runRules::contains)).toList();
        Prepared prepared = new Prepared(o, loader, provider, put, config, catalog, all, byRule, selected, excluded,
                exclusions, runRules, planned, params, seed);
        prepared.adapterInfo = info;
        return prepared;
    }

    /**
     * @param catalog  the catalog
     * @param patterns {@code --rules} value, or null for every rule
     * @return the selected IDs in catalog order
     * @throws UsageException when an entry matches no rule (naming the closest IDs)
     */
    static Set<String> select(RuleCatalog catalog, String patterns) {
        if (patterns == null) {
            return new LinkedHashSet<>(catalog.rules().stream().map(Rule::id).toList());
        }
        try {
            return new LinkedHashSet<>(catalog.matching(patterns).stream().map(Rule::id).toList());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), "./ndk-tck rules lists every rule ID; globs such as MR-FR-* work");
        }
    }

    /**
     * How long jqwik may shrink one failing property's counterexample, in seconds at timeout factor 1. Kit properties
     * do not use it: they shrink FULL, ended by the kit's step budget (KitLifecycle.SHRINK_STEPS), which, unlike a time
     * bound, ends at the same counterexample in every run with the same seed, busy machine or not; it stays for any
     * other jqwik property in the run.
     */
    static final double SHRINKING_SECONDS = 6;

    /**
     * jqwik's own log (java.util.logging, logger {@code net.jqwik}) speaks to property authors, e.g. "Shrinking
     * timeout reached ... use @Property(shrinking = ShrinkingMode.FULL)", advice a CLI user cannot act on: the
     * runner keeps only its SEVERE records. Held here so the setting is not collected with the logger.
     */
    private static final java.util.logging.Logger JQWIK_LOG = java.util.logging.Logger.getLogger("net.jqwik");

    private static Map<String, String> parameters(Options o, long seed) {
        JQWIK_LOG.setLevel(java.util.logging.Level.SEVERE);
        Map<String, String> p = new LinkedHashMap<>();
        p.put(TckConfig.PROVIDER, o.provider());
        o.settings().forEach((k, v) -> p.put(TckConfig.SET_PREFIX + k, v));
        p.put(TckConfig.SEED, Long.toString(seed));
        p.put(TckConfig.PROFILE, o.profile().name().toLowerCase(Locale.ROOT));
        if (o.tries() != null) {
            p.put(TckConfig.TRIES, Integer.toString(o.tries()));
        }
        p.put(TckConfig.TIMEOUT_FACTOR, Double.toString(o.timeoutFactor()));
        if (o.timeBudgetMillis() != null) {
            p.put(TimeBudget.KEY, Double.toString(o.timeBudgetMillis() / 1000.0));
            p.put(TimeBudget.START, Long.toString(budgetStart()));
        }
        p.put(org.ndktck.tck.harness.ConfigCapture.PRINT_SEED, "false");
        p.put(PlatformReports.REPORTS, "false"); // the runner writes its reports itself
        p.put(org.ndktck.tck.harness.PlatformJobs.KEY, "1"); // the runner shares the work itself (--jobs): no platform workers
        p.put("jqwik.reporting.onlyfailures", "true");
        p.put("jqwik.reporting.usejunitplatform", "true");
        p.put("jqwik.database", o.reportDir().resolve("jqwik-database").toString());
        // shrinking a counterexample may take this long (jqwik's default is 10 s a property): a provider that
        // fails many properties quickly must not cost minutes of shrinking (a run against a faulty
        // provider ends within twice the normal time); a try that failed at a time bound is not shrunk at all
        p.put("jqwik.shrinking.bounded.seconds", Long.toString(Math.max(1, Math.round(SHRINKING_SECONDS * o.timeoutFactor()))));
        return p;
    }

    /**
     * @return when the time budget of a run prepared now starts, in milliseconds since the epoch: the system property
     *     {@code ndk.tck.timeBudgetStart} when a parent run hands it to its worker JVM (the budget counts from the
     *     parent's start), else now
     */
    static long budgetStart() {
        String given = System.getProperty(TimeBudget.START);
        if (given != null && !given.isBlank()) {
            try {
                return Long.parseLong(given.trim());
            } catch (NumberFormatException e) {
                // count from now
            }
        }
        return System.currentTimeMillis();
    }

    /** Start of the message of a property that was running when the run was stopped (SIGTERM, SIGINT). */
    public static final String INTERRUPTED = "interrupted: ";

    /** A validated run, ready to execute. */
    public static final class Prepared {
        final Options options;
        private final ClassLoader loader;
        final NdkProvider provider;
        final ProviderUnderTest put;
        private final TckConfig config;
        final RuleCatalog catalog;
        final List<PropertyInfo> all;
        final Map<String, List<PropertyInfo>> byRule;
        final Set<String> selected;
        final Map<String, Exclusions.Entry> excluded;
        final Exclusions exclusions;
        final Set<String> runRules;
        final List<PropertyInfo> planned;
        private final Map<String, String> params;
        final long seed;
        Path claims;
        private ProviderLoader.AdapterInfoResult adapterInfo;

        Prepared(Options options, ClassLoader loader, NdkProvider provider, ProviderUnderTest put, TckConfig config,
                 RuleCatalog catalog, List<PropertyInfo> all, Map<String, List<PropertyInfo>> byRule, Set<String> selected,
                 Map<String, Exclusions.Entry> excluded, Exclusions exclusions, Set<String> runRules,
                 List<PropertyInfo> planned, Map<String, String> params, long seed) {
            this.options = options;
            this.loader = loader;
            this.provider = provider;
            this.put = put;
            this.config = config;
            this.catalog = catalog;
            this.all = all;
            this.byRule = byRule;
            this.selected = selected;
            this.excluded = excluded;
            this.exclusions = exclusions;
            this.runRules = runRules;
            this.planned = planned;
            this.params = params;
            this.seed = seed;
        }

        /** @return the options */
        public Options options() {
            return options;
        }

        /** @return when the run's time budget started, in milliseconds since the epoch, or null without a budget */
        Long budgetStartMillis() {
            String v = params.get(TimeBudget.START);
            return v == null ? null : Long.parseLong(v);
        }

        /** @return the run seed */
        public long seed() {
            return seed;
        }

        /** @return the rules whose properties will run */
        public Set<String> runRules() {
            return runRules;
        }

        /** @return the properties that will run */
        public List<PropertyInfo> planned() {
            return planned;
        }

        /**
         * Makes this run one worker of a run that shares its properties through claims ({@link PropertyClaims}):
         * the worker runs only the properties it claims, and its report counts a rule as selected only where it
         * ran at least one of the rule's properties (rules without properties, and excluded ones, stay selected
         * in every worker), so merging the workers' reports gives the verdicts of one run.
         *
         * @param claimsDir the run's claims directory (exists, shared by every worker)
         * @param worker    this worker's number, 1-based
         * @return this run
         */
        public Prepared claimingIn(Path claimsDir, int worker) {
            params.put(PropertyClaims.DIR, claimsDir.toAbsolutePath().toString());
            params.put(PropertyClaims.WORKER, Integer.toString(worker));
            this.claims = claimsDir;
            return this;
        }

        /** @return the rules selected by --rules and --shard */
        public Set<String> selected() {
            return selected;
        }

        /** @return the catalog */
        public RuleCatalog catalog() {
            return catalog;
        }

        /**
         * Reads NDK_ADAPTER_INFO once, within the call bound.
         *
         * @return the info or the reason it is missing
         */
        public synchronized ProviderLoader.AdapterInfoResult adapterInfo() {
            if (adapterInfo == null) {
                adapterInfo = ProviderLoader.adapterInfo(put, loader, config.scaled(5000));
            }
            return adapterInfo;
        }

        /** @return the bound of one property in milliseconds */
        public long propertyTimeoutMillis() {
            if (options.propertyTimeoutMillis() != null) {
                return options.propertyTimeoutMillis();
            }
            long base = options.profile() == TckConfig.Profile.DEEP ? 3_000_000 : 300_000;
            return config.scaled(base);
        }

        /** @return the effective configuration, one "name  value" line each, for the console ({@link RunHeader}) */
        public List<String> configurationLines() {
            return RunHeader.lines(this);
        }


        /** Middle of the note of a run with a time budget ({@link #budgetNote}), by which {@link #isBudgetNote} knows it. */
        private static final String BUDGET_NOTE_MARK = " budget-limited (fewer tries than the profile's, or stopped unfinished; report.json budgetLimited)";

        /** @param note a report note @return true when it is a {@link #budgetNote} (not, say, the note of the budget's hard end) */
        static boolean isBudgetNote(String note) {
            return note.startsWith("time budget of ") && note.endsWith(BUDGET_NOTE_MARK);
        }

        /**
         * @param budgetMillis the run's time budget, in milliseconds
         * @param limited      properties the budget limited (report.json budgetLimited)
         * @param planned      properties of the run
         * @return the run's note on its time budget (one per run: the merge of {@code --jobs} workers writes it again for the whole run)
         */
        static String budgetNote(long budgetMillis, long limited, int planned) {
            return "time budget of " + seconds(budgetMillis) + " s: " + limited + " of " + planned + " "
                    + Console.plural(planned, "property", "properties") + BUDGET_NOTE_MARK;
        }

        static String seconds(long millis) {
            return millis % 1000 == 0 ? Long.toString(millis / 1000) : Double.toString(millis / 1000.0);
        }

        Map<String, String> effectiveSettings() {
            Map<String, String> eff = new TreeMap<>();
            try {
                eff.putAll(put.factory().effectiveSettings());
            } catch (RuntimeException e) {
                eff.putAll(options.settings());
            }
            options.settings().forEach(eff::putIfAbsent);
            return eff;
        }

        /**
         * @param ruleId a rule, or null for the whole selection
         * @return the command replaying it
         */
        public String replay(String ruleId) {
            // absolute jars: the replay runs from the kit's checkout whatever directory the run was started in
            String cmd = Replay.command(options.provider(), options.providerJars().stream()
                            .map(j -> j.toAbsolutePath().normalize()).toList(), options.settings(),
                    options.profile().name(), options.tries(), options.timeoutFactor(), options.kitPackage(),
                    ruleId != null ? ruleId : options.rules(), seed);
            if (ruleId == null && options.shard() != null) {
                cmd += " --shard " + options.shard();
            }
            if (ruleId == null && options.strict()) {
                cmd += " --strict";
            }
            return cmd;
        }

        /**
         * Runs the selected properties and builds the report; the report is built and written even when the
         * execution breaks down.
         *
         * @param progress       progress sink
         * @param deadlineMillis overall bound, or 0
         * @param fullReports    whether to write HTML and JUnit XML besides report.json
         * @return the report
         */
        public RunReport execute(KitExecution.Progress progress, long deadlineMillis, boolean fullReports) {
            Instant startedAt = Instant.now();
            long start = System.nanoTime();
            List<String> notes = new ArrayList<>();
            // if the JVM is stopped (Ctrl-C) before the run ends, a shutdown hook writes what finished so far
            List<PropertyOutcome> finished = java.util.Collections.synchronizedList(new ArrayList<>());
            java.util.concurrent.atomic.AtomicBoolean written = new java.util.concurrent.atomic.AtomicBoolean();
            // properties started and not yet finished, with their start: a stopped run reports them as unfinished
            Map<String, Map.Entry<PropertyInfo, Long>> inFlight = new java.util.concurrent.ConcurrentHashMap<>();
            KitExecution.Progress tracking = new KitExecution.Progress() {
                @Override
                public void started(PropertyInfo property) {
                    inFlight.put(property.uniqueId(), Map.entry(property, System.nanoTime()));
                    progress.started(property);
                }

                @Override
                public void finished(PropertyOutcome outcome) {
                    finished.add(outcome);
                    inFlight.remove(outcome.property().uniqueId());
                    progress.finished(outcome);
                }

                @Override
                public void tick() {
                    progress.tick();
                }
            };
            Thread hook = new Thread(() -> {
                if (written.compareAndSet(false, true)) {
                    List<PropertyOutcome> soFar;
                    synchronized (finished) {
                        soFar = new ArrayList<>(finished);
                    }
                    long now = System.nanoTime();
                    List<String> why = new ArrayList<>(List.of("the run was interrupted; the verdicts cover the properties that finished"));
                    for (Map.Entry<PropertyInfo, Long> e : inFlight.values()) {
                        // the property running when the run was stopped (SIGTERM, Ctrl-C): unfinished, its rules not judged
                        soFar.add(new PropertyOutcome(e.getKey(), "ABORTED", 0, 0, "", (now - e.getValue()) / 1_000_000,
                                INTERRUPTED + "the run was stopped while this property ran, so its rules were not judged",
                                null, "", (now - start) / 1_000_000));
                        why.add(e.getKey().propertyId() + " was running when the run was stopped");
                    }
                    KitExecution.Result partial = new KitExecution.Result(soFar, org.ndktck.tck.RunLedger.advisories(),
                            why, false, (now - start) / 1_000_000);
                    try {
                        ReportWriter.write(report(partial, List.of(), startedAt, partial.wallMillis()), options.reportDir(), fullReports);
                    } catch (IOException | RuntimeException e) {
                        System.err.println("ndk-tck: could not write the partial report: " + e.getMessage());
                    }
                }
            }, "ndk-tck-report-on-exit");
            boolean hooked = false;
            try {
                Runtime.getRuntime().addShutdownHook(hook);
                hooked = true;
            } catch (IllegalStateException | SecurityException e) {
                // the JVM is already shutting down: no hook
            }
            KitExecution.Result result = null;
            try {
                result = KitExecution.run(new KitExecution.Request(options.kitPackage(), loader, params, runRules, planned,
                        propertyTimeoutMillis(), deadlineMillis, fullReports ? options.reportDir().resolve("junit-platform") : null,
                        tracking));
            } catch (Throwable e) {
                // whatever happened, the report below is still written, with every rule and a note on the breakdown
                notes.add("the run broke down: " + Failures.describe(e));
            }
            RunReport report;
            try {
                report = report(result, notes, startedAt, (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException | LinkageError e) {
                // the outcomes could not be judged (a broken outcome, a provider whose adapter info throws): still
                // write a report, with every rule and a note, rather than none
                notes.add("the report of the outcomes could not be built: " + Failures.describe(e));
                report = report(null, notes, startedAt, (System.nanoTime() - start) / 1_000_000);
            }
            if (!written.compareAndSet(false, true)) {
                return report;
            }
            if (hooked) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // shutting down
                }
            }
            try {
                ReportWriter.write(report, options.reportDir(), fullReports);
            } catch (IOException | RuntimeException e) {
                throw new UsageException("cannot write the report to " + options.reportDir() + ": " + e.getMessage(),
                        "choose a writable --report-dir");
            }
            return report;
        }
        private RunReport report(KitExecution.Result result, List<String> extraNotes, Instant startedAt, long wallMillis) {
            return RunReportAssembly.build(this, result, extraNotes, startedAt, wallMillis);
        }
    }
}
