package org.ndktck.tck.report;

import org.ndktck.tck.Verdict;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Combines the reports of the shards of one run ({@code --shard I/N}, same provider, settings and seed) into
 * one report with the verdicts the unsharded run would have given:
 * <ul>
 *   <li>a rule's verdict is the worst ({@link Summaries#worst}) over the shards that selected it and the shards
 *       where another rule's property reported it FAIL or ADVISORY; EXCLUDED in a shard that selected it wins;
 *       but a rule UNTESTED only because its properties did not run or complete in some shards
 *       ({@link Summaries#nothingCompleted}), or because its properties there ran no check of it, and PASS in
 *       another is PASS, as one run would judge it; {@code checksRun} is summed like tries;</li>
 *   <li>a rule no shard selected keeps its verdict (NOT_TESTABLE or UNTESTED), from the shard whose properties
 *       tried it most (a property of a selected rule may check it too);</li>
 *   <li>tries and times are summed over the shards that selected the rule; a property that ran in two shards
 *       (because it checks rules of both) is listed once.</li>
 * </ul>
 */
public final class ReportMerger {
    private ReportMerger() {
    }

    /**
     * @param reports the shards' reports (at least one)
     * @param strict  whether ADVISORY fails the merged run (null: if any shard was strict)
     * @return the merged report
     * @throws IllegalArgumentException when the reports are not shards of one run (different provider,
     *     settings, seed, profile or tries); the message says which field differs
     */
    public static RunReport merge(List<RunReport> reports, Boolean strict) {
        if (reports.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        RunReport first = reports.get(0);
        for (RunReport r : reports) {
            same("provider", name(first), name(r));
            same("provider settings", first.provider() == null ? null : first.provider().settingsGiven(),
                    r.provider() == null ? null : r.provider().settingsGiven());
            same("seed", first.seed(), r.seed());
            same("profile", first.profile(), r.profile());
            same("tries", first.tries(), r.tries());
            same("rules pattern", first.rulesPattern(), r.rulesPattern());
        }
        boolean isStrict = strict != null ? strict : reports.stream().anyMatch(RunReport::strict);

        Map<String, List<RunReport.RuleReport>> byId = new LinkedHashMap<>();
        for (RunReport r : reports) {
            for (RunReport.RuleReport rule : r.rules()) {
                byId.computeIfAbsent(rule.id(), k -> new ArrayList<>()).add(rule);
            }
        }
        List<RunReport.RuleReport> rules = new ArrayList<>();
        byId.forEach((id, entries) -> rules.add(mergeRule(entries)));

        Map<String, RunReport.PropertyReport> props = new LinkedHashMap<>();
        reports.forEach(r -> r.properties().forEach(p -> props.putIfAbsent(p.property(), p)));
        long tries = props.values().stream().mapToLong(RunReport.PropertyReport::tries).sum();
        long propMillis = props.values().stream().mapToLong(RunReport.PropertyReport::durationMillis).sum();

        List<RunReport.ShardInfo> shards = reports.stream().map(RunReport::shard).filter(Objects::nonNull).toList();
        List<String> notes = new ArrayList<>();
        reports.forEach(r -> r.notes().forEach(n -> {
            if (!notes.contains(n)) {
                notes.add(n);
            }
        }));
        if (!shards.isEmpty()) {
            int n = shards.get(0).count();
            Set<Integer> have = new TreeSet<>();
            shards.forEach(s -> {
                if (s.count() != n) {
                    throw new IllegalArgumentException("shards of different counts: " + shards.get(0) + " and " + s);
                }
                have.add(s.index());
            });
            List<String> missing = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                if (!have.contains(i)) {
                    missing.add(i + "/" + n);
                }
            }
            if (!missing.isEmpty()) {
                notes.add("missing shards " + String.join(", ", missing) + ": their rules are UNTESTED in this merge");
            }
            if (have.size() < shards.size()) {
                notes.add("a shard was given more than once");
            }
        }
        String startedAt = reports.stream().map(RunReport::startedAt).filter(Objects::nonNull)
                .min((a, b) -> Instant.parse(a).compareTo(Instant.parse(b))).orElse(null);
        long duration = reports.stream().mapToLong(RunReport::durationMillis).sum();
        String replay = first.replay() == null ? null : first.replay().replaceAll(" --shard \\S+", "");
        return new RunReport(RunReport.FORMAT, first.kit(), first.provider(), first.seed(), first.seedGiven(),
                first.profile(), first.tries(), first.timeoutFactor(), isStrict, first.rulesPattern(), null, shards,
                startedAt, duration, Summaries.rate(tries, propMillis), Summaries.summarize(rules, tries, propMillis),
                first.exclusions(), notes, replay, Summaries.exitCode(rules, isStrict), rules, new ArrayList<>(props.values()));
    }

    private static RunReport.RuleReport mergeRule(List<RunReport.RuleReport> entries) {
        List<RunReport.RuleReport> counted = entries.stream().filter(e -> e.selected()
                || e.verdict().equals("FAIL") || e.verdict().equals("ADVISORY")).toList();
        RunReport.RuleReport head = entries.get(0);
        if (counted.isEmpty()) {
            // not selected anywhere: the entry of the shard whose properties checked it most (a property of a selected
            // rule may check it too), as the unsharded run reports it
            RunReport.RuleReport most = head;
            for (RunReport.RuleReport e : entries) {
                if (e.tries() > most.tries()) {
                    most = e;
                }
            }
            return most;
        }
        Verdict v = null;
        for (RunReport.RuleReport e : counted) {
            Verdict ev = Verdict.valueOf(e.verdict());
            v = v == null ? ev : Summaries.worst(v, ev);
        }
        if (counted.stream().anyMatch(e -> e.selected() && e.verdict().equals("EXCLUDED"))) {
            v = Verdict.EXCLUDED;
        }
        List<RunReport.RuleReport> notCompleted = List.of();
        if (v == Verdict.UNTESTED && counted.stream().anyMatch(e -> e.verdict().equals("PASS"))
                && counted.stream().filter(e -> e.verdict().equals("UNTESTED")).allMatch(e -> Summaries.nothingCompleted(e.message()))) {
            // a worker whose properties of the rule did not complete (time budget, time bound) beside one where a
            // property passed: the run as one would say PASS (at least one property passed), so the merge does too
            v = Verdict.PASS;
            notCompleted = counted.stream().filter(e -> e.verdict().equals("UNTESTED")).toList();
        }
        if (v == Verdict.UNTESTED && counted.stream().anyMatch(e -> e.verdict().equals("PASS"))
                && counted.stream().filter(e -> e.verdict().equals("UNTESTED"))
                .allMatch(e -> e.message() != null && e.message().startsWith(NO_CHECK_RAN))) {
            // a worker whose passing property of the rule ran no check of it beside one whose property ran checks: the
            // run as one sums the checks over the properties and says PASS, so the merge does too
            v = Verdict.PASS;
        }
        final String verdict = v.name();
        List<RunReport.RuleReport> worst = counted.stream().filter(e -> e.verdict().equals(verdict)).toList();
        RunReport.RuleReport w = worst.get(0);
        Set<String> messages = new LinkedHashSet<>();
        worst.forEach(e -> {
            if (e.message() != null) {
                messages.add(e.message());
            }
        });
        notCompleted.forEach(e -> messages.add(e.message().replace(Summaries.NOTHING_COMPLETED, "did not complete: ")));
        List<RunReport.RuleReport> selected = counted.stream().filter(RunReport.RuleReport::selected).toList();
        long tries = selected.stream().mapToLong(RunReport.RuleReport::tries).sum();
        long checks = selected.stream().mapToLong(RunReport.RuleReport::checks).sum();
        long checksRun = selected.stream().mapToLong(RunReport.RuleReport::checksRun).sum();
        long millis = selected.stream().mapToLong(RunReport.RuleReport::durationMillis).sum();
        Set<String> props = new LinkedHashSet<>();
        Set<String> adv = new LinkedHashSet<>();
        entries.forEach(e -> {
            props.addAll(e.properties());
            adv.addAll(e.advisories());
        });
        String replay = entries.stream().map(RunReport.RuleReport::replay).filter(Objects::nonNull).findFirst().orElse(null);
        return new RunReport.RuleReport(head.id(), head.title(), head.function(), head.strength(), head.check(), verdict,
                !selected.isEmpty(), tries, checks, millis, Summaries.rate(tries, millis),
                messages.isEmpty() ? null : String.join("\n\n", messages), w.counterexample(), w.seed(),
                w.replay() != null ? w.replay() : replay, new ArrayList<>(props), new ArrayList<>(adv), checksRun);
    }

    /** Start of the message of a rule UNTESTED because none of its passing properties ran a check of it. */
    static final String NO_CHECK_RAN = "no check ran: ";

    private static String name(RunReport r) {
        return r.provider() == null ? null : r.provider().name();
    }

    private static void same(String field, Object a, Object b) {
        if (!Objects.equals(a, b)) {
            throw new IllegalArgumentException("the reports are not shards of one run: " + field + " differs ("
                    + a + " vs " + b + ")");
        }
    }
}
