package org.ndktck.tck.runner;

import org.ndktck.spec.rules.Check;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.spec.rules.Strength;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.Verdict;
import org.ndktck.tck.harness.KitLifecycle;
import org.ndktck.tck.harness.TimeBudget;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.report.Summaries;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns property outcomes into one verdict per catalog rule (docs/ARCHITECTURE.md, "Verdicts"):
 * <ol>
 *   <li>EXCLUDED when an exclusion in force names the rule (it wins over everything else);</li>
 *   <li>a failed property (or a {@code RuleViolation} naming the rule, from any property): FAIL, or
 *       ADVISORY for a SHOULD / SHOULD NOT rule, and ADVISORY with the note {@value #KIT_INTERPRETATION}for a rule
 *       whose basis is KIT_INTERPRETATION and that guards nothing the catalog names ({@link Rule#failIsAdvisory});
 *       a property the runner abandoned counts as failed, and so
 *       does a property that crashed (an exception that names no rule). A property that stopped at a
 *       {@code RuleViolation} of <i>other</i> rules only (for example GEN-CB-1 when the provider never
 *       completed a call the property needed) did not judge its own rules: that failure is charged to the
 *       rules it names, not to the property's;</li>
 *   <li>else a SHOULD-level finding ({@code RunLedger.advisory}) for the rule: ADVISORY;</li>
 *   <li>else a property of the rule was cut short that way: UNTESTED, naming the rule that stopped it
 *       (a provider that breaks one rule everywhere shows as one FAIL, not as a FAIL of every rule);</li>
 *   <li>else a property of the rule judged fewer tries than the floor (most of its tries were discarded,
 *       for example because the provider refused calls with STATUS_INSUFFICIENT_RESOURCES, which the pages
 *       allow; {@link org.ndktck.tck.harness.Refusals}): UNTESTED with the counts;</li>
 *   <li>else at least one property passed: PASS;</li>
 *   <li>else every property was skipped as not applicable: NOT_APPLICABLE with the reason;</li>
 *   <li>else the rule {@code requires} a capability the adapter lacks (checked here too, so a rule with no
 *       property, or whose properties did not run, is gated like one whose properties were skipped):
 *       NOT_APPLICABLE with the reason;</li>
 *   <li>else (no property ran): NOT_TESTABLE when the catalog says the rule is not black-box testable,
 *       a consumer obligation or informational; UNTESTED otherwise, with the reason (no property, not
 *       selected, aborted, abandoned by a time bound).</li>
 * </ol>
 * Rules outside the selection ({@code --rules}, {@code --shard}) are {@code selected=false}; they keep
 * FAIL / ADVISORY when a property that ran for a selected rule (one of their own properties or another rule's)
 * stopped at a {@code RuleViolation} naming them, so a run never passes with a violation it saw, and a merge of
 * shards equals the unsharded run.
 */
public final class Verdicts {
    private Verdicts() {
    }

    /**
     * @param catalog    the rule catalog
     * @param selected   rules this run covers
     * @param excluded   rules excluded, with their entry
     * @param byRule     every property of the kit by rule (discovered, whether it ran or not)
     * @param outcomes   property outcomes of the run
     * @param advisories SHOULD-level findings
     * @param replay     the replay command of one rule
     * @return one report per catalog rule, in catalog order, then any rule ID a property names that the
     *     catalog lacks
     */
    public static List<RunReport.RuleReport> compute(RuleCatalog catalog, Set<String> selected,
                                                     Map<String, Exclusions.Entry> excluded,
                                                     Map<String, List<PropertyInfo>> byRule,
                                                     List<PropertyOutcome> outcomes,
                                                     List<RunLedger.Advisory> advisories,
                                                     Function<String, String> replay) {
        return compute(catalog, selected, excluded, byRule, outcomes, advisories, replay, r -> Optional.empty());
    }

    /**
     * As {@link #compute(RuleCatalog, Set, Map, Map, List, List, Function)}, gating rules on capabilities.
     *
     * @param catalog       the rule catalog
     * @param selected      rules this run covers
     * @param excluded      rules excluded, with their entry
     * @param byRule        every property of the kit by rule
     * @param outcomes      property outcomes of the run
     * @param advisories    SHOULD-level findings
     * @param replay        the replay command of one rule
     * @param notApplicable for a rule, why it does not apply to the adapter under test (a {@code requires}
     *                      entry the adapter lacks, see {@link org.ndktck.tck.harness.Capabilities#missing}),
     *                      or empty when it applies
     * @return one report per catalog rule, in catalog order, then any rule ID a property names that the
     *     catalog lacks
     */
    public static List<RunReport.RuleReport> compute(RuleCatalog catalog, Set<String> selected,
                                                     Map<String, Exclusions.Entry> excluded,
                                                     Map<String, List<PropertyInfo>> byRule,
                                                     List<PropertyOutcome> outcomes,
                                                     List<RunLedger.Advisory> advisories,
                                                     Function<String, String> replay,
                                                     Function<Rule, Optional<String>> notApplicable) {
        Map<String, Rule> rules = new LinkedHashMap<>();
        catalog.rules().forEach(r -> rules.put(r.id(), r));
        Set<String> ids = new LinkedHashSet<>(rules.keySet());
        ids.addAll(byRule.keySet());
        outcomes.forEach(o -> ids.addAll(o.property().ruleIds()));

        List<RunReport.RuleReport> out = new ArrayList<>();
        for (String id : ids) {
            out.add(one(id, rules.get(id), selected, excluded.get(id),
                    byRule.getOrDefault(id, List.of()), outcomes, advisories, replay, notApplicable));
        }
        return out;
    }

    private static RunReport.RuleReport one(String id, Rule rule, Set<String> selectedRules, Exclusions.Entry exclusion,
                                            List<PropertyInfo> props, List<PropertyOutcome> outcomes,
                                            List<RunLedger.Advisory> advisories, Function<String, String> replay,
                                            Function<Rule, Optional<String>> notApplicable) {
        boolean selected = selectedRules.contains(id);
        List<PropertyOutcome> own = outcomes.stream().filter(o -> o.property().ruleIds().contains(id)).toList();
        List<PropertyOutcome> reportedBy = outcomes.stream()
                .filter(o -> !o.property().ruleIds().contains(id) && Failures.violatedRules(o.failure()).contains(id))
                .toList();
        List<String> adv = advisories.stream().filter(a -> a.ruleId().equals(id)).map(RunLedger.Advisory::message).toList();

        long tries = own.stream().mapToLong(PropertyOutcome::tries).sum();
        long checks = own.stream().mapToLong(PropertyOutcome::checks).sum();
        long millis = own.stream().mapToLong(PropertyOutcome::durationMillis).sum();
        Strength strength = rule == null ? null : rule.strength();
        boolean recommendation = strength != null && strength.isRecommendation();

        List<PropertyOutcome> failed = new ArrayList<>();
        List<PropertyOutcome> cutShort = new ArrayList<>();
        for (PropertyOutcome o : own) {
            if (!o.failed()) {
                continue;
            }
            if (selected) {
                (cutShortByOtherRules(o) || !chargedTo(o, id) ? cutShort : failed).add(o);
            } else if (Failures.violatedRules(o.failure()).contains(id)) {
                // a property run for another, selected rule saw this one broken: the violation is real, never lost
                failed.add(o);
            }
        }
        failed.addAll(reportedBy);

        Verdict verdict;
        String message = null;
        String counterexample = null;
        String seed = null;
        if (selected && exclusion != null) {
            verdict = Verdict.EXCLUDED;
            message = "excluded until " + exclusion.expires() + ": " + exclusion.reason();
        } else if (!failed.isEmpty()) {
            boolean exposed = failed.stream().anyMatch(f -> Failures.violationMessage(f.failure(), id)
                    .map(m -> m.contains(MEMORY_EXPOSED)).orElse(false));
            verdict = recommendation || setUpOnlyOfAPermission(strength, failed)
                    || (kitInterpretationOnly(rule) && !exposed) ? Verdict.ADVISORY : Verdict.FAIL;
            PropertyOutcome first = failed.get(0);
            StringBuilder sb = new StringBuilder();
            for (PropertyOutcome f : failed) {
                if (sb.length() > 0) {
                    sb.append("\n\n");
                }
                if (!f.property().ruleIds().contains(id)) {
                    sb.append("reported by ").append(f.property().propertyId()).append(" (")
                            .append(String.join(", ", f.property().ruleIds())).append("): ");
                } else if (failed.size() > 1) {
                    sb.append(f.property().propertyId()).append(": ");
                }
                // a rule reported by another rule's property: that violation's own message, when the failure carries it
                String own2 = f.property().ruleIds().contains(id)
                        && !(f.failure() instanceof org.ndktck.tck.RuleViolation rv && !rv.ruleId().equals(id))
                        ? null : Failures.violationMessage(f.failure(), id).orElse(null);
                sb.append(own2 != null ? own2 : f.message() == null || f.message().isBlank() ? f.status() : f.message());
            }
            if (!adv.isEmpty()) {
                sb.append("\n\nadvisory: ").append(String.join("\nadvisory: ", adv));
            }
            message = (verdict == Verdict.ADVISORY && !recommendation ? KIT_INTERPRETATION : "") + sb;
            counterexample = blankToNull(first.counterexample());
            seed = blankToNull(first.seed());
        } else if (!adv.isEmpty()) {
            verdict = Verdict.ADVISORY;
            message = String.join("\n", adv);
        } else if (!cutShort.isEmpty()) {
            verdict = Verdict.UNTESTED;
            message = cutShort.stream().map(o -> "cut short: " + o.property().propertyId() + " stopped at a violation of "
                    + String.join(", ", Failures.violatedRules(o.failure())) + " (reported under that rule), so it did not judge "
                    + id).distinct().reduce((a, b) -> a + "\n" + b).orElse("");
        } else if (!selected) {
            verdict = staticVerdict(rule, props);
            message = verdict == Verdict.NOT_TESTABLE ? notTestableWhy(rule)
                    : "not selected in this run (--rules / --shard)";
        } else if (own.stream().anyMatch(o -> o.belowJudgedFloor() || o.claimNotReached())) {
            // a property that judged too few tries (allowed refusals), or whose coverage claim its tries could not
            // reach, leaves its rule UNTESTED, never PASS
            verdict = Verdict.UNTESTED;
            message = own.stream().filter(o -> o.belowJudgedFloor() || o.claimNotReached())
                    .map(o -> o.property().propertyId() + ": " + o.message().substring("UNTESTED: ".length()))
                    .distinct().reduce((a, b) -> a + "\n" + b).orElse("");
        } else if (NoCheckRan.why(id, own).isPresent()) {
            verdict = Verdict.UNTESTED; // a PASS rests on a check that ran
            message = NoCheckRan.why(id, own).get();
        } else if (own.stream().anyMatch(PropertyOutcome::passed)) {
            verdict = Verdict.PASS;
            // time budget: a property that passed with fewer tries because of the time budget is named first
            List<String> notes = new ArrayList<>(own.stream().filter(o -> TimeBudget.isLimited(o.message()))
                    .map(o -> TimeBudget.LIMITED + o.property().propertyId() + ": "
                            + o.message().substring(TimeBudget.LIMITED.length())).toList());
            own.stream().filter(o -> !o.passed() && !TimeBudget.isLimited(o.message())).map(o -> o.property().propertyId() + ": "
                    + (o.message() == null ? o.status() : o.message())).forEach(notes::add);
            // a coverage claim the user's --tries could not reach: the PASS says it was not checked
            own.stream().filter(o -> o.passed() && o.message() != null
                            && o.message().startsWith(org.ndktck.tck.harness.UnreachableClaim.NOTE))
                    .map(o -> o.property().propertyId() + ": " + o.message()).distinct().forEach(notes::add);
            notes.addAll(NoCheckRan.partly(id, own));
            message = notes.isEmpty() ? null : String.join("\n", notes);
        } else if (!own.isEmpty() && own.stream().allMatch(PropertyOutcome::notApplicable)) {
            verdict = Verdict.NOT_APPLICABLE;
            // the skip reason is "NOT_APPLICABLE: ID: why"; the report row names the rule already
            message = own.stream().map(o -> o.message().substring(KitLifecycle.NOT_APPLICABLE.length()))
                    .map(m -> m.startsWith(id + ": ") ? m.substring(id.length() + 2) : m)
                    .distinct().reduce((a, b) -> a + "\n" + b).orElse("");
        } else if (rule != null && !rule.requires().isEmpty() && gate(notApplicable, rule).isPresent()) {
            verdict = Verdict.NOT_APPLICABLE;
            message = gate(notApplicable, rule).get();
        } else if (!own.isEmpty()) {
            verdict = Verdict.UNTESTED;
            message = (own.stream().anyMatch(o -> TimeBudget.isLimited(o.message()))
                    ? TimeBudget.LIMITED + Summaries.BUDGET_RAN_OUT + "\n" : "")
                    + Summaries.NOTHING_COMPLETED + own.stream().map(o -> o.property().propertyId() + " " + o.status()
                    + (o.message() == null || o.message().isBlank() ? "" : " (" + o.message() + ")")).toList();
        } else if (!props.isEmpty()) {
            verdict = Verdict.UNTESTED;
            message = Summaries.NOTHING_RAN + " (the run ended early or a time bound was reached)";
        } else {
            verdict = staticVerdict(rule, props);
            message = verdict == Verdict.NOT_TESTABLE ? notTestableWhy(rule) : rule == null
                    ? "the catalog has no rule " + id : "the kit has no property for this rule yet";
        }
        boolean ran = !own.isEmpty();
        return new RunReport.RuleReport(id, rule == null ? "" : rule.title(), rule == null ? "" : rule.function(),
                strength == null ? "UNKNOWN" : strength.name(), rule == null ? "" : rule.check().name(),
                verdict.name(), selected, tries, checks, millis, Summaries.rate(tries, millis), message, counterexample,
                seed, ran || !props.isEmpty() || !failed.isEmpty() ? replay.apply(replayRules(id, selectedRules, failed)) : null,
                props.stream().map(PropertyInfo::propertyId).distinct().toList(), adv, NoCheckRan.checksRun(id, own));
    }

    /**
     * The rules a rule's replay selects: a selection that runs the property whose failure the report shows first and
     * no property the run did not run (so, with the same seed, the same property fails first with the same
     * counterexample). Normally the rule itself. When that property was brought into the run by another of its rules
     * (this rule was not selected), the replay selects that other, selected rule instead: selecting this rule would run
     * its other properties too, and one of them could fail first. When the failure was found by a property of another
     * rule, the replay selects that property's selected rule too, and the rule itself only if this run did, since the
     * rule's own properties, had they run and failed, would have been reported first.
     *
     * @param id       the rule
     * @param selected the rules this run selected
     * @param failed   its failures, the one shown first
     * @return the {@code --rules} value of its replay
     */
    static String replayRules(String id, Set<String> selected, List<PropertyOutcome> failed) {
        if (failed.isEmpty() || failed.get(0).property().ruleIds().isEmpty()) {
            return id;
        }
        List<String> finderRules = List.copyOf(failed.get(0).property().ruleIds());
        String finder = finderRules.stream().filter(selected::contains).findFirst().orElse(finderRules.get(0));
        if (finderRules.contains(id)) {
            return selected.contains(id) ? id : finder;
        }
        return selected.contains(id) ? id + "," + finder : finder;
    }

    /**
     * Whether a failure of a property that checks several rules is charged to one of them: a crash or time-out
     * (no rule named) is charged to every rule of the property; a {@code RuleViolation} only to the rules it names
     * (the rule the provider broke), so a property of MR-DEREG-3, INV-4 and MR-TOK-6 that finds two registrations
     * sharing a token fails MR-TOK-6 and leaves MR-DEREG-3 and INV-4 cut short.
     *
     * @param o  a failed outcome of one of {@code id}'s properties
     * @param id the rule
     * @return true when the failure counts against {@code id}
     */
    static boolean chargedTo(PropertyOutcome o, String id) {
        if (!"FAILED".equals(o.status()) || !(o.failure() instanceof org.ndktck.tck.RuleViolation)) {
            return true;
        }
        Set<String> named = Failures.violatedRules(o.failure());
        return named.isEmpty() || named.contains(id);
    }

    /**
     * @param o a failed property outcome
     * @return true when it failed at a {@code RuleViolation} that names none of the property's own rules
     *     (a crash, a time-out of the whole property, or a violation of one of its own rules is its own failure)
     */
    public static boolean cutShortByOtherRules(PropertyOutcome o) {
        if (!"FAILED".equals(o.status()) || o.failure() == null) {
            return false;
        }
        Set<String> named = Failures.violatedRules(o.failure());
        if (named.isEmpty() || !(o.failure() instanceof org.ndktck.tck.RuleViolation)) {
            return false;
        }
        for (String r : o.property().ruleIds()) {
            if (named.contains(r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The note that leads the message of a rule whose finding is ADVISORY because its FAIL would rest on the kit's
     * own reading of the pages (basis KIT_INTERPRETATION, no {@code guards} in the catalog; {@link Rule#failIsAdvisory}).
     */
    public static final String KIT_INTERPRETATION = "kit interpretation: ";

    /** {@link Verdict#MEMORY_EXPOSED}, by its name here too, for the runner's readers of a verdict's message. */
    public static final String MEMORY_EXPOSED = Verdict.MEMORY_EXPOSED;

    /**
     * @param rule a catalog rule, or null for an ID the catalog lacks
     * @return {@link Verdict#kitInterpretationOnly}: true when a broken check of the rule is reported ADVISORY, not FAIL
     */
    public static boolean kitInterpretationOnly(Rule rule) {
        return Verdict.kitInterpretationOnly(rule);
    }

    private static Optional<String> gate(Function<Rule, Optional<String>> notApplicable, Rule rule) {
        try {
            Optional<String> why = notApplicable.apply(rule);
            return why == null ? Optional.empty() : why;
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Verdict staticVerdict(Rule rule, List<PropertyInfo> props) {
        if (rule != null && props.isEmpty() && rule.check() != Check.PROVIDER_PROPERTY) {
            return Verdict.NOT_TESTABLE;
        }
        return Verdict.UNTESTED;
    }

    private static String notTestableWhy(Rule rule) {
        return switch (rule.check()) {
            case CONSUMER_OBLIGATION -> "a consumer obligation: the kit honours it (" + rule.howChecked() + ")";
            case NOT_BLACK_BOX_TESTABLE -> "not observable from outside the provider";
            case INFORMATIONAL -> "informational";
            case PROVIDER_PROPERTY -> "";
        };
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /**
     * A set-up error (the provider failed a call the kit needs before it can judge anything, such as NdkCreatePd
     * returning STATUS_NOT_IMPLEMENTED) is charged to each rule it stops at that rule's level: FAIL for MUST and
     * MUST NOT, ADVISORY for SHOULD, SHOULD NOT and MAY. A MAY rule grants a freedom and is no stronger than a SHOULD
     * rule, so the same cause never makes it FAIL while a SHOULD rule is ADVISORY; a MAY rule's property that finds
     * a real breach (say, a refused create that leaks, GEN-CB-5) still FAILs it.
     *
     * @param strength the rule's strength, or null
     * @param failed   the failures charged to the rule
     * @return whether the rule is a MAY rule whose every charged failure is a set-up error
     */
    static boolean setUpOnlyOfAPermission(Strength strength, List<PropertyOutcome> failed) {
        return strength == Strength.MAY && !failed.isEmpty()
                && failed.stream().allMatch(o -> {
                    Catches.FirstFailure f = Catches.of(o);
                    return f != null && f.kind() == Catches.Kind.SETUP;
                });
    }
}
