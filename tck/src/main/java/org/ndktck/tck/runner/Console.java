package org.ndktck.tck.runner;

import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The runner's console: the effective configuration, progress while properties run (one line rewritten in
 * place on a terminal, plain lines otherwise, nothing with {@code --quiet}), then the table of rules, every
 * failure with its rule, strength, message, seed and replay command, and the summary.
 */
public final class Console implements KitExecution.Progress {
    /** How progress is shown. */
    public enum Mode {
        /** One line rewritten in place. */
        LINE,
        /** One line per finished property. */
        PLAIN,
        /** No progress. */
        NONE
    }

    private final PrintStream out;
    private final Mode mode;
    private final boolean quiet;
    private final long start = System.nanoTime();
    private final Map<String, Integer> remaining = new HashMap<>();
    private final int totalRules;
    private int doneRules;
    private volatile String current = "";
    private int lastWidth;
    private long lastTick;

    /**
     * @param out     where to print
     * @param mode    progress mode
     * @param quiet   whether to print only failures and the summary
     * @param planned the properties that will run
     * @param rules   the rules they run for
     */
    public Console(PrintStream out, Mode mode, boolean quiet, List<PropertyInfo> planned, Set<String> rules) {
        this.out = out;
        this.mode = quiet ? Mode.NONE : mode;
        this.quiet = quiet;
        for (PropertyInfo p : planned) {
            for (String r : p.ruleIds()) {
                if (rules.contains(r)) {
                    remaining.merge(r, 1, Integer::sum);
                }
            }
        }
        this.totalRules = remaining.size();
    }

    /** @return LINE when standard output is a terminal, else PLAIN */
    public static Mode detect() {
        return System.console() != null ? Mode.LINE : Mode.PLAIN;
    }

    /** @param lines the effective configuration */
    public void configuration(List<String> lines) {
        if (!quiet) {
            lines.forEach(out::println);
            out.println();
        }
    }

    @Override
    public synchronized void started(PropertyInfo property) {
        Set<String> rs = new LinkedHashSet<>(property.ruleIds());
        rs.retainAll(remaining.keySet());
        current = String.join(",", rs.isEmpty() ? property.ruleIds() : rs) + "  " + property.propertyId();
        if (mode == Mode.LINE) {
            redraw();
        }
    }

    @Override
    public synchronized void finished(PropertyOutcome o) {
        for (String r : o.property().ruleIds()) {
            Integer left = remaining.get(r);
            if (left != null) {
                remaining.put(r, left - 1);
                if (left - 1 == 0) {
                    doneRules++;
                }
            }
        }
        String status = switch (o.status()) {
            case "SUCCESSFUL" -> "ok";
            case "FAILED" -> "FAILED";
            case PropertyOutcome.TIMED_OUT -> "TIMED OUT";
            default -> o.notApplicable() ? "not applicable" : o.status().toLowerCase(Locale.ROOT);
        };
        String line = String.format(Locale.ROOT, "[%3d/%d rules] %-9s %s  %s  %d tries  %.1f s  (elapsed %s)",
                doneRules, totalRules, status, String.join(",", o.property().ruleIds()), o.property().propertyId(),
                o.tries(), o.durationMillis() / 1000.0, elapsed());
        if (mode == Mode.PLAIN) {
            out.println(line);
        } else if (mode == Mode.LINE) {
            clear();
            if (o.failed()) {
                out.println(line);
            }
            current = "";
            redraw();
        }
    }

    @Override
    public synchronized void tick() {
        if (mode == Mode.LINE && System.nanoTime() - lastTick > 1_000_000_000L) {
            redraw();
        }
    }

    /** Removes the progress line (before the table). */
    public synchronized void done() {
        if (mode == Mode.LINE) {
            clear();
        } else if (mode == Mode.PLAIN && totalRules > 0) {
            out.println();
        }
    }

    private void redraw() {
        lastTick = System.nanoTime();
        String s = String.format(Locale.ROOT, "[%d/%d rules] %s  %s", doneRules, totalRules, elapsed(), current);
        if (s.length() > 118) {
            s = s.substring(0, 117) + "\u2026";
        }
        out.print("\r" + s + " ".repeat(Math.max(0, lastWidth - s.length())));
        out.flush();
        lastWidth = s.length();
    }

    private void clear() {
        if (lastWidth > 0) {
            out.print("\r" + " ".repeat(lastWidth) + "\r");
            out.flush();
            lastWidth = 0;
        }
    }

