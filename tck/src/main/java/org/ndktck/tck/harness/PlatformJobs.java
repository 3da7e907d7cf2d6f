package org.ndktck.tck.harness;

import net.jqwik.api.lifecycle.PropertyExecutionResult;
import org.ndktck.tck.RunLedger;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * {@code ndk.tck.jobs} on the JUnit Platform route (a provider's own Maven build, an IDE). With a value N above 1
 * the kit's properties of a run (a test plan, or one {@code @Suite}) run in N worker JVMs that share them by
 * claims ({@link PropertyClaims}), as {@code ./ndk-tck run --jobs N} does, and the build's own test JVM
 * <em>mirrors</em> them: each property, when jqwik reaches it, waits for its worker's outcome
 * ({@link WorkerOutcome}) and ends as it ended there, with its tries, seed, failure and advisories. So Surefire
 * counts every property as its own test, a failure fails the build with the worker's message, the kit's reports
 * ({@code target/ndk-tck-report}) are those of one run with the same seed, and a provider that hangs, throws or
 * ends its JVM in one worker does not change the verdicts of another worker's properties.
 *
 * <p>The workers are {@code java -cp <this JVM's classpath> org.ndktck.tck.runner.NdkTckCommand run ...} with the
 * run's provider, settings, seed, profile, tries and timeout factor and the rules of the run's properties; their
 * reports and output stay in {@code <ndk.tck.reportDir>/workers/K}. A property whose worker ended without its
 * outcome fails ("the worker JVM ended"); when no worker is left, the remaining properties run in this JVM.
 *
 * <p>Default 1 (no workers: the properties run one after another in this JVM). A value that is not a whole number
 * of at least 1 is reported once and treated as 1.
 */
public final class PlatformJobs {
    /** The configuration parameter (and system property). */
    public static final String KEY = "ndk.tck.jobs";
    /** The kit runner's main class, which the workers run. */
    static final String MAIN = "org.ndktck.tck.runner.NdkTckCommand";

    private static Workers active;

    private PlatformJobs() {
    }

    /** The worker JVMs of the current run. */
    private record Workers(Path claims, List<Process> processes) {
    }

    /**
     * @param parameters the run's configuration parameters (a suite's first)
     * @return the notice when {@code ndk.tck.jobs} is set to something that is not a whole number of at least 1
     */
    public static Optional<String> notice(Function<String, Optional<String>> parameters) {
        Optional<String> v = value(parameters);
        if (v.isEmpty() || jobs(v.get()) > 0) {
            return Optional.empty();
        }
        return Optional.of("ndk-tck: " + KEY + "=" + v.get().trim() + " is not a whole number of at least 1; the properties run "
                + "one after another in this test JVM (jobs 1)");
    }

    private static Optional<String> value(Function<String, Optional<String>> parameters) {
        return parameters.apply(KEY).or(() -> Optional.ofNullable(System.getProperty(KEY))).filter(s -> !s.isBlank());
    }

    private static int jobs(String text) {
        try {
            int n = Integer.parseInt(text.trim());
            return n >= 1 ? n : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Starts the workers of a run, after stopping those of the run before it.
     *
     * @param parameters the run's configuration parameters
     * @param rules      the rules of the run's kit properties (empty: no kit property, no workers)
     * @param reportDir  the run's report directory; the workers' go below it, in {@code workers/K}
     */
    public static synchronized void startRun(Function<String, Optional<String>> parameters, Collection<String> rules,
                                             Path reportDir) {
        stop();
        int n = value(parameters).map(PlatformJobs::jobs).orElse(1);
        if (n <= 1 || rules.isEmpty()) {
            return;
        }
        TckConfig c;
        try {
            c = TckConfig.current();
        } catch (RuntimeException e) {
            return; // a bad configuration: the properties report it in this JVM
        }
        Path root = reportDir.resolve("workers").toAbsolutePath();
        Path claims = root.resolve("claims");
        List<Process> processes = new ArrayList<>();
        try {
            PropertyClaims.prepare(claims);
            for (int k = 1; k <= n; k++) {
                Path dir = root.resolve(Integer.toString(k));
                Files.createDirectories(dir);
                ProcessBuilder pb = new ProcessBuilder(command(c, new TreeSet<>(rules), claims, k, dir));
                pb.redirectErrorStream(true);
                pb.redirectOutput(dir.resolve("output.txt").toFile());
                processes.add(pb.start());
            }
        } catch (IOException | RuntimeException e) {
            processes.forEach(Process::destroyForcibly);
            System.err.println("ndk-tck: " + KEY + "=" + n + ": could not start the worker JVMs (" + e.getMessage()
                    + "); the properties run in this JVM");
            return;
        }
        active = new Workers(claims, processes);
    }

    /**
     * Ends the workers of the current run, if any (the end of a run or of the test plan): a worker that is done
     * with its properties writes its report and ends by itself within a few seconds; one that still runs
     * properties this run did not select is stopped (its shutdown hook writes what it finished), and killed
     * if it does not end.
     */
    public static synchronized void stop() {
        if (active == null) {
            return;
        }
        List<Process> ps = active.processes();
        active = null;
        waitFor(ps, 5);
        ps.forEach(Process::destroy);
        waitFor(ps, 5);
        ps.forEach(Process::destroyForcibly);
    }

    private static void waitFor(List<Process> ps, long seconds) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        for (Process p : ps) {
            try {
                p.waitFor(Math.max(0, end - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static List<String> command(TckConfig c, Set<String> rules, Path claims, int k, Path dir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-Xm") || a.startsWith("-Xss")) {
                cmd.add(a);
            }
        }
        if (c.profile() != TckConfig.Profile.DEEP) {
            cmd.add("-XX:TieredStopAtLevel=1"); // as ./ndk-tck does for short runs (BENCHMARKS.md)
        }
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MAIN);
        cmd.add("run");
        cmd.add("--provider");
        cmd.add(c.provider());
        c.settings().forEach((key, v) -> {
            cmd.add("--set");
            cmd.add(key + "=" + v);
        });
        cmd.add("--rules");
        cmd.add(String.join(",", rules));
        cmd.add("--profile");
        cmd.add(c.profile().name().toLowerCase(Locale.ROOT));
        c.tries().ifPresent(t -> {
            cmd.add("--tries");
            cmd.add(Integer.toString(t));
        });
        cmd.add("--seed");
        cmd.add(Long.toString(c.seed()));
        cmd.add("--timeout-factor");
        cmd.add(Double.toString(c.timeoutFactor()));
        cmd.add("--claims");
        cmd.add(claims.toString());
        cmd.add("--worker");
        cmd.add(Integer.toString(k));
        cmd.add("--jobs");
        cmd.add("1");
        cmd.add("--report-dir");
        cmd.add(dir.toString());
        cmd.add("--progress");
        cmd.add("none");
        cmd.add("--quiet");
        return cmd;
    }

    /**
     * The property's result as a worker ended it, when this run has workers: waits until a worker wrote the
     * outcome, records it in the {@link RunLedger} as the property's own run would, and returns it.
     *
     * @param propertyId {@code Class#method}
     * @param ruleIds    the property's rules
     * @return the mirrored result, or empty when this JVM must run the property itself (no workers, or none left
     *     alive and none had claimed it)
     */
    public static Optional<PropertyExecutionResult> mirror(String propertyId, Set<String> ruleIds) {
        Workers w;
        synchronized (PlatformJobs.class) {
            w = active;
        }
        if (w == null) {
            return Optional.empty();
        }
        while (true) {
            Optional<WorkerOutcome> o = WorkerOutcome.read(w.claims(), propertyId);
            if (o.isPresent()) {
                WorkerOutcome out = o.get();
                RunLedger.PropertyRecord rec = out.record(ruleIds);
                out.advisories().forEach(a -> RunLedger.advisory(a.ruleId(), a.message()));
                RunLedger.record(rec);
                return Optional.of(MirroredResult.of(rec));
            }
            Optional<String> owner = PropertyClaims.owner(w.claims(), propertyId);
            if (owner.isPresent()) {
                Process p = w.processes().get(Integer.parseInt(owner.get()) - 1);
                if (!p.isAlive() && WorkerOutcome.read(w.claims(), propertyId).isEmpty()) {
                    String msg = "the worker JVM " + owner.get() + " that ran this property ended (exit code " + p.exitValue()
                            + ") before the property did; its output is in " + w.claims().resolveSibling(owner.get());
                    WorkerOutcome lost = new WorkerOutcome(propertyId, "FAILED", 0, 0, "", 0, msg, "", null, null, null, null);
                    RunLedger.PropertyRecord rec = lost.record(ruleIds);
                    RunLedger.record(rec);
                    return Optional.of(MirroredResult.of(rec));
                }
            } else if (w.processes().stream().noneMatch(Process::isAlive)) {
                return Optional.empty();
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }
}
