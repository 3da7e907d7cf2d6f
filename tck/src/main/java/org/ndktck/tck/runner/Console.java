package org.ndktck.tck.runner;

import org.ndktck.tck.report.FailureCauses;
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
    private final int totalProperties;
    private int doneProperties;
    private volatile String current = "";
    private int lastWidth;
    private long lastTick;
    /** Set-up errors seen, by {@link Catches.FirstFailure#describe()}, with how many properties met each. */
    private final Map<String, Integer> setupAgain = new java.util.LinkedHashMap<>();

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
        this.totalProperties = planned.size();
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
        doneProperties++;
        String status = switch (o.status()) {
            case "SUCCESSFUL" -> "ok";
            case "FAILED" -> Verdicts.cutShortByOtherRules(o)
                    ? "cut short by " + String.join(",", Failures.violatedRules(o.failure())) + ":" : "FAILED";
            case PropertyOutcome.TIMED_OUT -> "TIMED OUT";
            default -> o.notApplicable() ? "not applicable" : o.status().toLowerCase(Locale.ROOT);
        };
        int width = Integer.toString(totalProperties).length();
        String line = String.format(Locale.ROOT, "[%" + width + "d/%d properties] %-9s %s  %s  %d tries  %.1f s  (elapsed %s)",
                Math.min(doneProperties, totalProperties), totalProperties, status, String.join(",", o.property().ruleIds()), o.property().propertyId(),
                o.tries(), o.durationMillis() / 1000.0, elapsed());
        // a set-up error met again (the same call failing for property after property) is counted, not printed again
        String setup = setupCause(o);
        boolean again = setup != null && setupAgain.merge(setup, 1, Integer::sum) > 1;
        if (mode == Mode.PLAIN) {
            if (!again) {
                out.println(line);
            }
        } else if (mode == Mode.LINE) {
            clear();
            if (o.failed() && !again) {
                out.println(line);
            }
            current = "";
            redraw();
        }
    }

    /**
     * @param o a property outcome
     * @return {@code set-up error: } and its message's first line when it failed at the kit's set-up (in this JVM or in
     *     a worker, whose failure arrives as its message), else null
     */
    static String setupCause(PropertyOutcome o) {
        if (!o.failed()) {
            return null;
        }
        Catches.FirstFailure f = Catches.of(o);
        if (f != null && f.kind() == Catches.Kind.SETUP) {
            return f.describe();
        }
        String m = firstLine(o.message());
        return m.startsWith("kit set-up failed: ") ? "set-up error: " + m : null;
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
        }
        if (mode != Mode.NONE) {
            setupAgain.forEach((cause, n) -> {
                if (n > 1) {
                    out.println("(" + (n - 1) + " more " + plural(n - 1, "property", "properties") + " failed with the same "
                            + cause + ")");
                }
            });
        }
        if (mode == Mode.PLAIN && totalProperties > 0) {
            out.println();
        }
    }

    private void redraw() {
        lastTick = System.nanoTime();
        String s = String.format(Locale.ROOT, "[%d/%d properties] %s  %s", Math.min(doneProperties, totalProperties),
                totalProperties, elapsed(), current);
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
     * Prints the table, the failures and the summary of a report; NOT_TESTABLE and UNTESTED rules are
     * collapsed into one count line each.
     *
     * @param out       where
     * @param r         the report
     * @param reportDir where the reports were written, or null
     * @param quiet     whether to print only failing rules
     */
    public static void results(PrintStream out, RunReport r, Path reportDir, boolean quiet) {
        results(out, r, reportDir, quiet, false);
    }

    /**
     * Prints the table, the failures and the summary of a report.
     *
     * @param out       where
     * @param r         the report
     * @param reportDir where the reports were written, or null
     * @param quiet     whether to print only failing rules
     * @param verbose   whether the table lists every rule ({@code --verbose}); otherwise NOT_TESTABLE and
     *                  UNTESTED rules are collapsed into one count line each, which agrees with the summary
     */
    public static void results(PrintStream out, RunReport r, Path reportDir, boolean quiet, boolean verbose) {
        List<FailureCauses.FailureCause> causes = FailureCauses.of(r);
        // a cause that stops many rules (a set-up call that fails everywhere) is one line of the table, not one per rule
        Set<String> folded = new java.util.HashSet<>();
        List<FailureCauses.FailureCause> foldedCauses = verbose ? List.of()
                : causes.stream().filter(c -> !c.cause().startsWith("violation of ") && c.rules().size() > FOLD_AT).toList();
        foldedCauses.forEach(c -> folded.addAll(c.rules()));
        List<RunReport.RuleReport> rows = r.rules().stream().filter(x -> !folded.contains(x.id()))
                .filter(x -> quiet ? isFinding(x) : verbose || !COLLAPSED.contains(x.verdict()) || isFinding(x)).toList();
        if (!rows.isEmpty()) {
            int w = Math.max(4, rows.stream().mapToInt(x -> x.id().length()).max().orElse(4));
            String head = String.format(Locale.ROOT, "%-" + w + "s  %-11s  %-14s  %8s  %8s  %8s  ", "RULE", "STRENGTH", "VERDICT", "TRIES", "CHECKS", "TIME");
            out.println(head + "NOTE");
            int noteWidth = Math.max(40, TABLE_WIDTH - head.length());
            for (RunReport.RuleReport x : rows) {
                String note = x.verdict().equals("PASS") && !x.budgetLimited() ? "" : withoutRulePrefix(x.id(), firstLine(x.message()));
                List<String> parts = wrap(note, noteWidth, 3);
                // CHECKS: the tries whose check of the rule reached an outcome (checksRun)
                out.printf(Locale.ROOT, "%-" + w + "s  %-11s  %-14s  %8d  %8d  %7.2fs  %s%n", x.id(), x.strength().replace('_', ' '),
                        x.verdict(), x.tries(), x.checksRun(), x.durationMillis() / 1000.0, parts.isEmpty() ? "" : parts.get(0));
                for (int i = 1; i < parts.size(); i++) {
                    out.println(" ".repeat(head.length()) + parts.get(i));
                }
            }
        }
        for (FailureCauses.FailureCause c : foldedCauses) {
            out.println("(" + counts(c) + " not shown: " + c.cause() + "; listed once below)");
        }
        if (!quiet && !verbose) {
            long notTestable = r.rules().stream().filter(x -> x.verdict().equals("NOT_TESTABLE")).count();
            long untested = r.rules().stream().filter(x -> x.verdict().equals("UNTESTED")).count();
            long notSelected = r.rules().stream().filter(x -> x.verdict().equals("UNTESTED") && !x.selected()).count();
            if (notTestable > 0) {
                out.println("(" + notTestable + " NOT_TESTABLE " + plural(notTestable, "rule", "rules") + " not shown: consumer "
                        + "obligations the kit honours, informational, or not observable from outside; see report.html or --verbose)");
            }
            long cutShort = r.rules().stream().filter(x -> x.verdict().equals("UNTESTED") && x.message() != null
                    && x.message().startsWith("cut short: ")).count();
            if (untested > 0) {
                String why = notSelected == untested ? ": not selected in this run"
                        : notSelected > 0 ? " (" + notSelected + " of them not selected in this run)"
                        : cutShort > 0 ? " (" + cutShort + " of them cut short: their properties stopped at another rule's failure)" : "";
                out.println("(" + untested + " UNTESTED " + plural(untested, "rule", "rules") + " not shown" + why
                        + "; see report.html or --verbose)");
            }
        }
        if (!rows.isEmpty() || !quiet) {
            out.println();
        }
        // a counterexample (or action chain) shown once: a later rule with the same one refers to the first
        java.util.Map<String, String> shown = new java.util.HashMap<>();
        Map<String, FailureCauses.FailureCause> grouped = new HashMap<>();
        for (FailureCauses.FailureCause c : causes) {
            if (c.rules().size() > 1 || c.properties().size() > 1 && c.setup()) {
                c.rules().forEach(id -> grouped.put(id, c));
            }
        }
        for (RunReport.RuleReport x : r.rules()) {
            if (!isFinding(x)) {
                continue;
            }
            FailureCauses.FailureCause cause = grouped.get(x.id());
            if (cause != null) {
                if (x.id().equals(cause.rule())) {
                    printCause(out, r, cause, x, shown);
                }
                continue;
            }
            out.println(x.verdict() + " " + x.id() + " (" + x.strength().replace('_', ' ') + ")"
                    + (x.title() == null || x.title().isBlank() ? "" : ": " + x.title()));
            indent(out, onceEach(x.id(), x.message(), shown), 40);
            if (x.counterexample() != null) {
                String key = "cx " + x.seed() + " " + x.counterexample();
                String first = shown.putIfAbsent(key, x.id());
                out.println("    counterexample: " + (first == null ? firstLine(x.counterexample())
                        : "the same as " + first + "'s above"));
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
        List<RunReport.SlowProperty> slow = r.slowestProperties();
        if (!slow.isEmpty()) {
            out.println("Slowest: " + slow.stream().limit(3).map(p -> String.format(Locale.ROOT, "%s %.1f s (%.0f %%)",
                    p.property(), p.durationMillis() / 1000.0, p.share() * 100)).collect(java.util.stream.Collectors.joining(", ")));
        }
        if (reportDir != null) {
            out.println("Reports: " + reportDir.resolve(ReportWriter.JSON) + ", " + reportDir.resolve(ReportWriter.HTML)
                    + ", " + reportDir.resolve(ReportWriter.JUNIT));
        }
        out.println("Result: " + (r.exitCode() == 0 ? "PASS" : "FAIL") + " (exit " + r.exitCode() + ")"
                + (r.exitCode() != 0 && r.strict() && s.failed() == 0 ? ": ADVISORY fails under --strict" : ""));
    }

    /**
     * @param id      the rule whose message this is
     * @param message a failure message
     * @param shown   lines of action chains already printed, to the rule that printed them
     * @return the message with each {@code after the steps: [...]} line printed before replaced by a reference
     */
    static String onceEach(String id, String message, java.util.Map<String, String> shown) {
        if (message == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (String line : message.split("\n", -1)) {
            String t = line.strip();
            if (t.startsWith("after the steps: [")) {
                String first = shown.putIfAbsent("steps " + t, id);
                if (first != null && !first.equals(id)) {
                    line = line.substring(0, line.indexOf("after the steps: ")) + "after the steps shown under " + first + " above";
                }
            }
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(line);
        }
        return sb.toString();
    }

    /**
     * @param id   the row's rule
     * @param note a message's first line
     * @return the line without a leading {@code [ID] STRENGTH:} or {@code ID:} (the row names the rule already)
     */
    static String withoutRulePrefix(String id, String note) {
        String q = java.util.regex.Pattern.quote(id);
        return note.replaceFirst("^\\[" + q + "\\]\\s*(?:(?:MUST|SHOULD|MAY)(?: NOT)?\\s*:)?\\s*", "")
                .replaceFirst("^" + q + ":\\s+", "");
    }

    /** A cause other than a rule violation that more rules than this report is one line of the table. */
    static final int FOLD_AT = 3;

    /**
     * Prints one cause that several rules report (or several properties met at set-up) once: the cause, the rules
     * under it, what to write first for a set-up error, then its first rule's message (a set-up error's message is
     * the cause itself and its counterexample is unrelated to it, so neither is repeated), seed and replay.
     */
    private static void printCause(PrintStream out, RunReport r, FailureCauses.FailureCause c, RunReport.RuleReport first,
                                   Map<String, String> shown) {
        String verdict = c.failedRules().isEmpty() ? "ADVISORY" : "FAIL";
        out.println(verdict + " " + c.cause());
        out.println("    one cause: " + counts(c) + ", met by " + c.properties().size() + " "
                + plural(c.properties().size(), "property", "properties"));
        if (!c.failedRules().isEmpty()) {
            wrap("FAIL: " + String.join(", ", c.failedRules()), TABLE_WIDTH - 4, 3).forEach(l -> out.println("    " + l));
        }
        if (!c.advisoryRules().isEmpty()) {
            wrap("ADVISORY: " + String.join(", ", c.advisoryRules()), TABLE_WIDTH - 4, 4).forEach(l -> out.println("    " + l));
        }
        if (c.implementFirst() != null) {
            wrap("write " + c.implementFirst() + " first: the kit cannot set up these rules' checks without it ("
                    + "`./ndk-tck rules --call " + c.implementFirst() + "` lists the rules it serves; docs/spi-calls.md ranks "
                    + "the SPI calls by how many rules need them)", TABLE_WIDTH - 4, 3).forEach(l -> out.println("    " + l));
        } else {
            indent(out, onceEach(first.id(), first.message(), shown), 40);
            if (first.counterexample() != null) {
                String key = "cx " + first.seed() + " " + first.counterexample();
                String was = shown.putIfAbsent(key, first.id());
                out.println("    counterexample: " + (was == null ? firstLine(first.counterexample())
                        : "the same as " + was + "'s above"));
            }
        }
        out.println("    first met by: " + c.properties().get(0));
        out.println("    seed: " + r.seed() + (first.seed() == null ? "" : " (property seed " + first.seed() + ")"));
        if (first.replay() != null) {
            out.println("    replay: " + first.replay());
        }
        out.println();
    }

    private static String counts(FailureCauses.FailureCause c) {
        List<String> parts = new java.util.ArrayList<>();
        if (!c.failedRules().isEmpty()) {
            parts.add(c.failedRules().size() + " FAIL");
        }
        if (!c.advisoryRules().isEmpty()) {
            parts.add(c.advisoryRules().size() + " ADVISORY");
        }
        return String.join(" and ", parts) + " " + plural(c.rules().size(), "rule", "rules");
    }

    /** Verdicts collapsed into a count line unless {@code --verbose}. */
    private static final Set<String> COLLAPSED = Set.of("NOT_TESTABLE", "UNTESTED");

    /** Width the table's NOTE column wraps to (the whole line, in characters). */
    static final int TABLE_WIDTH = 140;

    /**
     * @param n     a count
     * @param one   the singular
     * @param many  the plural
     * @return {@code one} when n is 1, else {@code many}
     */
    static String plural(long n, String one, String many) {
        return n == 1 ? one : many;
    }

    /**
     * Wraps text at spaces into lines of at most {@code width} characters (a word longer than that gets a line of
     * its own), at most {@code maxLines} lines; when text is left over the last line ends with an ellipsis after
     * a whole word.
     *
     * @param text     the text (one line)
     * @param width    characters per line, &gt; 0
     * @param maxLines lines at most, &gt; 0
     * @return the lines, empty for empty text
     */
    static List<String> wrap(String text, int width, int maxLines) {
        List<String> lines = new java.util.ArrayList<>();
        if (text == null || text.isBlank()) {
            return lines;
        }
        StringBuilder cur = new StringBuilder();
        String[] words = text.trim().split("\\s+");
        int i = 0;
        for (; i < words.length; i++) {
            String word = words[i];
            if (cur.length() > 0 && cur.length() + 1 + word.length() > width) {
                lines.add(cur.toString());
                cur.setLength(0);
                if (lines.size() == maxLines) {
                    break;
                }
            }
            if (cur.length() > 0) {
                cur.append(' ');
            }
            cur.append(word);
        }
        if (lines.size() < maxLines && cur.length() > 0) {
            lines.add(cur.toString());
        } else if (i < words.length) {
            String last = lines.get(lines.size() - 1);
            lines.set(lines.size() - 1, last + " \u2026");
        }
        return lines;
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
