package org.ndktck.tck.runner;

import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.spec.rules.Strength;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.report.SelftestReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * {@code ndk-tck selftest}: proves the kit's strength. Runs the kit against every provider named
 * {@code fault:RULE[/variant]} (restricted to RULE, plus {@code --with} rules, or every rule with
 * {@code --full}), each within a time bound, and against every provider named {@code legal:...}, which must
 * pass: no FAIL, and no selected rule whose properties passed without a check of it running ({@code NoCheckRan},
 * but for the adapter choices it lists); prints a matrix and writes {@code selftest.json}. A fault is caught only when the rule is FAILed and a
 * property's first failure is a violation of it ({@link Catches}); each row says which of caught, failed for
 * another reason or not caught happened.
 */
@Command(name = "selftest", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class, sortOptions = false,
        description = {"Runs the kit against every fault:* provider (each breaks one rule, named before the '/') and every "
                + "legal:* provider, prints a matrix (fault, rule, caught, rules that failed, time to catch) and writes "
                + "selftest.json into the report directory. A fault is caught only when a property's first failure is a "
                + "violation of the fault's rule; a crash, a time bound, a coverage, generator or set-up error or a violation of "
                + "another rule is reported as 'failed for another reason' (selftest.json: outcome, outcomeDetail). A fault "
                + "marked as one only the deep profile reaches (org.ndktck.spec.DeepProfileFault) runs at --profile deep, "
                + "as a row named '<fault> [profile=deep]' when the selftest's profile is lower.", ""},
        footer = {"", "Exit codes: 0 every fault caught by its rule and every legal provider passed, 1 otherwise, "
                + "2 usage error (for example no fault:* providers on the class path)."})
public final class SelftestCommand implements Callable<Integer> {
    @ParentCommand
    NdkTckCommand parent;

    @Option(names = "--faults", paramLabel = "PATTERN", split = ",",
            description = "Only faults (and legal providers) whose names match these globs, e.g. 'fault:MR-FR-*'.")
    List<String> faults;

    @Option(names = "--with", paramLabel = "PATTERN", split = ",",
            description = "Rules to run besides each fault's own rule (IDs or globs).")
    List<String> with;

    @Option(names = "--full", description = "Run every rule against each fault (slow), not only its own rule, and legal "
            + "providers at the chosen profile (by default a legal provider that names no rule runs every rule at smoke).")
    boolean full;

    @Option(names = "--no-pending-rows",
            description = "Run the providers with their default completions only. By default every legal provider, and "
                    + "every fault marked as living on the asynchronous path (org.ndktck.spec.AsynchronousPathFault), also "
                    + "runs with --set completion=pending, as an extra row named '<provider> [completion=pending]' "
                    + "(providers that take no 'completion' setting excepted).")
    boolean noPendingRows;