    private String elapsed() {
        long s = (System.nanoTime() - start) / 1_000_000_000L;
        return String.format(Locale.ROOT, "%02d:%02d", s / 60, s % 60);
    }

    /**
     * Prints the table, the failures and the summary of a report.
     *
     * @param out       where
     * @param r         the report
     * @param reportDir where the reports were written, or null
     * @param quiet     whether to print only failing rules
     */
    public static void results(PrintStream out, RunReport r, Path reportDir, boolean quiet) {
        List<RunReport.RuleReport> rows = r.rules().stream()
                .filter(x -> quiet ? isFinding(x) : (x.selected() && !x.verdict().equals("NOT_TESTABLE")) || isFinding(x)).toList();
        long hidden = quiet ? 0 : r.rules().stream().filter(x -> x.selected() && x.verdict().equals("NOT_TESTABLE")).count();
        if (!rows.isEmpty()) {
            int w = Math.max(4, rows.stream().mapToInt(x -> x.id().length()).max().orElse(4));
            out.printf(Locale.ROOT, "%-" + w + "s  %-11s  %-14s  %8s  %8s  %s%n", "RULE", "STRENGTH", "VERDICT", "TRIES", "TIME", "NOTE");
            for (RunReport.RuleReport x : rows) {
                String note = x.verdict().equals("PASS") ? "" : firstLine(x.message());
                if (note.length() > 70) {
                    note = note.substring(0, 69) + "\u2026";
                }
                out.printf(Locale.ROOT, "%-" + w + "s  %-11s  %-14s  %8d  %7.2fs  %s%n", x.id(), x.strength().replace('_', ' '),
                        x.verdict(), x.tries(), x.durationMillis() / 1000.0, note);
            }
            if (hidden > 0) {
                out.println("(" + hidden + " NOT_TESTABLE rules not shown: consumer obligations the kit honours, informational, "
                        + "or not observable from outside; report.html lists them)");
            }
            out.println();
        }
        for (RunReport.RuleReport x : r.rules()) {
            if (!isFinding(x)) {
                continue;
            }
            out.println(x.verdict() + " " + x.id() + " (" + x.strength().replace('_', ' ') + ")"
                    + (x.title() == null || x.title().isBlank() ? "" : ": " + x.title()));
            indent(out, x.message(), 40);
            if (x.counterexample() != null) {
                out.println("    counterexample: " + firstLine(x.counterexample()));
            }
            out.println("    seed: " + r.seed() + (x.seed() == null ? "" : " (property seed " + x.seed() + ")"));
            if (x.replay() != null) {
                out.println("    replay: " + x.replay());
            }
            out.println();
        }
        r.notes().forEach(n -> out.println("note: " + n));
        RunReport.Summary s = r.summary();
        out.printf(Locale.ROOT, "Rules: %d PASS, %d FAIL, %d ADVISORY, %d NOT_APPLICABLE, %d NOT_TESTABLE, %d UNTESTED, %d EXCLUDED (of %d)%n",
                s.passed(), s.failed(), s.advisory(), s.notApplicable(), s.notTestable(), s.untested(), s.excluded(), s.rules());
        out.printf(Locale.ROOT, "Tries: %d in %.1f s of properties, %.1f tries/s; wall time %.1f s%n", s.tries(),
                s.propertyMillis() / 1000.0, s.triesPerSecond(), r.durationMillis() / 1000.0);
        if (reportDir != null) {
            out.println("Reports: " + reportDir.resolve(ReportWriter.JSON) + ", " + reportDir.resolve(ReportWriter.HTML)
                    + ", " + reportDir.resolve(ReportWriter.JUNIT));
        }
        out.println("Result: " + (r.exitCode() == 0 ? "PASS" : "FAIL") + " (exit " + r.exitCode() + ")"
                + (r.exitCode() != 0 && r.strict() && s.failed() == 0 ? ": ADVISORY fails under --strict" : ""));
    }

    private static boolean isFinding(RunReport.RuleReport x) {
        return x.verdict().equals("FAIL") || x.verdict().equals("ADVISORY");
    }

    private static void indent(PrintStream out, String text, int maxLines) {
        if (text == null) {
            return;
        }
        String[] lines = text.split("\n");
        for (int i = 0; i < Math.min(maxLines, lines.length); i++) {
            out.println("    " + lines[i]);
        }
        if (lines.length > maxLines) {
            out.println("    ... (" + (lines.length - maxLines) + " more lines in report.json)");
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
