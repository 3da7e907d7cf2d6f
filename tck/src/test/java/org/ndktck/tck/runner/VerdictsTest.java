package org.ndktck.tck.runner;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.report.RunReport;

import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The verdict of each rule from property outcomes, advisories, selection and exclusions (docs/ARCHITECTURE.md). */
class VerdictsTest {
    static RuleCatalog catalog;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = VerdictsTest.class.getResourceAsStream("verdicts-catalog.yaml")) {
            catalog = RuleCatalog.read(in);
        }
    }

    private static PropertyInfo prop(String name, String... rules) {
        return new PropertyInfo("[uid:" + name + "]", name, "x." + name, name, new LinkedHashSet<>(List.of(rules)));
    }

    private static PropertyOutcome outcome(PropertyInfo p, String status, String message, Throwable failure) {
        return new PropertyOutcome(p, status, "SUCCESSFUL".equals(status) ? 100 : 3, 3, "123", 40, message, failure,
                failure == null ? "" : "[x=3]", 50);
    }

    private static Map<String, RunReport.RuleReport> compute(Set<String> selected, List<PropertyInfo> all, List<PropertyOutcome> outcomes,
                                                             List<RunLedger.Advisory> advisories) {
        Map<String, Exclusions.Entry> excluded = Map.of("T-EXCL", new Exclusions.Entry("T-EXCL", LocalDate.parse("2030-01-01"), "bug 9", 1));
        Function<String, String> replay = id -> "./ndk-tck run --rules " + id;
        return Verdicts.compute(catalog, selected, excluded, KitDiscovery.byRule(all), outcomes, advisories, replay).stream()
                .collect(Collectors.toMap(RunReport.RuleReport::id, r -> r));
    }

    @Test
    void verdictsFollowTheRules() {
        PropertyInfo must = prop("P#must", "T-MUST");
        PropertyInfo should = prop("P#should", "T-SHOULD");
        PropertyInfo gated = prop("P#gated", "T-GATED");
        PropertyInfo notRun = prop("P#notRun", "T-NOTRUN");
        PropertyInfo excl = prop("P#excl", "T-EXCL");
        PropertyInfo other = prop("P#other", "T-OTHER");
        PropertyInfo hung = prop("P#hung", "T-HUNG");
        List<PropertyInfo> all = List.of(must, should, gated, notRun, excl, other, hung);
        List<PropertyOutcome> outcomes = List.of(
                outcome(must, "FAILED", "[T-MUST] MUST: Length=0x1001 accepted", new AssertionError("[T-MUST] MUST: Length=0x1001 accepted")),
                outcome(should, "FAILED", "[T-SHOULD] SHOULD: wrong code", new AssertionError("wrong code")),
                outcome(gated, "SKIPPED", "NOT_APPLICABLE: T-GATED: the adapter does not set NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED", null),
                outcome(other, "SUCCESSFUL", "", null),
                outcome(hung, PropertyOutcome.TIMED_OUT, "property did not finish within 1000 ms", null));
        Set<String> selected = catalog.rules().stream().map(r -> r.id()).collect(Collectors.toSet());
        Map<String, RunReport.RuleReport> v = compute(selected, all, outcomes,
                List.of(new RunLedger.Advisory("T-OTHER", "listed STATUS_INVALID_PARAMETER, got STATUS_INSUFFICIENT_RESOURCES")));

        assertThat(v.get("T-MUST").verdict()).isEqualTo("FAIL");
        assertThat(v.get("T-MUST").message()).contains("Length=0x1001");
        assertThat(v.get("T-MUST").counterexample()).isEqualTo("[x=3]");
        assertThat(v.get("T-MUST").seed()).isEqualTo("123");
        assertThat(v.get("T-MUST").replay()).isEqualTo("./ndk-tck run --rules T-MUST");
        assertThat(v.get("T-SHOULD").verdict()).isEqualTo("ADVISORY");
        assertThat(v.get("T-GATED").verdict()).isEqualTo("NOT_APPLICABLE");
        assertThat(v.get("T-GATED").message()).as("the row names the rule; the reason does not repeat it")
                .startsWith("the adapter does not set");
        assertThat(v.get("T-OPAQUE").verdict()).isEqualTo("NOT_TESTABLE");
        assertThat(v.get("T-CONSUMER").verdict()).isEqualTo("NOT_TESTABLE");
        assertThat(v.get("T-CONSUMER").message()).contains("consumer obligation").contains("How T-CONSUMER is checked.");
        assertThat(v.get("T-MISSING").verdict()).isEqualTo("UNTESTED");
        assertThat(v.get("T-MISSING").message()).contains("no property");
        assertThat(v.get("T-MISSING").replay()).isNull();
        assertThat(v.get("T-NOTRUN").verdict()).isEqualTo("UNTESTED");
        assertThat(v.get("T-NOTRUN").message()).contains("did not run");
        assertThat(v.get("T-EXCL").verdict()).isEqualTo("EXCLUDED");
        assertThat(v.get("T-EXCL").message()).contains("bug 9").contains("2030-01-01");
        assertThat(v.get("T-OTHER").verdict()).as("a passing property with a SHOULD-level finding").isEqualTo("ADVISORY");
        assertThat(v.get("T-OTHER").advisories()).hasSize(1);
        assertThat(v.get("T-HUNG").verdict()).isEqualTo("FAIL");
        assertThat(v.get("T-HUNG").message()).contains("did not finish");
        assertThat(v.get("T-OTHER").tries()).isEqualTo(100);
    }

    @Test
    void aRuleViolationFailsTheNamedRuleEvenOutsideTheSelectionAndEveryPropertyRuleIsCounted() {
        PropertyInfo both = prop("P#both", "T-MUST", "T-SHOULD");
        PropertyInfo other = prop("P#other", "T-OTHER");
        List<PropertyOutcome> outcomes = List.of(outcome(both, "SUCCESSFUL", "", null),
                outcome(other, "FAILED", "[T-NOTRUN] MUST: completion after inline return",
                        new AssertionError("wrapped", new RuleViolation("T-NOTRUN", "completion after inline return"))));
        Map<String, RunReport.RuleReport> v = compute(Set.of("T-MUST", "T-SHOULD", "T-OTHER"), List.of(both, other,
                prop("P#notRun", "T-NOTRUN")), outcomes, List.of());
        assertThat(v.get("T-MUST").verdict()).isEqualTo("PASS");
        assertThat(v.get("T-SHOULD").verdict()).isEqualTo("PASS");
        assertThat(v.get("T-OTHER").verdict()).isEqualTo("FAIL");
        assertThat(v.get("T-NOTRUN").verdict()).isEqualTo("FAIL");
        assertThat(v.get("T-NOTRUN").selected()).isFalse();
        assertThat(v.get("T-NOTRUN").message()).startsWith("reported by P#other (T-OTHER)");
        assertThat(v.get("T-NOTRUN").message()).as("the violation's own message, not the wrapper's")
                .contains("[T-NOTRUN] completion after inline return").doesNotContain("wrapped");
        assertThat(v.get("T-GATED").verdict()).isEqualTo("UNTESTED");
        assertThat(v.get("T-GATED").message()).contains("not selected");
        assertThat(v.get("T-OPAQUE").verdict()).isEqualTo("NOT_TESTABLE");
    }

    @Test
    void aViolationOfAnUnselectedRuleOfThePropertyItselfStillFails() {
        // a property of T-MUST and T-OTHER run for --rules T-OTHER stops at a violation of T-MUST: the run must not pass
        PropertyInfo both = prop("P#both", "T-MUST", "T-OTHER");
        List<PropertyOutcome> outcomes = List.of(outcome(both, "FAILED", "[T-MUST] MUST: two registrations share a token",
                new RuleViolation("T-MUST", "two registrations share a token")));
        Map<String, RunReport.RuleReport> v = compute(Set.of("T-OTHER"), List.of(both), outcomes, List.of());
        assertThat(v.get("T-MUST").selected()).isFalse();
        assertThat(v.get("T-MUST").verdict()).isEqualTo("FAIL");
        assertThat(v.get("T-MUST").message()).contains("two registrations share a token");
        // the replay selects what brought the property into the run (T-OTHER): --rules T-MUST would also run T-MUST's
        // other properties, none of which this run ran, and one of them could fail first with another counterexample
        assertThat(v.get("T-MUST").replay()).isEqualTo("./ndk-tck run --rules T-OTHER");
        assertThat(v.get("T-OTHER").verdict()).as("cut short by T-MUST's violation").isEqualTo("UNTESTED");
        assertThat(org.ndktck.tck.report.Summaries.exitCode(List.copyOf(v.values()), false)).isEqualTo(1);
    }

    @Test
    void aPropertyStoppedByAnotherRulesViolationLeavesItsOwnRuleUntestedButACrashFailsIt() {
        PropertyInfo cut = prop("P#cut", "T-MUST");
        PropertyInfo own = prop("P#own", "T-SHOULD");
        PropertyInfo crash = prop("P#crash", "T-OTHER");
        PropertyInfo reporter = prop("P#reporter", "T-HUNG");
        List<PropertyOutcome> outcomes = List.of(
                outcome(cut, "FAILED", "[T-NOTRUN] MUST: no completion was called",
                        new RuleViolation("T-NOTRUN", "no completion was called")),
                outcome(own, "FAILED", "[T-SHOULD] SHOULD: wrong code", withSuppressed(new RuleViolation("T-SHOULD", "wrong code"),
                        new RuleViolation("T-NOTRUN", "no completion was called"))),
                outcome(crash, "FAILED", "boom", new IllegalStateException("boom")),
                outcome(reporter, "FAILED", "[T-NOTRUN] MUST: no completion was called",
                        new RuleViolation("T-NOTRUN", "no completion was called")));
        Set<String> selected = catalog.rules().stream().map(r -> r.id()).collect(Collectors.toSet());
        Map<String, RunReport.RuleReport> v = compute(selected, List.of(cut, own, crash, reporter), outcomes, List.of());

        assertThat(v.get("T-NOTRUN").verdict()).as("the rule the violation names fails").isEqualTo("FAIL");
        assertThat(v.get("T-MUST").verdict()).as("its property did not judge it").isEqualTo("UNTESTED");
        assertThat(v.get("T-MUST").message()).contains("cut short").contains("P#cut").contains("T-NOTRUN");
        assertThat(v.get("T-HUNG").verdict()).isEqualTo("UNTESTED");
        assertThat(v.get("T-SHOULD").verdict()).as("a violation of its own rule, besides another").isEqualTo("ADVISORY");
        assertThat(v.get("T-OTHER").verdict()).as("a crash is the property's own failure").isEqualTo("FAIL");
    }

    private static Throwable withSuppressed(Throwable t, Throwable suppressed) {
        t.addSuppressed(suppressed);
        return t;
    }

    @Test
    void aRuleWhoseCapabilityIsMissingIsNotApplicableEvenWithoutAPropertyThatRan() {
        Set<String> selected = catalog.rules().stream().map(r -> r.id()).collect(Collectors.toSet());
        Map<String, Exclusions.Entry> none = Map.of();
        Function<org.ndktck.spec.rules.Rule, java.util.Optional<String>> gate = r -> r.requires().isEmpty()
                ? java.util.Optional.empty() : java.util.Optional.of("the adapter does not set NDK_ADAPTER_FLAG_X");
        // no property at all for T-GATED
        Map<String, RunReport.RuleReport> v = Verdicts.compute(catalog, selected, none, Map.of(), List.of(), List.of(),
                id -> "replay " + id, gate).stream().collect(Collectors.toMap(RunReport.RuleReport::id, r -> r));
        assertThat(v.get("T-GATED").verdict()).isEqualTo("NOT_APPLICABLE");
        assertThat(v.get("T-GATED").message()).isEqualTo("the adapter does not set NDK_ADAPTER_FLAG_X");
        assertThat(v.get("T-MISSING").verdict()).as("a rule without requires stays UNTESTED").isEqualTo("UNTESTED");
        // a property that did not run (time bound) for a gated rule: NOT_APPLICABLE too
        PropertyInfo gated = prop("P#gated", "T-GATED");
        v = Verdicts.compute(catalog, selected, none, KitDiscovery.byRule(List.of(gated)), List.of(), List.of(),
                id -> "replay " + id, gate).stream().collect(Collectors.toMap(RunReport.RuleReport::id, r -> r));
        assertThat(v.get("T-GATED").verdict()).isEqualTo("NOT_APPLICABLE");
        // the capability present: UNTESTED as before
        v = Verdicts.compute(catalog, selected, none, Map.of(), List.of(), List.of(), id -> "replay " + id,
                r -> java.util.Optional.empty()).stream().collect(Collectors.toMap(RunReport.RuleReport::id, r -> r));
        assertThat(v.get("T-GATED").verdict()).isEqualTo("UNTESTED");
        // outside the selection a gated rule is "not selected", not NOT_APPLICABLE
        v = Verdicts.compute(catalog, Set.of(), none, Map.of(), List.of(), List.of(), id -> "replay " + id, gate).stream()
                .collect(Collectors.toMap(RunReport.RuleReport::id, r -> r));
        assertThat(v.get("T-GATED").message()).contains("not selected");
    }

    @Test
    void aRuleNamedByAPropertyButMissingFromTheCatalogIsStillReported() {
        PropertyInfo stray = prop("P#stray", "T-STRAY");
        Map<String, RunReport.RuleReport> v = compute(Set.of(), List.of(stray), List.of(outcome(stray, "SUCCESSFUL", "", null)), List.of());
        assertThat(v).containsKey("T-STRAY");
        assertThat(v.get("T-STRAY").strength()).isEqualTo("UNKNOWN");
    }

    @Test
    void violatedRulesAreFoundInCausesAndSuppressed() {
        AssertionError e = new AssertionError("outer");
        e.addSuppressed(new RuleViolation("A-1", "x"));
        RuntimeException r = new RuntimeException(new RuleViolation("B-2", "y", e));
        assertThat(Failures.violatedRules(r)).containsExactly("B-2", "A-1");
        assertThat(Failures.describe(new IllegalStateException("boom"))).startsWith("java.lang.IllegalStateException: boom")
                .contains("\n    at ");
        assertThat(new ArrayList<>(Failures.violatedRules(null))).isEmpty();
    }

    /**
     * Allowed refusals: a property aborted below the floor of judged tries leaves its rule UNTESTED with the counts, even
     * when another property of the rule passed; the rule reports judged and discarded tries.
     */
    @Test
    void tooFewJudgedTriesIsUntestedNeverPass() {
        PropertyInfo thin = prop("P#thin", "T-MUST");
        PropertyInfo fine = prop("P#fine", "T-MUST");
        String why = org.ndktck.tck.harness.KitLifecycle.TOO_FEW_JUDGED + "2 of 50 tries judged (floor 5, one in 10); 48 discarded";
        List<PropertyOutcome> outcomes = List.of(
                new PropertyOutcome(thin, "ABORTED", 50, 2, "1", 10, why, null, "", 20),
                new PropertyOutcome(fine, "SUCCESSFUL", 50, 40, "1", 10, "", null, "", 30));
        Set<String> selected = catalog.rules().stream().map(r -> r.id()).collect(Collectors.toSet());
        RunReport.RuleReport r = compute(selected, List.of(thin, fine), outcomes, List.of()).get("T-MUST");
        assertThat(r.verdict()).isEqualTo("UNTESTED");
        assertThat(r.message()).startsWith("P#thin: too few judged tries: 2 of 50");
        assertThat(r.judgedTries()).isEqualTo(42);
        assertThat(r.discardedTries()).isEqualTo(58);
        assertThat(outcomes.get(0).belowJudgedFloor()).isTrue();
        assertThat(outcomes.get(1).belowJudgedFloor()).isFalse();
    }

    /** Allowed refusals: the floor is one judged try in ten, at least one. */
    @Test
    void theFloorIsOneInTen() {
        assertThat(org.ndktck.tck.harness.Refusals.floor(0)).isEqualTo(1);
        assertThat(org.ndktck.tck.harness.Refusals.floor(3)).isEqualTo(1);
        assertThat(org.ndktck.tck.harness.Refusals.floor(50)).isEqualTo(5);
        assertThat(org.ndktck.tck.harness.Refusals.floor(1000)).isEqualTo(100);
        assertThat(org.ndktck.tck.harness.Refusals.floor(51)).isEqualTo(6);
    }

    @Test
    void aViolationFoundByAPropertyOfSeveralRulesIsChargedOnlyToTheRulesItNames() {
        PropertyInfo chain = prop("P#chain", "T-MUST", "T-SHOULD", "T-OTHER");
        PropertyInfo notRun = prop("P#notRun", "T-NOTRUN");
        List<PropertyOutcome> outcomes = List.of(outcome(chain, "FAILED", "[T-OTHER] MUST: two MRs share a token",
                new RuleViolation("T-OTHER", "two MRs share a token")));
        Map<String, RunReport.RuleReport> v = compute(Set.of("T-MUST", "T-SHOULD", "T-OTHER"), List.of(chain, notRun), outcomes, List.of());
        assertThat(v.get("T-OTHER").verdict()).isEqualTo("FAIL");
        assertThat(v.get("T-MUST").verdict()).as("the chain property stopped at another rule's violation").isEqualTo("UNTESTED");
        assertThat(v.get("T-MUST").message()).startsWith("cut short: P#chain").contains("T-OTHER");
        assertThat(v.get("T-SHOULD").verdict()).isEqualTo("UNTESTED");
        // a crash of the same property is charged to each of its rules
        Map<String, RunReport.RuleReport> crash = compute(Set.of("T-MUST", "T-OTHER"), List.of(chain), List.of(
                outcome(chain, "FAILED", "IllegalStateException: boom", new IllegalStateException("boom"))), List.of());
        assertThat(crash.get("T-MUST").verdict()).isEqualTo("FAIL");
        assertThat(crash.get("T-OTHER").verdict()).isEqualTo("FAIL");
    }

    @Test
    void aRuleReportedByAnotherRulesPropertyReplaysWithThatPropertysRule() {
        PropertyInfo finder = prop("P#finder", "T-OTHER");
        PropertyInfo own = prop("P#own", "T-NOTRUN");
        List<PropertyOutcome> outcomes = List.of(outcome(own, "SUCCESSFUL", "", null), outcome(finder, "FAILED",
                "[T-NOTRUN] MUST: x", new RuleViolation("T-NOTRUN", "x")));
        Map<String, RunReport.RuleReport> selected = compute(Set.of("T-NOTRUN", "T-OTHER"), List.of(finder, own), outcomes, List.of());
        assertThat(selected.get("T-NOTRUN").verdict()).isEqualTo("FAIL");
        assertThat(selected.get("T-NOTRUN").replay()).isEqualTo("./ndk-tck run --rules T-NOTRUN,T-OTHER");
        Map<String, RunReport.RuleReport> notSelected = compute(Set.of("T-OTHER"), List.of(finder, own),
                List.of(outcomes.get(1)), List.of());
        assertThat(notSelected.get("T-NOTRUN").replay()).as("its own properties would fail first if the replay selected it")
                .isEqualTo("./ndk-tck run --rules T-OTHER");
    }
}
