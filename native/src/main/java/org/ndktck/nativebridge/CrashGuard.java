package org.ndktck.nativebridge;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.runner.Replay;

/**
 * Keeps a run's results when the C provider crashes the process (a segmentation fault in the library takes
 * the whole JVM with it, as JNA cannot catch it). {@code ./ndk-tck run --provider native ...} runs the kit in
 * a child JVM with the same arguments; the bridge notes in a journal which property's rules run
 * ({@link CrashJournal}). When the child dies of a signal, the guard:
 * <ol>
 *   <li>names the rules of the property that was running as crashed,</li>
 *   <li>runs the kit again in a fresh child with the same seed and those rules excluded, as often as needed
 *       (each crash excludes one more property's rules),</li>
 *   <li>rewrites the last report: each crashed rule is FAIL with a message saying the provider crashed in its
 *       property, and the command that replays it ({@code --rules ID --seed S --set crashGuard=on}).</li>
 * </ol>
 * A crash before any property ran (while loading or configuring the library) is exit 2 with one line. The
 * JVM's crash log (hs_err) goes to the report directory. {@code --set crashGuard=off} runs in-process.
 */
final class CrashGuard {
    /** Environment variable set in the child: the child runs the kit itself. */
    static final String CHILD_ENV = "NDK_TCK_NATIVE_CHILD";
    /** At most this many crashes are survived in one run. */
    static final int MAX_CRASHES = 32;

    private final List<String> args;
    private final PrintStream out;
    private final PrintStream err;

    CrashGuard(String[] args, PrintStream out, PrintStream err) {
        this.args = List.of(args);
        this.out = out;
        this.err = err;
    }

    /** @return true for {@code run --provider native} without {@code crashGuard=off}, outside a guarded child */
    static boolean applies(String[] args, Map<String, String> env) {
        if (args.length == 0 || !args[0].equals("run") || env.containsKey(CHILD_ENV)) {
            return false;
        }
        String provider = value(List.of(args), "--provider");
        if (!NativeProvider.NAME.equals(provider)) {
            return false;
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String set = a.startsWith("--set=") ? a.substring(6) : a.equals("--set") && i + 1 < args.length ? args[i + 1] : null;
            if (set != null && set.replace(" ", "").equals(NativeProvider.CRASH_GUARD + "=off")) {
                return false;
            }
            // a library in a host process cannot crash the kit: no child JVM needed
            if (set != null && (set.replace(" ", "").equals(NativeProvider.ISOLATION + "=process")
                    || set.replace(" ", "").startsWith(NativeProvider.SANITIZER + "=") && !set.replace(" ", "").equals(NativeProvider.SANITIZER + "=none"))) {
                return false;
            }
            if (a.equals("--help") || a.equals("-h")) {
                return false;
            }
        }
        return true;
    }

