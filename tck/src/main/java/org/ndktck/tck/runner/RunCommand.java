package org.ndktck.tck.runner;

import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.report.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ndk-tck run}: runs the kit against one provider and writes the reports. */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class, sortOptions = false, showDefaultValues = true,
        description = {"Runs the kit's properties against a provider, prints a table of rules and verdicts, and writes "
                + "report.json, report.html and JUnit XML into the report directory.", ""},
        footer = {"", "Exit codes: 0 no rule failed, 1 a rule failed (or ADVISORY with --strict), 2 usage or setup error, 3 internal error of the kit.",
                "Examples:", "  ./ndk-tck run", "  ./ndk-tck run --set completion=pending --rules 'MR-FR-*' --seed 42",
                "  ./ndk-tck run --provider my-provider --provider-jar my-provider.jar --profile deep",
                "  ./ndk-tck run --provider legal:slow-completion --time-budget 60"})
public final class RunCommand implements Callable<Integer> {
    @ParentCommand
    NdkTckCommand parent;

    @Option(names = "--provider", paramLabel = "NAME|CLASS", defaultValue = "reference",
            description = "Provider short name (ServiceLoader) or class implementing org.ndktck.spec.NdkProvider.")
    String provider;

    @Option(names = "--provider-jar", paramLabel = "PATH", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Jar (or class directory) of the provider and its dependencies; repeatable.")
    List<Path> providerJars = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            converter = Converters.SettingConverter.class,
            description = "Provider setting, handed to the provider; repeatable (e.g. completion=pending).")
    List<String> settings = new ArrayList<>();

    @Option(names = "--rules", paramLabel = "PATTERN", split = ",",
            description = "Rule IDs or globs, comma-separated (e.g. MR-FR-*,GEN-CB-1). Default: every rule.")
    List<String> rules;

    @Option(names = "--profile", paramLabel = "PROFILE", defaultValue = "standard", converter = Converters.ProfileConverter.class,
            description = "smoke (50 tries), standard (1000) or deep (10000 tries per property).")
    TckConfig.Profile profile;

    @Option(names = "--tries", paramLabel = "N", description = "Tries per property, overriding the profile (a property that declares its own count gets it scaled by N/1000, at most N, at least the smaller of N and its count).")
    Integer tries;

    @Option(names = "--seed", paramLabel = "S", converter = Converters.SeedConverter.class,
            description = "Run seed (a 64-bit integer, decimal or 0x hex). Default: random, printed.")
    Long seed;

    @Option(names = "--timeout-factor", paramLabel = "F", defaultValue = "1.0",
            description = "Multiplies every time bound (calls, completions, properties).")
    double timeoutFactor;

    @Option(names = "--strict", description = "Make ADVISORY (SHOULD-level findings) fail the run.")
    boolean strict;

    @Option(names = "--exclusions", paramLabel = "FILE",
            description = "Exclusions file: lines 'RULE-ID | YYYY-MM-DD | reason'; expired entries are ignored.")
    Path exclusions;

    @Option(names = "--shard", paramLabel = "I/N", description = "Run shard I of N (1-based); combine shards with 'merge'.")
    String shard;

