package org.ndktck.tck.runner;

import org.ndktck.tck.harness.TckConfig;

import org.ndktck.tck.harness.PropertyClaims;
import org.ndktck.tck.report.ReportMerger;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.report.Summaries;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code run --jobs N} (the kit-run budgets): N workers share the run's properties. Every worker walks the whole plan of the
 * run (or of the user's {@code --shard I/M}) and runs the properties it claims first ({@link
 * org.ndktck.tck.harness.PropertyClaims}: one atomic file per property in {@code REPORT_DIR/workers/claims}), so
 * a worker that is done with a property takes the next one nobody has, and no property runs twice. Every worker
 * derives a property's seed from the run seed and the property's name, and counts a rule only by the properties it
 * ran; the parent merges the workers' reports with {@link ReportMerger}. So the verdicts of {@code --jobs N} equal
 * those of {@code --jobs 1} with the same seed, whichever worker ran what.
 *
 * <p>Worker 1 runs in this JVM (no JVM start before the first property); workers 2 to N are child JVMs
 * ({@code java -cp <this classpath> org.ndktck.tck.runner.NdkTckCommand run ... --jobs 1 --claims DIR --worker K}),
 * so what a provider does in one worker (hangs, throws, corrupts its static state, even ends its JVM) cannot change
 * another worker's verdicts. Each worker bounds its own properties as a single run does. A worker whose JVM ends
 * without a report leaves the rules of the properties it had claimed UNTESTED ({@link Unclaimed}), says so in the
 * notes, and makes the run exit 1. Every worker's reports stay in {@code REPORT_DIR/workers/K}; the merged report
 * is written to the report directory as by a single run, always.
 */
final class ParallelRun {
    /** Configuration parameter, system property and environment variable (as NDK_TCK_JOBS) for the default of --jobs. */
    static final String JOBS = "ndk.tck.jobs";

    /** One line of a worker's plain progress: status, rules, property, tries, seconds. */
    private static final Pattern PROGRESS = Pattern.compile(
            "^\\[\\s*\\d+/\\d+ properties] (.+?)\\s+(\\S+)  (\\S+#\\S+)  (\\d+) tries  ([0-9.]+) s  \\(elapsed.*$");

    private ParallelRun() {
    }

    /**
     * @param option  the {@code --jobs} value, or null
     * @param profile the run's profile: without an option or {@code ndk.tck.jobs}, the smoke profile runs in one
     *                worker, because a child JVM's start-up and warm-up cost more than they save in smoke's few
     *                seconds of properties (runner time 3.9 s with one worker, 4.6 s with two on 2 idle cores;
     *                BENCHMARKS.md, "Budgets of a kit run")
     * @return the workers to use: the option, else {@code ndk.tck.jobs} (system property, then environment
     *     variable {@code NDK_TCK_JOBS}), else 1 for the smoke profile and the number of available processors for
     *     the others
     * @throws UsageException when the number is below 1 or not a number
     */
    static int jobs(Integer option, TckConfig.Profile profile) {
        if (option == null && profile == TckConfig.Profile.SMOKE && jobsSetting() == null) {
            return 1;
        }
        return jobs(option);
    }

    private static String jobsSetting() {
        String text = Optional.ofNullable(System.getProperty(JOBS)).orElse(System.getenv("NDK_TCK_JOBS"));
        return text == null || text.isBlank() ? null : text;
    }

    /**
     * @param option the {@code --jobs} value, or null
     * @return the workers to use: the option, else {@code ndk.tck.jobs} (system property, then environment
     *     variable {@code NDK_TCK_JOBS}), else the number of available processors
     * @throws UsageException when the number is below 1 or not a number
     */
    static int jobs(Integer option) {
        if (option != null) {
            if (option < 1) {
                throw new UsageException("bad --jobs " + option + ": must be at least 1", "use e.g. --jobs 2, or --jobs 1 for one JVM");
            }
            return option;
        }
        String text = jobsSetting();
        if (text == null) {
            return Math.max(1, Runtime.getRuntime().availableProcessors());
        }
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("bad " + JOBS + " '" + text + "': must be a whole number of at least 1", "use e.g. -D" + JOBS + "=2");
    }

