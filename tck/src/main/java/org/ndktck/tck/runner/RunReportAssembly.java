package org.ndktck.tck.runner;

import org.ndktck.tck.harness.TimeBudget;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.report.Summaries;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Builds a run's {@link RunReport} (the content of report.json, report.html and the JUnit XML) from the outcomes of
 * its properties: the notes (expired exclusions, the execution's notes, the time budget's), each rule's verdict
 * ({@link Verdicts#compute}; a {@code --jobs} worker judges a rule only by the properties it ran, and the merge joins
 * the workers' parts), the per-property reports with tries, checks, seeds and first failures, the provider with its
 * effective settings and NDK_ADAPTER_INFO (plus {@code pageSize}: PAGE_SIZE in bytes, an unsigned ULONG carried in a
 * Java long), exclusions, summary and exit code. A null execution result (a run that broke down) gives a report with
 * every selected rule and no outcomes. Reads a {@link KitRunner.Prepared} run and writes nothing.
 */
final class RunReportAssembly {
    private RunReportAssembly() {
    }

    /**
     * @param p          the prepared run
     * @param result     the execution's outcomes, or null when the run broke down before it had any
     * @param extraNotes notes to add after the execution's own
     * @param startedAt  when the run started
     * @param wallMillis the run's wall time in milliseconds
     * @return the report
     */
    static RunReport build(KitRunner.Prepared p, KitExecution.Result result, List<String> extraNotes, Instant startedAt, long wallMillis) {
        List<PropertyOutcome> outcomes = result == null ? List.of() : result.outcomes();
        List<String> notes = new ArrayList<>();
        for (Exclusions.Entry e : p.exclusions.expired(p.options.today())) {
            notes.add("exclusion of " + e.pattern() + " expired on " + e.expires() + " and was ignored (" + e.reason() + ")");
        }
        if (result != null) {
            notes.addAll(result.notes());
        }
        notes.addAll(extraNotes);
        if (p.options.timeBudgetMillis() != null) {
            long limited = outcomes.stream().filter(o -> TimeBudget.isLimited(o.message())).count();
            notes.add(KitRunner.Prepared.budgetNote(p.options.timeBudgetMillis(), limited, p.planned.size()));
        }
        ProviderLoader.AdapterInfoResult info = p.adapterInfo();
        Map<String, List<PropertyInfo>> ruleProps = p.byRule;
        Set<String> sel = p.selected;
        if (p.claims != null) {
            // a worker judges a rule only by the properties it ran; the merge joins the workers' parts
            Set<String> ran = outcomes.stream().map(x -> x.property().propertyId()).collect(Collectors.toSet());
            Map<String, List<PropertyInfo>> mine = new LinkedHashMap<>();
            p.byRule.forEach((id, ps) -> mine.put(id, ps.stream().filter(x -> ran.contains(x.propertyId())).toList()));
            ruleProps = mine;
            sel = p.selected.stream().filter(id -> !p.byRule.containsKey(id) || p.excluded.containsKey(id)
                    || !mine.get(id).isEmpty()).collect(Collectors.toCollection(LinkedHashSet::new));
        }
        List<RunReport.RuleReport> rules = Verdicts.compute(p.catalog, sel, p.excluded, ruleProps, outcomes,
                result == null ? List.of() : result.advisories(), p::replay,
                rule -> info.info() == null ? Optional.empty()
                        : org.ndktck.tck.harness.Capabilities.missing(rule.requires(), info.info()));
        long tries = outcomes.stream().mapToLong(PropertyOutcome::tries).sum();
        long propMillis = outcomes.stream().mapToLong(PropertyOutcome::durationMillis).sum();
        List<RunReport.PropertyReport> props = outcomes.stream().map(o -> new RunReport.PropertyReport(
                o.property().propertyId(), new ArrayList<>(o.property().ruleIds()), o.status(), o.tries(), o.checks(),
                o.seed(), o.durationMillis(), blankToNull(o.message()), blankToNull(o.counterexample()),
                new ArrayList<>(Failures.violatedRules(o.failure())), o.finishedAtMillis(),
                firstFailure(o), Optional.ofNullable(Catches.of(o)).map(Catches.FirstFailure::rule).orElse(null),
                o.checksRun() == null ? null : o.checksRun().byRule(),
                o.checksRun() == null ? null : o.checksRun().notReached(),
            o.checksRun() == null ? null : o.checksRun().modelPairs())).toList();
        ProviderLoader.AdapterInfoResult ai = p.adapterInfo();
        RunReport.Provider prov = new RunReport.Provider(p.options.provider(), p.provider.getClass().getName(),
                p.provider.description(), p.options.providerJars().stream().map(Path::toString).toList(),
                p.effectiveSettings(), p.options.settings(),
                ai.info() == null ? Map.of() : adapterInfoMap(p, ai), ai.error());
        List<RunReport.ExclusionNote> ex = p.exclusions.entries().stream().map(e -> new RunReport.ExclusionNote(
                e.pattern(), e.expires().toString(), e.reason(), e.expired(p.options.today()))).toList();
        return new RunReport(RunReport.FORMAT,
                new RunReport.Kit(KitVersion.get(), p.catalog.rules().size(), p.options.kitPackage()), prov, p.seed,
                p.options.seed() != null, p.options.profile().name().toLowerCase(Locale.ROOT), p.options.tries(),
                p.options.timeoutFactor(), p.options.strict(), p.options.rules(),
                p.options.shard() == null ? null : new RunReport.ShardInfo(p.options.shard().index(), p.options.shard().count()),
                List.of(), startedAt.toString(), wallMillis, Summaries.rate(tries, propMillis),
                Summaries.summarize(rules, tries, propMillis), ex, notes, p.replay(null),
                Summaries.exitCode(rules, p.options.strict()), rules, props);
    }

    /** NDK_ADAPTER_INFO for the report, plus {@code pageSize}: PAGE_SIZE of the adapter in bytes. */
    private static Map<String, Object> adapterInfoMap(KitRunner.Prepared p, ProviderLoader.AdapterInfoResult ai) {
        Map<String, Object> m = new LinkedHashMap<>(AdapterInfoView.toMap(ai.info()));
        try {
            m.put("pageSize", Integer.toUnsignedLong(p.put.pageSize()));
        } catch (RuntimeException e) {
            // no page size: the drawings assume 4096
        }
        m.put("transport", p.put.transport().name());
        return m;
    }

    private static String firstFailure(PropertyOutcome o) {
        Catches.FirstFailure f = Catches.of(o);
        return f == null ? null : f.describe();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