    @Option(names = "--time-budget", paramLabel = "SECONDS", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Bound the whole run to about this many seconds (counted from the command's start): the tries are "
                    + "spread over the selected properties, a property whose share runs out ends early with the tries done "
                    + "(PASS with fewer tries, noted 'budget-limited' in the table and report.json budgetLimited; UNTESTED when those "
                    + "tries did not reach a coverage claim), and at the "
                    + "budget's end the run stops and writes its report. For a slow provider; at least 1. Default: ndk.tck.timeBudget, "
                    + "else none (every property runs its profile's tries).")
    String timeBudgetSeconds;

    @Option(names = "--jobs", paramLabel = "N", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Workers that run the selected rules in parallel (worker 1 in this JVM, the others in child JVMs; "
                    + "the verdicts equal those of --jobs 1 with the same seed). Default: ndk.tck.jobs, else 1 for the smoke profile "
                    + "and the number of available processors for the others.")
    Integer jobs;

    @Option(names = "--report-dir", paramLabel = "DIR", defaultValue = "target/ndk-tck-report",
            description = "Where report.json, report.html and junit/ go.")
    Path reportDir;

    @Option(names = "--quiet", description = "Print only failures and the summary.")
    boolean quiet;

    @Option(names = {"--verbose", "--all"}, description = "List every rule in the table, NOT_TESTABLE and UNTESTED ones too "
            + "(by default they are counted in one line each).")
    boolean verbose;

    @Option(names = "--kit-package", hidden = true, description = "Package of the properties to run (for the kit's own tests).")
    String kitPackage = System.getProperty("ndk.tck.runner.kitPackage", KitDiscovery.KIT_PACKAGE);

    @Option(names = "--property-timeout", hidden = true, paramLabel = "SECONDS",
            description = "Bound of one property before the runner abandons it.")
    Double propertyTimeoutSeconds;

    @Option(names = "--progress", hidden = true, description = "auto, line, plain or none.")
    String progress = "auto";

    @Option(names = "--today", hidden = true, description = "The date exclusions are judged against (YYYY-MM-DD).")
    LocalDate today;

    /**
     * @return the time budget in milliseconds: {@code --time-budget}, else the system property {@value
     *     org.ndktck.tck.harness.TimeBudget#KEY} (seconds), else null
     * @throws UsageException for a value that is not a number of at least 1 second
     */
    private Long budgetMillis() {
        // read as text, so a bad value is echoed as the user typed it
        String what = timeBudgetSeconds != null ? "--time-budget" : org.ndktck.tck.harness.TimeBudget.KEY;
        String text = timeBudgetSeconds != null ? timeBudgetSeconds
                : System.getProperty(org.ndktck.tck.harness.TimeBudget.KEY);
        if (text == null || timeBudgetSeconds == null && text.isBlank()) {
            return null; // an empty ndk.tck.timeBudget means none; an empty --time-budget is an error
        }
        try {
            return org.ndktck.tck.harness.TimeBudget.parseSeconds(what, text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), "use e.g. --time-budget 60 for a run of at most a minute");
        }
    }

    @Option(names = "--claims", hidden = true, paramLabel = "DIR",
            description = "Claims directory of a run whose workers share its properties (set by --jobs for its workers).")
    Path claims;

    @Option(names = "--worker", hidden = true, paramLabel = "K", description = "This worker's number in a shared run (1-based).")
    int worker = 1;

    @Override
    public Integer call() {
        KitRunner.Options o = new KitRunner.Options(provider, providerJars, Converters.settings(settings),
                rules == null ? null : String.join(",", rules), profile, tries, seed, timeoutFactor, strict, exclusions,
                shard == null ? null : Shard.parse(shard), reportDir, kitPackage,
                propertyTimeoutSeconds == null ? null : Math.max(1, Math.round(propertyTimeoutSeconds * 1000)), today,
                budgetMillis());
        if (o.settings().containsKey(SettingsHelp.KEY)) {
            org.ndktck.spec.NdkProvider named = ProviderLoader.find(o.provider(), ProviderLoader.classLoader(o.providerJars()));
            if (SettingsHelp.asked(o.settings(), named)) {
                parent.out.println("settings of provider '" + named.name() + "' (--set KEY=VALUE): values and default");
                SettingsHelp.lines(named, 2).forEach(parent.out::println);
                return NdkTckCommand.OK;
            }
        }
        int requested = ParallelRun.jobs(jobs, profile);
        KitRunner.Prepared p = KitRunner.prepare(o);
        if (claims != null) {
            p.claimingIn(claims, worker);
        }
        int workers = Math.min(requested, p.runRules().size());
        Console console = new Console(parent.out, Converters.progress(progress), quiet, p.planned(), p.runRules());
        List<String> lines = new ArrayList<>(p.configurationLines());
        if (workers > 1) {
            lines.add("jobs         " + workers + " workers (worker 1 in this JVM, " + (workers - 1) + " in child JVMs; "
                    + "each worker's report in " + reportDir.resolve("workers") + ")");
        }
        console.configuration(lines);
        KitExecution.Progress progress = claims == null ? console : new OutcomeFiles(claims, console);
        RunReport r = workers > 1 ? ParallelRun.run(p, workers, console) : p.execute(progress, 0, true);
        console.done();
        Console.results(parent.out, r, reportDir, quiet, verbose);
        return r.exitCode();
    }
}