    /**
     * Runs the prepared run in {@code workers} workers and writes the merged report.
     *
     * @param whole   the prepared run (validated; its configuration printed)
     * @param workers the number of workers, at least 2
     * @param console progress sink
     * @return the merged report
     */
    static RunReport run(KitRunner.Prepared whole, int workers, Console console) {
        KitRunner.Options o = whole.options();
        Instant startedAt = Instant.now();
        long start = System.nanoTime();
        Path root = o.reportDir().resolve("workers");
        List<Path> dirs = new ArrayList<>();
        for (int k = 1; k <= workers; k++) {
            Path d = root.resolve(Integer.toString(k));
            try {
                Files.createDirectories(d);
                Files.deleteIfExists(d.resolve(ReportWriter.JSON));
            } catch (IOException e) {
                throw new UsageException("cannot prepare " + d + ": " + e.getMessage(), "choose a writable --report-dir");
            }
            dirs.add(d);
        }
        Path claims = root.resolve("claims");
        try {
            PropertyClaims.prepare(claims);
        } catch (IOException e) {
            throw new UsageException("cannot prepare " + claims + ": " + e.getMessage(), "choose a writable --report-dir");
        }
        Map<String, PropertyInfo> byId = new HashMap<>();
        whole.planned().forEach(p -> byId.put(p.propertyId(), p));

        List<Process> children = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        AtomicBoolean written = new AtomicBoolean();
        Thread hook = new Thread(() -> {
            children.forEach(Process::destroy);
            for (Process c : children) {
                try {
                    c.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (written.compareAndSet(false, true)) {
                try {
                    ReportWriter.write(merge(whole, dirs, claims, List.of("the run was interrupted; the verdicts cover the properties that finished"),
                            new int[workers], startedAt, start), o.reportDir(), true);
                } catch (IOException | RuntimeException e) {
                    System.err.println("ndk-tck: could not write the partial report: " + e.getMessage());
                }
            }
        }, "ndk-tck-workers-on-exit");
        boolean hooked = false;
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            hooked = true;
        } catch (IllegalStateException | SecurityException e) {
            // shutting down already
        }
        int[] exits = new int[workers];
        boolean ended = false;
        try {
            for (int k = 2; k <= workers; k++) {
                ProcessBuilder pb = new ProcessBuilder(command(whole, claims, k, dirs.get(k - 1)));
                pb.redirectError(ProcessBuilder.Redirect.INHERIT);
                Process child;
                try {
                    child = pb.start();
                } catch (IOException e) {
                    notes.add("worker " + k + " could not be started: " + e.getMessage() + "; the other workers ran its share");
                    exits[k - 1] = -1;
                    continue;
                }
                children.add(child);
                Thread reader = new Thread(() -> relay(child, byId, console), "ndk-tck-worker-" + k + "-progress");
                reader.setDaemon(true);
                reader.start();
                readers.add(reader);
            }
            KitRunner.Options mine = new KitRunner.Options(o.provider(), o.providerJars(), o.settings(), o.rules(), o.profile(),
                    o.tries(), whole.seed(), o.timeoutFactor(), o.strict(), o.exclusions(), o.shard(),
                    dirs.get(0), o.kitPackage(), o.propertyTimeoutMillis(), o.today(), o.timeBudgetMillis());
            RunReport first = KitRunner.prepare(mine).claimingIn(claims, 1).execute(console, 0, true);
            exits[0] = first.exitCode();
            int i = 0;
            for (int k = 2; k <= workers; k++) {
                if (exits[k - 1] == -1) {
                    continue;
                }
                Process child = children.get(i);
                try {
                    exits[k - 1] = child.waitFor();
                    readers.get(i).join(5000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    child.destroy();
                    notes.add("the run was interrupted");
                }
                i++;
            }
            ended = true;
        } finally {
            children.forEach(c -> {
                if (c.isAlive()) {
                    c.destroyForcibly();
                }
            });
            if (!ended && hooked && written.compareAndSet(false, true)) {
                // the run broke off with an exception (a usage error of worker 1): no merged report to write
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // shutting down
                }
            }
        }
        if (!written.compareAndSet(false, true)) {
            return merge(whole, dirs, claims, notes, exits, startedAt, start);
        }
        if (hooked) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down
            }
        }
        RunReport report = merge(whole, dirs, claims, notes, exits, startedAt, start);
        try {
            ReportWriter.write(report, o.reportDir(), true);
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot write the report to " + o.reportDir() + ": " + e.getMessage(), "choose a writable --report-dir");
        }
        return report;
    }

    /** The command line of a child worker: this JVM's classpath and memory options, the run's options, its shard. */
    private static List<String> command(KitRunner.Prepared whole, Path claims, int worker, Path dir) {
        KitRunner.Options o = whole.options();
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> given = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (String a : given) {
            if (a.startsWith("-Xm") || a.startsWith("-Xss") || a.startsWith("-XX:") || a.startsWith("-Dndk.") || a.startsWith("-Dfile.encoding")) {
                c.add(a);
            }
        }
        // a worker of a short run spends most of its CPU time starting up and compiling: the quick compiler alone
        // and the serial collector leave more of the machine to the properties (BENCHMARKS.md, "Parallel runs");
        // a deep run keeps the optimizing compiler, which pays off over minutes
        if (o.profile() != org.ndktck.tck.harness.TckConfig.Profile.DEEP && given.stream().noneMatch(a -> a.startsWith("-XX:TieredStopAtLevel"))) {
            c.add("-XX:TieredStopAtLevel=1");
        }
        if (given.stream().noneMatch(a -> a.startsWith("-XX:+Use") && a.endsWith("GC"))) {
            c.add("-XX:+UseSerialGC");
        }
        if (o.timeBudgetMillis() != null) {
            // the worker's budget is the run's: counted from the start of this (the parent's) command
            c.add("-D" + org.ndktck.tck.harness.TimeBudget.START + "=" + whole.budgetStartMillis());
        }
        c.add("-cp");
        c.add(System.getProperty("java.class.path"));
        c.add(NdkTckCommand.class.getName());
        c.add("run");
        c.add("--provider");
        c.add(o.provider());
        for (Path j : o.providerJars()) {
            c.add("--provider-jar");
            c.add(j.toString());
        }
        o.settings().forEach((k, v) -> {
            c.add("--set");
            c.add(k + "=" + v);
        });
        if (o.rules() != null) {
            c.add("--rules");
            c.add(o.rules());
        }
        c.add("--profile");
        c.add(o.profile().name().toLowerCase(Locale.ROOT));
        if (o.tries() != null) {
            c.add("--tries");
            c.add(o.tries().toString());
        }
        c.add("--seed");
        c.add(Long.toString(whole.seed()));
        c.add("--timeout-factor");
        c.add(Double.toString(o.timeoutFactor()));
        if (o.strict()) {
            c.add("--strict");
        }
        if (o.exclusions() != null) {
            c.add("--exclusions");
            c.add(o.exclusions().toString());
        }
        c.add("--today");
        c.add(o.today().toString());
        c.add("--kit-package");
        c.add(o.kitPackage());
        if (o.propertyTimeoutMillis() != null) {
            c.add("--property-timeout");
            c.add(Double.toString(o.propertyTimeoutMillis() / 1000.0));
        }
        if (o.timeBudgetMillis() != null) {
            c.add("--time-budget");
            c.add(Double.toString(o.timeBudgetMillis() / 1000.0));
        }
        if (o.shard() != null) {
            c.add("--shard");
            c.add(o.shard().toString());
        }
        c.add("--claims");
        c.add(claims.toAbsolutePath().toString());
        c.add("--worker");
        c.add(Integer.toString(worker));
        c.add("--jobs");
        c.add("1");
        c.add("--report-dir");
        c.add(dir.toAbsolutePath().toString());
        c.add("--progress");
        c.add("plain");
        return c;
    }

    /** Hands a child's progress lines to the console as finished properties; the rest of its output is dropped. */
    private static void relay(Process child, Map<String, PropertyInfo> byId, Console console) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                PropertyOutcome o = progress(line, byId);
                if (o != null) {
                    console.finished(o);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the worker's report, not its progress, carries the verdicts
        }
    }

    /**
     * @param line a line of a worker's plain progress
     * @param byId the run's planned properties by {@code Class#method}
     * @return the finished property it reports (status, tries and time), or null for any other line
     */
    static PropertyOutcome progress(String line, Map<String, PropertyInfo> byId) {
        Matcher m = PROGRESS.matcher(line);
        if (!m.matches()) {
            return null;
        }
        PropertyInfo p = byId.get(m.group(3));
        if (p == null) {
            return null;
        }
        String text = m.group(1).trim();
        String status;
        String message = "";
        if (text.equals("ok")) {
            status = "SUCCESSFUL";
        } else if (text.equals("FAILED") || text.startsWith("cut short")) {
            status = "FAILED";
        } else if (text.equals("TIMED OUT")) {
            status = PropertyOutcome.TIMED_OUT;
        } else if (text.equals("not applicable")) {
            status = "SKIPPED";
            message = org.ndktck.tck.harness.KitLifecycle.NOT_APPLICABLE + "(in a worker)";
        } else {
            status = text.toUpperCase(Locale.ROOT);
        }
        long millis = Math.round(Double.parseDouble(m.group(5)) * 1000);
        return new PropertyOutcome(p, status, Integer.parseInt(m.group(4)), 0, "", millis, message, null, "", 0);
    }

    /** Merges the workers' reports into the report of the whole run. */
    private static RunReport merge(KitRunner.Prepared whole, List<Path> dirs, Path claims, List<String> extraNotes, int[] exits,
                                   Instant startedAt, long start) {
        KitRunner.Options o = whole.options();
        List<RunReport> reports = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean lost = false;
        for (int k = 1; k <= dirs.size(); k++) {
            Path f = dirs.get(k - 1).resolve(ReportWriter.JSON);
            try {
                reports.add(ReportWriter.read(f));
            } catch (IOException | RuntimeException e) {
                lost = true;
                notes.add("worker " + k + " of " + dirs.size() + " ended"
                        + (exits[k - 1] != 0 ? " with exit code " + exits[k - 1] : "") + " without a report; the rules of the"
                        + " properties it had claimed are UNTESTED (its output is in " + dirs.get(k - 1) + ")");
            }
        }
        if (reports.isEmpty()) {
            throw new IllegalStateException("no worker wrote a report: " + String.join("; ", notes));
        }
        RunReport m = ReportMerger.merge(reports, o.strict());
        for (String n : m.notes()) {
            if (!n.startsWith("missing shards ") && !n.equals("a shard was given more than once") && !KitRunner.Prepared.isBudgetNote(n)) {
                notes.add(n);
            }
        }
        notes.addAll(extraNotes);
        if (o.timeBudgetMillis() != null) {
            // each worker counted its own properties: one note for the whole run instead
            long limited = m.properties().stream().filter(RunReport.PropertyReport::budgetLimited).count();
            notes.add(KitRunner.Prepared.budgetNote(o.timeBudgetMillis(), limited, whole.planned().size()));
        }
        List<RunReport.RuleReport> rules = Unclaimed.untested(m.rules(), whole.planned(), m.properties(), claims, notes);
        lost |= rules != m.rules();
        long tries = m.properties().stream().mapToLong(RunReport.PropertyReport::tries).sum();
        long propMillis = m.properties().stream().mapToLong(RunReport.PropertyReport::durationMillis).sum();
        int exit = Summaries.exitCode(rules, m.strict());
        exit = lost ? Math.max(1, exit) : exit;
        return new RunReport(m.format(), m.kit(), m.provider(), m.seed(), o.seed() != null, m.profile(), m.tries(),
                m.timeoutFactor(), m.strict(), m.rulesPattern(),
                o.shard() == null ? null : new RunReport.ShardInfo(o.shard().index(), o.shard().count()), List.of(),
                startedAt.toString(), (System.nanoTime() - start) / 1_000_000, m.triesPerSecond(),
                Summaries.summarize(rules, tries, propMillis), m.exclusions(), notes, whole.replay(null), exit, rules, m.properties());
    }
}
