package org.ndktck.tck.runner;

import org.ndktck.tck.harness.PropertyClaims;
import org.ndktck.tck.report.RunReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The merge of a shared run's workers ({@link ParallelRun}) must not pass a rule whose property no worker
 * reported: a worker that ended without a report (its JVM died, or the run was stopped) leaves the properties it
 * had claimed without outcome, and the rules of those properties become UNTESTED, never PASS.
 */
final class Unclaimed {
    private Unclaimed() {
    }

    /**
     * @param rules    the merged rule reports
     * @param planned  the properties the run planned
     * @param reported the merged property reports
     * @param claims   the run's claims directory (says which worker had claimed a property)
     * @param notes    where a note per property without outcome goes
     * @return {@code rules} itself when every planned property has an outcome, else a copy in which the PASS and
     *     NOT_APPLICABLE rules of the properties without outcome are UNTESTED (FAIL, ADVISORY and EXCLUDED stay)
     */
    static List<RunReport.RuleReport> untested(List<RunReport.RuleReport> rules, List<PropertyInfo> planned,
                                               List<RunReport.PropertyReport> reported, Path claims, List<String> notes) {
        Set<String> have = reported.stream().map(RunReport.PropertyReport::property).collect(Collectors.toSet());
        Map<String, String> missing = new LinkedHashMap<>();
        for (PropertyInfo p : planned) {
            if (have.contains(p.propertyId())) {
                continue;
            }
            String owner = PropertyClaims.owner(claims, p.propertyId()).map(w -> "worker " + w).orElse("no worker");
            notes.add(p.propertyId() + " has no outcome (claimed by " + owner + "): the rules it checks ("
                    + String.join(", ", p.ruleIds()) + ") are UNTESTED unless another property failed them");
            p.ruleIds().forEach(id -> missing.putIfAbsent(id, p.propertyId()));
        }
        if (missing.isEmpty()) {
            return rules;
        }
        List<RunReport.RuleReport> out = new ArrayList<>();
        for (RunReport.RuleReport r : rules) {
            String prop = missing.get(r.id());
            if (prop == null || !(r.verdict().equals("PASS") || r.verdict().equals("NOT_APPLICABLE"))) {
                out.add(r);
                continue;
            }
            out.add(new RunReport.RuleReport(r.id(), r.title(), r.function(), r.strength(), r.check(), "UNTESTED",
                    r.selected(), r.tries(), r.checks(), r.durationMillis(), r.triesPerSecond(),
                    prop + " did not run to the end in any worker (its worker ended without a report)", r.counterexample(),
                    r.seed(), r.replay(), r.properties(), r.advisories()));
        }
        return out;
    }
}