    @Option(names = "--provider-jar", paramLabel = "PATH", description = "Jar or class directory with more providers; repeatable.")
    List<Path> providerJars = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "PROFILE", defaultValue = "standard", converter = Converters.ProfileConverter.class, description = "smoke, standard or deep.")
    TckConfig.Profile profile;

    @Option(names = "--tries", paramLabel = "N", description = "Tries per property, overriding the profile.")
    Integer tries;

    @Option(names = "--seed", paramLabel = "S", converter = Converters.SeedConverter.class,
            description = "Run seed for every fault. Default: random, printed.")
    Long seed;

    @Option(names = "--timeout-factor", paramLabel = "F", defaultValue = "1.0", description = "Multiplies every time bound.")
    double timeoutFactor;

    @Option(names = "--fault-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Time bound of one fault's run (scaled by --timeout-factor). Default: ${DEFAULT-VALUE}.")
    double faultTimeoutSeconds;

    @Option(names = "--report-dir", paramLabel = "DIR", defaultValue = "target/ndk-tck-report",
            description = "Where selftest.json (and selftest/<fault>/report.json) go.")
    Path reportDir;

    @Option(names = "--quiet", description = "Print only the faults not caught and the summary.")
    boolean quiet;

    @Option(names = "--kit-package", hidden = true)
    String kitPackage = System.getProperty("ndk.tck.runner.kitPackage", KitDiscovery.KIT_PACKAGE);

    @Override
    public Integer call() throws IOException {
        long start = System.nanoTime();
        PrintStream out = parent.out;
        ClassLoader loader = ProviderLoader.classLoader(providerJars);
        List<String> names = ProviderLoader.names(loader);
        List<Pattern> only = faults == null ? List.of() : faults.stream().map(String::trim).filter(s -> !s.isEmpty())
                .map(RulePatterns::glob).toList();
        List<String> faultNames = names.stream().filter(n -> n.startsWith("fault:")).filter(n -> matches(only, n)).toList();
        List<String> legalNames = names.stream().filter(n -> n.startsWith("legal:")).filter(n -> matches(only, n)).toList();
        if (faultNames.isEmpty() && legalNames.isEmpty()) {
            throw new UsageException("no fault:* or legal:* providers found" + (only.isEmpty() ? "" : " matching --faults " + faults),
                    "build the faults module (./ndk-tck builds it) or add providers with --provider-jar");
        }
        RuleCatalog catalog = RuleCatalog.standard();
        List<String> ids = catalog.rules().stream().map(Rule::id).toList();
        if (with != null) {
            KitRunner.select(catalog, String.join(",", with));
        }
        long runSeed = seed != null ? seed : TckConfig.randomSeed();
        long bound = Math.max(1000, Math.round(faultTimeoutSeconds * 1000 * timeoutFactor));
        if (!quiet) {
            out.println("selftest: " + faultNames.size() + " faults, " + legalNames.size() + " legal providers; seed " + runSeed
                    + ", profile " + profile.name().toLowerCase(Locale.ROOT) + (tries == null ? "" : ", " + tries + " tries")
                    + ", bound " + bound / 1000.0 + " s per fault"
                    + (!legalNames.isEmpty() && legalProfile(null) != profile ? "; legal providers that name no rule run every "
                    + "rule at profile " + legalProfile(null).name().toLowerCase(Locale.ROOT) + " (--full: " + profile.name()
                    .toLowerCase(Locale.ROOT) + ")" : ""));
            out.println();
        }
        Files.createDirectories(reportDir);
        List<SelftestReport.FaultRow> rows = new ArrayList<>();
        int w = Math.max(28, java.util.stream.Stream.concat(faultNames.stream(), legalNames.stream())
                .mapToInt(n -> n.length() + PENDING_ROW.length() + DEEP_ROW.length()).max().orElse(0));
        if (!quiet && !faultNames.isEmpty()) {
            out.printf(Locale.ROOT, "%-" + w + "s  %-14s  %-6s  %13s  %s%n", "FAULT", "RULE", "CAUGHT", "TIME TO CATCH", "RULES THAT FAILED");
        }
        List<FaultRun> faultRuns = new ArrayList<>();
        for (String fault : faultNames) {
            TckConfig.Profile at = provedAtDeepProfile(fault, loader) ? TckConfig.Profile.DEEP : profile;
            faultRuns.add(new FaultRun(fault, Map.of(), at));
            if (!noPendingRows && onAsynchronousPath(fault, loader) && takesCompletion(fault, loader)) {
                faultRuns.add(new FaultRun(fault, PENDING, at));
            }
        }
        for (FaultRun run : faultRuns) {
            String fault = run.provider();
            String rule = fault.substring("fault:".length()).split("/", 2)[0];
            SelftestReport.FaultRow row = runFault(run, rule, catalog, ids, loader, runSeed, bound);
            rows.add(row);
            if (!quiet || !row.caught()) {
                out.printf(Locale.ROOT, "%-" + w + "s  %-14s  %-6s  %13s  %s%n", row.provider(), row.rule(), row.caught() ? "yes" : "NO",
                        row.timeToCatchMillis() == null ? "-" : String.format(Locale.ROOT, "%.2f s", row.timeToCatchMillis() / 1000.0),
                        row.failedRules().isEmpty() ? "-" : String.join(",", row.failedRules()));
                if (!row.caught()) {
                    out.println("    " + firstLine(row.outcomeDetail()));
                    if (row.replay() != null) {
                        out.println("    replay: " + row.replay());
                    }
                }
            }
        }
        List<SelftestReport.LegalRow> legalRows = new ArrayList<>();
        if (!legalNames.isEmpty()) {
            if (!quiet) {
                out.println();
                out.printf(Locale.ROOT, "%-" + w + "s  %-14s  %-6s  %13s  %s%n", "LEGAL PROVIDER", "RULES", "PASSED", "TIME", "RULES THAT FAILED");
            }
            List<Map.Entry<String, Map<String, String>>> legalRuns = new ArrayList<>();
            for (String legal : legalNames) {
                legalRuns.add(Map.entry(legal, Map.of()));
                if (!noPendingRows && takesCompletion(legal, loader)) {
                    legalRuns.add(Map.entry(legal, PENDING));
                }
            }
            for (Map.Entry<String, Map<String, String>> run : legalRuns) {
                String legal = run.getKey();
                String rule = legal.substring("legal:".length()).split("/", 2)[0];
                String pattern = ids.contains(rule) ? rule : null;
                SelftestReport.LegalRow row = runLegal(legal, pattern, loader, runSeed, bound, run.getValue());
                legalRows.add(row);
                if (!quiet || !row.passed()) {
                    out.printf(Locale.ROOT, "%-" + w + "s  %-14s  %-6s  %13s  %s%n", row.provider(), pattern == null ? "(all)" : pattern,
                            row.passed() ? "yes" : "NO", String.format(Locale.ROOT, "%.2f s", row.durationMillis() / 1000.0),
                            row.failedRules().isEmpty() ? "-" : String.join(",", row.failedRules()));
                    if (!row.passed() && row.message() != null) {
                        out.println("    " + firstLine(row.message()));
                    }
                }
            }
        }
        int caught = (int) rows.stream().filter(SelftestReport.FaultRow::caught).count();
        List<Long> times = rows.stream().map(SelftestReport.FaultRow::timeToCatchMillis).filter(t -> t != null).sorted().toList();
        Long median = times.isEmpty() ? null : times.size() % 2 == 1 ? times.get(times.size() / 2)
                : (times.get(times.size() / 2 - 1) + times.get(times.size() / 2)) / 2;
        int legalPassed = (int) legalRows.stream().filter(SelftestReport.LegalRow::passed).count();
        int exit = caught == rows.size() && legalPassed == legalRows.size() ? NdkTckCommand.OK : NdkTckCommand.FAILED;
        SelftestReport report = new SelftestReport(SelftestReport.FORMAT, KitVersion.get(), runSeed,
                profile.name().toLowerCase(Locale.ROOT), tries, timeoutFactor, bound, rows, legalRows, caught, median,
                (System.nanoTime() - start) / 1_000_000, exit);
        ReportWriter.writeAtomically(reportDir.resolve("selftest.json"), ReportWriter.mapper().writeValueAsString(report));
        out.println();
        out.println("Faults: " + caught + " of " + rows.size() + " caught by their rule"
                + (median == null ? "" : String.format(Locale.ROOT, ", median time to catch %.2f s", median / 1000.0))
                + (legalRows.isEmpty() ? "" : "; legal providers: " + legalPassed + " of " + legalRows.size() + " passed"));
        out.println("Report: " + reportDir.resolve("selftest.json"));
        out.println("Result: " + (exit == 0 ? "PASS" : "FAIL") + " (exit " + exit + ")");
        return exit;
    }

    /**
     * One fault row of the matrix: the provider, its settings and the profile it is proved at.
     *
     * @param provider the {@code fault:...} provider's name
     * @param settings empty, or {@link #PENDING}
     * @param profile  the selftest's profile, or deep for a {@link org.ndktck.spec.DeepProfileFault}
     */
    private record FaultRun(String provider, Map<String, String> settings, TckConfig.Profile profile) {
    }

    private SelftestReport.FaultRow runFault(FaultRun run, String rule, RuleCatalog catalog, List<String> ids,
                                             ClassLoader loader, long runSeed, long bound) {
        long t0 = System.nanoTime();
        String fault = run.provider();
        Map<String, String> settings = run.settings();
        String row = fault + (settings.isEmpty() ? "" : PENDING_ROW) + (run.profile() == profile ? "" : DEEP_ROW);
        if (!ids.contains(rule)) {
            String why = "the catalog has no rule " + rule + " (the part of the fault's name before '/')";
            return new SelftestReport.FaultRow(row, rule, false, null, List.of(), null, 0, false, why, null,
                    SelftestReport.FaultRow.NOT_CAUGHT, "not caught: " + why, null);
        }
        // a rule without a property of its own (a cross-cutting rule the harness reports in passing, such as
        // GEN-TIME-1) can only be caught by running the other rules' properties: run every rule then
        boolean ownProperty = KitDiscovery.byRule(KitDiscovery.discover(kitPackage, loader, Map.of())).containsKey(rule);
        String pattern = full || !ownProperty ? null : with == null ? rule : rule + "," + String.join(",", with);
        RunReport r;
        KitRunner.Prepared p;
        try {
            p = KitRunner.prepare(options(fault, pattern, runSeed, bound, run.profile(), settings, null));
            r = p.execute(new KitExecution.Progress() { }, bound, false);
        } catch (UsageException e) {
            return new SelftestReport.FaultRow(row, rule, false, null, List.of(), null, (System.nanoTime() - t0) / 1_000_000,
                    false, "setup failed: " + e.line(), null, SelftestReport.FaultRow.OTHER_REASON,
                    "failed for another reason: set-up error: " + e.line(), null);
        }
        RunReport.RuleReport rr = r.rules().stream().filter(x -> x.id().equals(rule)).findFirst().orElseThrow();
        Strength strength = catalog.find(rule).map(Rule::strength).orElse(Strength.MUST);
        // a rule that rests on the kit's reading alone reports its findings ADVISORY (Verdicts.kitInterpretationOnly)
        Set<String> wanted = strength.isRecommendation() || Verdicts.kitInterpretationOnly(catalog.find(rule).orElse(null))
                ? Set.of("FAIL", "ADVISORY") : Set.of("FAIL");
        // a catch is a property whose first failure is a violation of the rule (Catches): not a crash, a time
        // bound, a coverage, generator or set-up error, a violation of another rule, or one buried as a cause
        RunReport.PropertyReport catcher = r.properties().stream()
                .filter(pr -> pr.status().equals("FAILED") && rule.equals(pr.firstViolation()))
                .min(java.util.Comparator.comparingLong(RunReport.PropertyReport::finishedAtMillis)).orElse(null);
        boolean caught = wanted.contains(rr.verdict()) && catcher != null;
        boolean timedOut = r.notes().stream().anyMatch(n -> n.startsWith("time bound of"));
        List<String> failed = r.rules().stream().filter(x -> x.verdict().equals("FAIL") || x.verdict().equals("ADVISORY"))
                .map(RunReport.RuleReport::id).toList();
        String outcome;
        String detail;
        String message;
        if (caught) {
            outcome = SelftestReport.FaultRow.CAUGHT;
            detail = "caught: " + catcher.property() + " failed first with a violation of " + rule;
            message = rr.message();
        } else {
            detail = otherReason(rule, rr, r, timedOut, bound);
            outcome = detail == null ? SelftestReport.FaultRow.NOT_CAUGHT : SelftestReport.FaultRow.OTHER_REASON;
            if (rr.properties().isEmpty() && r.properties().isEmpty()) {
                message = "the kit has no property for " + rule + " and no other property ran";
            } else if (timedOut) {
                message = "the run hit its time bound of " + bound + " ms before the kit failed " + rule;
            } else {
                message = rule + " was " + rr.verdict() + (rr.message() == null ? "" : ": " + rr.message());
            }
            if (detail == null) {
                detail = "not caught: " + message;
            }
        }
        return new SelftestReport.FaultRow(row, rule, caught, rr.verdict(), failed, caught ? catcher.finishedAtMillis() : null,
                (System.nanoTime() - t0) / 1_000_000, timedOut, message,
                rr.replay() != null ? rr.replay() : p.replay(rule), outcome, detail, caught ? catcher.property() : null);
    }

    /**
     * @return {@code failed for another reason: ...} naming what failed when the run failed without catching
     *     the fault (the rule's own properties first, then any other), or null when nothing failed
     */
    private static String otherReason(String rule, RunReport.RuleReport rr, RunReport r, boolean timedOut, long bound) {
        List<RunReport.PropertyReport> failedProps = r.properties().stream().filter(pr -> pr.firstFailure() != null)
                .sorted(java.util.Comparator.comparingLong(RunReport.PropertyReport::finishedAtMillis)).toList();
        RunReport.PropertyReport own = failedProps.stream()
                .filter(pr -> pr.rules().contains(rule) || pr.violatedRules().contains(rule)).findFirst().orElse(null);
        String prefix = "failed for another reason: ";
        if (own != null) {
            return prefix + rule + " was " + rr.verdict() + ", but " + own.property() + " failed first with "
                    + firstLine(own.firstFailure());
        }
        if (!failedProps.isEmpty()) {
            RunReport.PropertyReport f = failedProps.get(0);
            return prefix + rule + " was " + rr.verdict() + "; " + f.property() + " failed first with " + firstLine(f.firstFailure());
        }
        if (timedOut) {
            return prefix + "time bound: the run hit its bound of " + bound + " ms";
        }
        return null;
    }

    private SelftestReport.LegalRow runLegal(String legal, String pattern, ClassLoader loader, long runSeed, long bound,
                                             Map<String, String> settings) {
        long t0 = System.nanoTime();
        String name = legal + (settings.isEmpty() ? "" : PENDING_ROW);
        try {
            // the run's time budget is the fault bound: a slow legal provider (legal:slow-completion)
            // passes with fewer tries instead of taking minutes; a quick one ends long before its shares run out
            KitRunner.Prepared p = KitRunner.prepare(options(legal, pattern, runSeed, pattern == null ? bound * 10 : bound,
                    legalProfile(pattern), settings, bound));
            RunReport r = p.execute(new KitExecution.Progress() { }, pattern == null ? bound * 10 : bound, false);
            List<String> failed = r.rules().stream().filter(x -> x.verdict().equals("FAIL")).map(RunReport.RuleReport::id).toList();
            boolean timedOut = r.notes().stream().anyMatch(n -> n.startsWith("time bound of"));
            // a legal provider passes on judgement, not on the absence of a FAIL: a selected rule whose properties passed
            // without one check of it reaching an outcome fails the row (unless an adapter choice the pages allow explains it)
            List<RunReport.RuleReport> unjudged = r.rules().stream().filter(x -> x.selected() && NoCheckRan.unjudged(x)).toList();
            boolean passed = failed.isEmpty() && !timedOut && unjudged.isEmpty();
            String message = passed ? null : timedOut ? "the run hit its time bound" : !failed.isEmpty() ? r.rules().stream()
                    .filter(x -> x.verdict().equals("FAIL")).findFirst().map(x -> x.id() + ": " + x.message()).orElse(null)
                    : unjudged.get(0).id() + ": " + unjudged.get(0).message();
            return new SelftestReport.LegalRow(name, pattern, passed, failed, (System.nanoTime() - t0) / 1_000_000, message);
        } catch (UsageException e) {
            return new SelftestReport.LegalRow(name, pattern, false, List.of(), (System.nanoTime() - t0) / 1_000_000,
                    "setup failed: " + e.line());
        }
    }

    /**
     * A legal provider whose name names no rule runs every rule; at the standard or deep profile that is the
     * whole kit, minutes per provider. Its behaviour (an early completion, a foreign thread, ...) shows in every
     * try, so it runs at the smoke profile unless {@code --full} or {@code --tries} says otherwise.
     */
    private TckConfig.Profile legalProfile(String pattern) {
        return pattern == null && !full && tries == null ? TckConfig.Profile.SMOKE : profile;
    }

    private KitRunner.Options options(String provider, String pattern, long runSeed, long bound, TckConfig.Profile prof,
                                      Map<String, String> settings, Long budgetMillis) {
        String dir = (provider + (settings.isEmpty() ? "" : "_" + settings)).replaceAll("[^A-Za-z0-9_.-]+", "_");
        return new KitRunner.Options(provider, providerJars, settings, pattern, prof, tries, runSeed, timeoutFactor,
                false, null, null, reportDir.resolve("selftest").resolve(dir), kitPackage, bound, LocalDate.now(), budgetMillis);
    }

    /** The provider setting of the extra rows: every completion pends. */
    static final Map<String, String> PENDING = Map.of("completion", "pending");

    /** Suffix of the name of a row run with {@link #PENDING}. */
    static final String PENDING_ROW = " [completion=pending]";

    /** Suffix of the name of a row of a {@link org.ndktck.spec.DeepProfileFault} run at deep by a selftest at a lower profile. */
    static final String DEEP_ROW = " [profile=deep]";

    /**
     * @param name   a provider's name
     * @param loader the provider loader
     * @return true when the provider accepts the setting {@code completion} (its {@code settingDescriptions})
     */
    static boolean takesCompletion(String name, ClassLoader loader) {
        try {
            return ProviderLoader.find(name, loader).settingDescriptions().containsKey("completion");
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * @param name   a provider's name
     * @param loader the provider loader
     * @return true when the provider marks its fault as living on the asynchronous path
     *     ({@link org.ndktck.spec.AsynchronousPathFault}): selftest runs it under completion=pending as well
     */
    static boolean onAsynchronousPath(String name, ClassLoader loader) {
        try {
            return ProviderLoader.find(name, loader) instanceof org.ndktck.spec.AsynchronousPathFault;
        } catch (UsageException e) {
            return false;
        }
    }

    /**
     * @param name   a provider's name
     * @param loader the provider loader
     * @return true when the provider marks its fault as one only the deep profile reaches
     *     ({@link org.ndktck.spec.DeepProfileFault}): selftest runs it at {@code --profile deep}
     */
    static boolean provedAtDeepProfile(String name, ClassLoader loader) {
        try {
            return ProviderLoader.find(name, loader) instanceof org.ndktck.spec.DeepProfileFault;
        } catch (UsageException e) {
            return false;
        }
    }

    private static boolean matches(List<Pattern> only, String name) {
        return only.isEmpty() || only.stream().anyMatch(p -> p.matcher(name).matches());
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