    /** @return the value of option {@code name} ({@code --name V} or {@code --name=V}), the last one given, or null */
    static String value(List<String> args, String name) {
        String v = null;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals(name) && i + 1 < args.size()) {
                v = args.get(i + 1);
            } else if (args.get(i).startsWith(name + "=")) {
                v = args.get(i).substring(name.length() + 1);
            }
        }
        return v;
    }

    /** @return the child's exit code, or 1 when a crash was reported as FAIL, 2 when the library crashed at setup */
    int run() {
        Path reportDir = Path.of(value(args, "--report-dir") != null ? value(args, "--report-dir") : "target/ndk-tck-report");
        List<String> base = new ArrayList<>(args);
        if (value(args, "--seed") == null) {
            base.add("--seed");
            base.add(Long.toString(ThreadLocalRandom.current().nextLong(1L << 53)));
        }
        // one worker: the crash journal and the crash log belong to one child JVM (a second worker's crash
        // would otherwise be reported as that worker's rules UNTESTED, not as the crashed rule's FAIL)
        removeOption(base, "--jobs");
        base.add("--jobs");
        base.add("1");
        Map<String, String> crashed = new LinkedHashMap<>(); // rule -> what happened
        String userExclusions = value(args, "--exclusions");
        for (int attempt = 0; attempt <= MAX_CRASHES; attempt++) {
            Path journal;
            Path exclusions = null;
            try {
                Files.createDirectories(reportDir);
                journal = Files.createTempFile("ndk-tck-native-journal", ".txt");
                if (!crashed.isEmpty()) {
                    exclusions = exclusionsFile(userExclusions, crashed.keySet());
                }
            } catch (IOException e) {
                err.println("ndk-tck run: cannot prepare the native crash guard: " + e.getMessage()
                        + " (hint: --set crashGuard=off runs without it)");
                return 2;
            }
            List<String> childArgs = new ArrayList<>(base);
            if (exclusions != null) {
                removeOption(childArgs, "--exclusions");
                childArgs.add("--exclusions");
                childArgs.add(exclusions.toString());
            }
            long[] pid = {-1};
            int code = runChild(childArgs, journal, reportDir, pid);
            List<String> lines = readLines(journal);
            deleteQuietly(journal);
            if (exclusions != null) {
                deleteQuietly(exclusions);
            }
            // the JVM that dies of a signal in native code writes its crash log (and exits 1 without a core dump)
            Path crashLog = reportDir.toAbsolutePath().resolve("hs_err_pid" + pid[0] + ".log");
            boolean crashedNow = Files.exists(crashLog) || code < 0 || code > 3;
            if (!crashedNow) {
                if (!crashed.isEmpty()) {
                    return rewrite(reportDir, crashed, code);
                }
                return code;
            }
            String rules = lines.isEmpty() ? "" : lines.get(lines.size() - 1).replaceFirst("^rules ", "").trim();
            String how = describeExit(code) + ", crash log " + crashLog;
            if (rules.isEmpty()) {
                err.println("ndk-tck run: the native provider's library crashed the kit (" + how + ") before any property ran"
                        + " (hint: the crash log is in " + reportDir + "; check NdkTckGetProviderInfo / NdkTckConfigure / NdkTckOpenAdapter)");
                return 2;
            }
            Set<String> ids = new LinkedHashSet<>(List.of(rules.split(",")));
            boolean fresh = false;
            for (String id : ids) {
                fresh |= crashed.putIfAbsent(id, "the provider process crashed (" + how + ") while a property of "
                        + String.join(", ", ids) + " ran; the kit ran the other rules again in a fresh process"
                        ) == null;
            }
            err.println("ndk-tck run: the native provider crashed (" + how + ") while a property of " + String.join(", ", ids)
                    + " ran: " + (ids.size() == 1 ? "that rule is" : "those rules are") + " FAIL; running the other rules again in a fresh process");
            if (!fresh) {
                err.println("ndk-tck run: the provider crashed again in a rule already excluded; giving up (hint: --set crashGuard=off)");
                return 3;
            }
        }
        err.println("ndk-tck run: the native provider crashed " + MAX_CRASHES + " times; giving up");
        return 1;
    }

    private int runChild(List<String> childArgs, Path journal, Path reportDir, long[] pid) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:ErrorFile=" + reportDir.toAbsolutePath().resolve("hs_err_pid%p.log"));
        cmd.add("-XX:-CreateCoredumpOnCrash");
        // the child gets this JVM's options (NDK_TCK_JAVA_OPTS of ./ndk-tck: heap size, system properties)
        for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-XX:ErrorFile") && !a.startsWith("-agentlib") && !a.startsWith("-javaagent")) {
                cmd.add(a);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("org.ndktck.tck.runner.NdkTckCommand");
        cmd.addAll(childArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put(CHILD_ENV, "1");
        pb.environment().put(CrashJournal.ENV, journal.toString());
        try {
            Process p = pb.start();
            pid[0] = p.pid();
            while (true) {
                try {
                    return p.waitFor();
                } catch (InterruptedException e) {
                    p.destroy();
                }
            }
        } catch (IOException e) {
            err.println("ndk-tck run: cannot start the kit's child process: " + e.getMessage() + " (hint: --set crashGuard=off)");
            return 2;
        }
    }

    /** @return how a child ended that did not exit with one of the kit's codes */
    static String describeExit(int code) {
        if (code == 1 || code == 134) {
            return "a fatal signal in native code, e.g. a segmentation fault; the JVM exited with code " + code;
        }
        if (code > 128 && code < 160) {
            return "exit code " + code + ": killed by signal " + (code - 128);
        }
        return "exit code " + code;
    }

    private static Path exclusionsFile(String user, Set<String> rules) throws IOException {
        StringBuilder sb = new StringBuilder("# written by the native crash guard\n");
        if (user != null) {
            sb.append(Files.readString(Path.of(user), StandardCharsets.UTF_8)).append('\n');
        }
        for (String r : rules) {
            sb.append(r).append(" | 9999-12-31 | the native provider crashed in a property of this rule\n");
        }
        Path f = Files.createTempFile("ndk-tck-native-crashed", ".txt");
        Files.writeString(f, sb.toString(), StandardCharsets.UTF_8);
        return f;
    }

    /** Rewrites the reports: each crashed rule becomes FAIL with the crash and its replay command. */
    private int rewrite(Path reportDir, Map<String, String> crashed, int childCode) {
        Path json = reportDir.resolve(ReportWriter.JSON);
        RunReport r;
        try {
            r = ReportWriter.read(json);
        } catch (IOException e) {
            err.println("ndk-tck run: the native provider crashed in " + crashed.keySet() + ", and the rerun wrote no report ("
                    + e.getMessage() + ")");
            return Math.max(childCode, 1);
        }
        List<RunReport.RuleReport> rules = new ArrayList<>();
        int changed = 0;
        for (RunReport.RuleReport rule : r.rules()) {
            String why = crashed.get(rule.id());
            if (why == null) {
                rules.add(rule);
                continue;
            }
            changed += "FAIL".equals(rule.verdict()) ? 0 : 1;
            String replay = Replay.command(r.provider().name(), r.provider().jars().stream().map(Path::of).toList(),
                    r.provider().settingsGiven(), r.profile(), r.tries(), r.timeoutFactor(),
                    r.kit().kitPackage(), rule.id(), r.seed());
            rules.add(new RunReport.RuleReport(rule.id(), rule.title(), rule.function(), rule.strength(), rule.check(), "FAIL",
                    true, rule.tries(), rule.checks(), rule.durationMillis(), rule.triesPerSecond(), why, null,
                    Long.toString(r.seed()), replay, rule.properties(), rule.advisories()));
        }
        RunReport.Summary s = r.summary();
        long excluded = r.rules().stream().filter(x -> crashed.containsKey(x.id()) && "EXCLUDED".equals(x.verdict())).count();
        RunReport.Summary summary = s == null ? null : new RunReport.Summary(s.rules(), s.passed(), s.failed() + changed,
                s.advisory(), s.notApplicable(), s.notTestable(), s.untested(), (int) Math.max(0, s.excluded() - excluded),
                s.tries(), s.propertyMillis(), s.triesPerSecond());
        List<RunReport.ExclusionNote> exclusions = r.exclusions().stream().filter(x -> !crashed.containsKey(x.rule())).toList();
        List<String> notes = new ArrayList<>(r.notes());
        notes.add("native crash guard: the provider crashed in " + String.join(", ", crashed.keySet())
                + "; those rules are FAIL and the other rules were run again in a fresh process with the same seed");
        int exit = Math.max(1, childCode);
        RunReport fixed = new RunReport(r.format(), r.kit(), r.provider(), r.seed(), r.seedGiven(), r.profile(), r.tries(),
                r.timeoutFactor(), r.strict(), r.rulesPattern(), r.shard(), r.mergedShards(), r.startedAt(), r.durationMillis(),
                r.triesPerSecond(), summary, exclusions, notes, r.replay(), exit, rules, r.properties());
        try {
            ReportWriter.write(fixed, reportDir, true);
        } catch (IOException e) {
            err.println("ndk-tck run: cannot rewrite the reports in " + reportDir + ": " + e.getMessage());
            return 3;
        }
        for (RunReport.RuleReport rule : rules) {
            if (crashed.containsKey(rule.id())) {
                out.println("FAIL " + rule.id() + " (" + rule.strength() + "): " + rule.message());
                out.println("  replay: " + rule.replay());
            }
        }
        if (summary != null) {
            out.println("Rules after the crash guard: " + summary.passed() + " PASS, " + summary.failed() + " FAIL, "
                    + summary.excluded() + " EXCLUDED (of " + summary.rules() + "); reports rewritten in " + reportDir);
        }
        out.println("Result: FAIL (exit " + exit + ")");
        return exit;
    }

    private static void removeOption(List<String> list, String name) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).equals(name) && i + 1 < list.size()) {
                list.remove(i + 1);
                list.remove(i);
                i--;
            } else if (list.get(i).startsWith(name + "=")) {
                list.remove(i);
                i--;
            }
        }
    }

    private static List<String> readLines(Path f) {
        try {
            return Files.readAllLines(f, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // a temp file
        }
    }
}
