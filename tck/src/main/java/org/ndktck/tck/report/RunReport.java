package org.ndktck.tck.report;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;
import java.util.Map;

/**
 * The content of {@code report.json} (design section 7): one kit run, or several shards merged. Field
 * names are a contract that CI scripts read; add fields, never rename them. Times are milliseconds;
 * {@code triesPerSecond} is tries divided by the seconds the properties ran.
 *
 * @param format          the report format, {@value #FORMAT}
 * @param kit             the kit that ran
 * @param provider        the provider under test, its settings and NDK_ADAPTER_INFO
 * @param seed            the run seed (a signed 64-bit value); every property's seed derives from it. A random
 *                        seed is drawn in [0, 2^53), so it is exact in JSON readers that hold numbers as doubles
 *                        (jq, JavaScript); a seed given with {@code --seed} may be any long: read
 *                        {@link #seedText()} for the exact decimal in every case
 * @param seedGiven       whether the user chose the seed ({@code --seed})
 * @param profile         smoke, standard or deep
 * @param tries           the {@code --tries} override, or null
 * @param timeoutFactor   the {@code --timeout-factor}
 * @param strict          whether ADVISORY fails the run ({@code --strict})
 * @param rulesPattern    the {@code --rules} patterns, or null for every rule
 * @param shard           the shard this report covers, or null
 * @param mergedShards    for a merged report, the shards it combines; else empty
 * @param startedAt       ISO-8601 instant the run started
 * @param durationMillis  wall time of the run (for a merge: the sum over the shards)
 * @param triesPerSecond  tries of every property divided by the seconds they ran
 * @param summary         counts of verdicts
 * @param exclusions      the exclusions file's entries and whether each held
 * @param notes           remarks: expired exclusions, abandoned properties, missing shards
 * @param replay          the command that replays this whole run
 * @param exitCode        the runner's exit code for this report
 * @param rules           every catalog rule with its verdict, in catalog order
 * @param properties      every property that ran (or was skipped), in execution order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"format", "kit", "provider", "seed", "seedText", "seedGiven"})
public record RunReport(String format, Kit kit, Provider provider, long seed, boolean seedGiven, String profile,
                        Integer tries, double timeoutFactor, boolean strict, String rulesPattern, ShardInfo shard,
                        List<ShardInfo> mergedShards, String startedAt, long durationMillis, double triesPerSecond,
                        Summary summary, List<ExclusionNote> exclusions, List<String> notes, String replay,
                        int exitCode, List<RuleReport> rules, List<PropertyReport> properties) {

    /** Value of {@link #format()}. */
    public static final String FORMAT = "ndk-tck-report/1";

    /**
     * The run seed as an exact decimal string (field {@code seedText} of report.json, written, not read):
     * {@code jq -r .seedText report.json} gives the value to pass to {@code --seed} whatever the seed.
     *
     * @return {@link #seed()} in decimal
     */
    @JsonProperty(value = "seedText", access = JsonProperty.Access.READ_ONLY)
    public String seedText() {
        return Long.toString(seed);
    }

    /** How many properties {@link #slowestProperties()} names. */
    public static final int SLOWEST = 5;

    /**
     * One of the slowest properties of the run (field {@code slowestProperties} of report.json, written, not read).
     *
     * @param property       {@code Class#method}
     * @param rules          the rules it checks
     * @param durationMillis its wall time, in milliseconds
     * @param share          its share of the time all properties ran, in [0, 1] (0.25 is a quarter)
     */
    public record SlowProperty(String property, List<String> rules, long durationMillis, double share) {
    }

    /**
     * The slowest properties of the run, slowest first (at most {@value #SLOWEST}), with their share of the time
     * every property ran: a provider call that is slow shows here before it shows as a time-out.
     *
     * @return the slowest properties; empty when none ran
     */
    @JsonProperty(value = "slowestProperties", access = JsonProperty.Access.READ_ONLY)
    public List<SlowProperty> slowestProperties() {
        long total = properties.stream().mapToLong(PropertyReport::durationMillis).sum();
        if (total <= 0) {
            return List.of();
        }
        return properties.stream().filter(p -> p.durationMillis() > 0)
                .sorted(java.util.Comparator.comparingLong(PropertyReport::durationMillis).reversed()
                        .thenComparing(PropertyReport::property))
                .limit(SLOWEST)
                .map(p -> new SlowProperty(p.property(), p.rules(), p.durationMillis(),
                        Math.round(p.durationMillis() * 1000.0 / total) / 1000.0))
                .toList();
    }

    /**
     * The failures of the run grouped by the property that found them (field {@code failureGroups} of report.json,
     * written, not read): one entry per failed property, with the rules its failure names as broken (the root
     * cause) and every rule whose reported failure is that one (same seed and counterexample), so one provider
     * bug that several rules report shows as one group.
     *
     * @param property       the property that found it ({@code Class#method})
     * @param seed           its seed
     * @param counterexample its (shrunk) counterexample
     * @param violatedRules  the rules its failure names as broken
     * @param failedRules    the rules reported FAIL or ADVISORY with this failure
     * @param cause          the property's first failure ({@code violation of RULE}, {@code set-up error: ...}): the
     *                       key of its entry in {@link #failureCauses()}, which several groups may share
     */
    public record FailureGroup(String property, String seed, String counterexample, List<String> violatedRules,
                               List<String> failedRules, String cause) {
    }

    /**
     * The failures of the run grouped by cause (field {@code failureCauses} of report.json, written, not read): one
     * entry per distinct first failure of the failed properties, with every property that met it and every FAIL or
     * ADVISORY rule reporting it, so a set-up call that fails for every property, or one provider bug several
     * properties meet, is one entry (see {@link FailureCauses}).
     *
     * @return the causes, in the order their first property ran
     */
    @JsonProperty(value = "failureCauses", access = JsonProperty.Access.READ_ONLY)
    public List<FailureCauses.FailureCause> failureCauses() {
        return FailureCauses.of(this);
    }

    /** @return the failures grouped by the property that found them, in the order the properties ran */
    @JsonProperty(value = "failureGroups", access = JsonProperty.Access.READ_ONLY)
    public List<FailureGroup> failureGroups() {
        List<FailureGroup> out = new java.util.ArrayList<>();
        for (PropertyReport p : properties) {
            if (!"FAILED".equals(p.status()) && !"TIMED_OUT".equals(p.status())) {
                continue;
            }
            List<String> charged = rules.stream()
                    .filter(r -> ("FAIL".equals(r.verdict()) || "ADVISORY".equals(r.verdict()))
                            && java.util.Objects.equals(r.seed(), p.seed())
                            && java.util.Objects.equals(r.counterexample(), p.counterexample()))
                    .map(RuleReport::id).toList();
            out.add(new FailureGroup(p.property(), p.seed(), p.counterexample(), p.violatedRules(), charged,
                    FailureCauses.causeOf(p)));
        }
        return out;
    }

    /** Normalizes null lists. */
    public RunReport {
        mergedShards = mergedShards == null ? List.of() : List.copyOf(mergedShards);
        exclusions = exclusions == null ? List.of() : List.copyOf(exclusions);
        notes = notes == null ? List.of() : List.copyOf(notes);
        rules = rules == null ? List.of() : List.copyOf(rules);
        properties = properties == null ? List.of() : List.copyOf(properties);
    }

    /**
     * @param version      the kit's version
     * @param catalogRules number of rules in the catalog
     * @param kitPackage   the package of properties that ran
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Kit(String version, int catalogRules, String kitPackage) {
    }

    /**
     * @param name             the name given to {@code --provider}
     * @param className        the provider's class
     * @param description      its one-line description
     * @param jars             the {@code --provider-jar} entries
     * @param settings         every setting in effect, defaults included
     * @param settingsGiven    the {@code --set} pairs as given
     * @param adapterInfo      NDK_ADAPTER_INFO: version as "1.2", flags as numbers and {@code adapterFlagsHex}, and
     *                         {@code pageSize}, the adapter's PAGE_SIZE in bytes (the drawings of report.html use it)
     * @param adapterInfoError why the adapter info could not be read, or null
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Provider(String name, String className, String description, List<String> jars,
                           Map<String, String> settings, Map<String, String> settingsGiven,
                           Map<String, Object> adapterInfo, String adapterInfoError) {
    }

    /**
     * Verdict counts over every rule of the report.
     *
     * @param rules          rules in the report
     * @param passed         PASS
     * @param failed         FAIL
     * @param advisory       ADVISORY
     * @param notApplicable  NOT_APPLICABLE
     * @param notTestable    NOT_TESTABLE
     * @param untested       UNTESTED
     * @param excluded       EXCLUDED
     * @param tries          tries of every property
     * @param propertyMillis time the properties ran, summed
     * @param triesPerSecond tries / (propertyMillis / 1000)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Summary(int rules, int passed, int failed, int advisory, int notApplicable, int notTestable,
                          int untested, int excluded, long tries, long propertyMillis, double triesPerSecond) {
    }

    /**
     * One rule.
     *
     * @param id             the rule ID
     * @param title          its title
     * @param function       the NDK function or page
     * @param strength       MUST, MUST_NOT, SHOULD, ... (UNKNOWN for an ID the catalog lacks)
     * @param check          how the catalog says it is checked
     * @param verdict        PASS, FAIL, ADVISORY, NOT_APPLICABLE, NOT_TESTABLE, UNTESTED or EXCLUDED
     * @param selected       whether this run (its --rules and --shard) covered the rule; a rule outside
     *                       the selection can still FAIL when another rule's property reported it broken
     * @param tries          tries of its properties, summed
     * @param checks         tries not rejected by assumptions, summed
     * @param durationMillis time its properties ran, summed
     * @param triesPerSecond tries / seconds
     * @param message        why the verdict (failure message, skip reason, exclusion reason), or null
     * @param counterexample the shrunk falsifying sample of the first failure, or null
     * @param seed           the property seed of the first failure, or null
     * @param replay         the command that replays this rule alone, or null when it has no property
     * @param properties     the properties that check it ({@code Class#method})
     * @param advisories     SHOULD-level findings recorded for it
     * @param checksRun      tries of its properties whose check of this rule reached an outcome (a provider result
     *                       compared with what the rule allows), summed; a rule with properties that passed but no
     *                       check run is UNTESTED, never PASS
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RuleReport(String id, String title, String function, String strength, String check, String verdict,
                             boolean selected, long tries, long checks, long durationMillis, double triesPerSecond,
                             String message, String counterexample, String seed, String replay,
                             List<String> properties, List<String> advisories, long checksRun) {
        /** Normalizes null lists. */
        public RuleReport {
            properties = properties == null ? List.of() : List.copyOf(properties);
            advisories = advisories == null ? List.of() : List.copyOf(advisories);
        }

        /**
         * A rule report with no check counted ({@code checksRun} 0): a rule no property ran for.
         *
         * @param id             the rule ID
         * @param title          its title
         * @param function       the NDK function or page
         * @param strength       its strength
         * @param check          how the catalog says it is checked
         * @param verdict        its verdict
         * @param selected       whether this run covered it
         * @param tries          tries of its properties
         * @param checks         tries not rejected
         * @param durationMillis time its properties ran
         * @param triesPerSecond tries / seconds
         * @param message        why the verdict, or null
         * @param counterexample the counterexample, or null
         * @param seed           the seed of the first failure, or null
         * @param replay         its replay command, or null
         * @param properties     its properties
         * @param advisories     its SHOULD-level findings
         */
        public RuleReport(String id, String title, String function, String strength, String check, String verdict,
                          boolean selected, long tries, long checks, long durationMillis, double triesPerSecond,
                          String message, String counterexample, String seed, String replay,
                          List<String> properties, List<String> advisories) {
            this(id, title, function, strength, check, verdict, selected, tries, checks, durationMillis, triesPerSecond,
                    message, counterexample, seed, replay, properties, advisories, 0);
        }

        /** @return tries of its properties that were judged (not discarded), summed: {@code checks} */
        @com.fasterxml.jackson.annotation.JsonProperty(value = "judgedTries", access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
        public long judgedTries() {
            return checks;
        }

        /**
         * @return true when the run's time budget ({@code --time-budget}) made one of its properties run fewer
         *     tries than the profile's (it passed with the tries done) or stopped it unfinished: its note (the first
         *     line of {@code message}) starts with {@code budget-limited: }
         */
        @com.fasterxml.jackson.annotation.JsonProperty(value = "budgetLimited", access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
        public boolean budgetLimited() {
            return org.ndktck.tck.harness.TimeBudget.isLimited(message);
        }

        /**
         * @return tries of its properties that were discarded, summed: an allowed refusal of a call the try needed
         *     (STATUS_INSUFFICIENT_RESOURCES, see {@code org.ndktck.tck.harness.Refusals}) or another assumption
         */
        @com.fasterxml.jackson.annotation.JsonProperty(value = "discardedTries", access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
        public long discardedTries() {
            return Math.max(0, tries - checks);
        }
    }

    /**
     * One property.
     *
     * @param property         {@code Class#method}
     * @param rules            the rules it checks
     * @param status           SUCCESSFUL, FAILED, ABORTED, SKIPPED or TIMED_OUT
     * @param tries            tries executed
     * @param checks           tries not rejected
     * @param seed             jqwik's seed for it
     * @param durationMillis   its wall time
     * @param message          failure or skip reason, or null
     * @param counterexample   the falsifying sample, or null
     * @param violatedRules    other rules its failure reported broken (RuleViolation)
     * @param finishedAtMillis when it ended, since the run started
     * @param firstFailure     what its first failure was ({@code violation of RULE}, {@code crash: ...},
     *                         {@code time bound: ...}, {@code coverage error: ...}, {@code generator error: ...},
     *                         {@code set-up error: ...}, {@code assertion naming no rule: ...}), or null when it
     *                         did not fail (see {@code org.ndktck.tck.runner.Catches})
     * @param firstViolation   the rule of the RuleViolation that was its first failure, or null when its first
     *                         failure was something else or it did not fail: a fault of this rule is caught
     * @param checksRun        per rule of the property, the tries whose check of that rule reached an outcome (a
     *                         provider result compared with what the rule allows; shrinking steps not counted); empty
     *                         when the property did not run
     * @param checksNotReached per rule, why some tries did not reach its check (the adapter limit the kit could not
     *                         reach and the setting that reaches it); empty when every try reached it
     * @param modelPairs       for a property driven by the kit's model of the adapter (a model chain): each (state,
     *                         call) pair of the model its tries exercised ({@code "STATE CALL"}, for example
     *                         {@code "PEER_CLOSED WRITE"}) with the number of calls made in that state, in name order;
     *                         the property's rules are those the pairs' outcomes were judged by; empty for other
     *                         properties
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PropertyReport(String property, List<String> rules, String status, int tries, int checks, String seed,
                                 long durationMillis, String message, String counterexample, List<String> violatedRules,
                                 long finishedAtMillis, String firstFailure, String firstViolation,
                                 Map<String, Integer> checksRun, Map<String, String> checksNotReached,
                                 Map<String, Integer> modelPairs) {
        /** Normalizes null lists and maps. */
        public PropertyReport {
            rules = rules == null ? List.of() : List.copyOf(rules);
            violatedRules = violatedRules == null ? List.of() : List.copyOf(violatedRules);
            checksRun = checksRun == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(checksRun));
            checksNotReached = checksNotReached == null ? Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(checksNotReached));
            modelPairs = modelPairs == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(modelPairs));
        }

        /**
         * A property report with no model pairs.
         *
         * @param property         {@code Class#method}
         * @param rules            the rules it checks
         * @param status           its status
         * @param tries            tries executed
         * @param checks           tries not rejected
         * @param seed             its seed
         * @param durationMillis   its wall time
         * @param message          failure or skip reason, or null
         * @param counterexample   the falsifying sample, or null
         * @param violatedRules    other rules its failure reported broken
         * @param finishedAtMillis when it ended, since the run started
         * @param firstFailure     what its first failure was, or null
         * @param firstViolation   the rule of its first failure's RuleViolation, or null
         * @param checksRun        per rule, the tries whose check reached an outcome
         * @param checksNotReached per rule, why some tries did not reach its check
         */
        public PropertyReport(String property, List<String> rules, String status, int tries, int checks, String seed,
                              long durationMillis, String message, String counterexample, List<String> violatedRules,
                              long finishedAtMillis, String firstFailure, String firstViolation,
                              Map<String, Integer> checksRun, Map<String, String> checksNotReached) {
            this(property, rules, status, tries, checks, seed, durationMillis, message, counterexample, violatedRules,
                    finishedAtMillis, firstFailure, firstViolation, checksRun, checksNotReached, Map.of());
        }

        /**
         * A property report with no check counted.
         *
         * @param property         {@code Class#method}
         * @param rules            the rules it checks
         * @param status           its status
         * @param tries            tries executed
         * @param checks           tries not rejected
         * @param seed             its seed
         * @param durationMillis   its wall time
         * @param message          failure or skip reason, or null
         * @param counterexample   the falsifying sample, or null
         * @param violatedRules    other rules its failure reported broken
         * @param finishedAtMillis when it ended, since the run started
         * @param firstFailure     what its first failure was, or null
         * @param firstViolation   the rule of its first failure's RuleViolation, or null
         */
        public PropertyReport(String property, List<String> rules, String status, int tries, int checks, String seed,
                              long durationMillis, String message, String counterexample, List<String> violatedRules,
                              long finishedAtMillis, String firstFailure, String firstViolation) {
            this(property, rules, status, tries, checks, seed, durationMillis, message, counterexample, violatedRules,
                    finishedAtMillis, firstFailure, firstViolation, Map.of(), Map.of(), Map.of());
        }

        /** @return its tries that were judged: {@code checks} */
        @com.fasterxml.jackson.annotation.JsonProperty(value = "judgedTries", access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
        public int judgedTries() {
            return checks;
        }

        /**
         * @return true when the run's time budget ({@code --time-budget}) ended it before its profile's tries
         *     (it passed with {@code tries} tries) or stopped it unfinished: its {@code message} starts with
         *     {@code budget-limited: }
         */
        @com.fasterxml.jackson.annotation.JsonProperty(value = "budgetLimited", access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
        public boolean budgetLimited() {
            return message != null && message.startsWith(org.ndktck.tck.harness.TimeBudget.LIMITED);
        }

        /** @return its tries that were discarded (an allowed refusal or another assumption) */
        @com.fasterxml.jackson.annotation.JsonProperty(value = "discardedTries", access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
        public int discardedTries() {
            return Math.max(0, tries - checks);
        }
    }

    /**
     * @param index 1-based shard number
     * @param count number of shards
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ShardInfo(int index, int count) {
        @Override
        public String toString() {
            return index + "/" + count;
        }
    }

    /**
     * @param rule    the entry's rule ID or glob
     * @param expires the last day it holds (YYYY-MM-DD)
     * @param reason  the reason given
     * @param expired whether it had expired on the day of the run (and was ignored)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ExclusionNote(String rule, String expires, String reason, boolean expired) {
    }
}
