package org.ndktck.tck.report;

import org.ndktck.tck.Verdict;

import java.util.List;

/** Verdict arithmetic shared by a run and a merge: counts, the worst of two verdicts, and the exit code. */
public final class Summaries {
    private Summaries() {
    }

    /**
     * How an UNTESTED message starts when the rule's properties in this run (or this worker) ran but none
     * completed: a time bound or the time budget stopped them. A merge lets a PASS of another worker win over it.
     */
    public static final String NOTHING_COMPLETED = "no property completed: ";
    /** How an UNTESTED message starts when none of the rule's properties ran in this run (or this worker). */
    public static final String NOTHING_RAN = "its properties did not run";
    /** The line a budget-limited UNTESTED message starts with, after {@code TimeBudget.LIMITED}. */
    public static final String BUDGET_RAN_OUT = "the time budget (the run's, or this property's share of it) ran out before its properties completed";

    /**
     * @param message an UNTESTED rule's message
     * @return whether it says only that its properties did not run or did not complete here (not that they were
     *     cut short by another rule's violation, nor that too few tries were judged)
     */
    public static boolean nothingCompleted(String message) {
        if (message == null) {
            return false;
        }
        int nl = message.indexOf('\n');
        String body = nl >= 0 && message.substring(0, nl).endsWith(BUDGET_RAN_OUT) ? message.substring(nl + 1) : message;
        return body.startsWith(NOTHING_COMPLETED) || body.startsWith(NOTHING_RAN);
    }

    /** Verdicts from worst to best, as a merge of shards ranks them. */
    private static final List<Verdict> WORST_FIRST = List.of(Verdict.FAIL, Verdict.ADVISORY, Verdict.UNTESTED,
            Verdict.PASS, Verdict.NOT_APPLICABLE, Verdict.EXCLUDED, Verdict.NOT_TESTABLE);

    /**
     * @param a a verdict
     * @param b another
     * @return the worse of the two (FAIL &gt; ADVISORY &gt; UNTESTED &gt; PASS &gt; NOT_APPLICABLE &gt; EXCLUDED &gt; NOT_TESTABLE)
     */
    public static Verdict worst(Verdict a, Verdict b) {
        return WORST_FIRST.indexOf(a) <= WORST_FIRST.indexOf(b) ? a : b;
    }

    /**
     * @param rules          rule results
     * @param propertyMillis time the properties ran, summed
     * @param tries          tries of every property, summed
     * @return the counts
     */
    public static RunReport.Summary summarize(List<RunReport.RuleReport> rules, long tries, long propertyMillis) {
        int[] n = new int[Verdict.values().length];
        for (RunReport.RuleReport r : rules) {
            n[Verdict.valueOf(r.verdict()).ordinal()]++;
        }
        return new RunReport.Summary(rules.size(), n[Verdict.PASS.ordinal()], n[Verdict.FAIL.ordinal()],
                n[Verdict.ADVISORY.ordinal()], n[Verdict.NOT_APPLICABLE.ordinal()], n[Verdict.NOT_TESTABLE.ordinal()],
                n[Verdict.UNTESTED.ordinal()], n[Verdict.EXCLUDED.ordinal()], tries, propertyMillis,
                rate(tries, propertyMillis));
    }

    /**
     * @param tries  tries
     * @param millis milliseconds
     * @return tries per second, rounded to one decimal (0 when no time passed)
     */
    public static double rate(long tries, long millis) {
        if (millis <= 0) {
            return tries == 0 ? 0 : tries * 1000.0;
        }
        return Math.round(tries * 10_000.0 / millis) / 10.0;
    }

    /**
     * @param rules  rule results
     * @param strict whether ADVISORY fails
     * @return 1 when a rule fails ({@link Verdict#fails(boolean)}), else 0
     */
    public static int exitCode(List<RunReport.RuleReport> rules, boolean strict) {
        return rules.stream().anyMatch(r -> Verdict.valueOf(r.verdict()).fails(strict)) ? 1 : 0;
    }
}
