package org.ndktck.tck.report;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;

/**
 * The content of {@code selftest.json}: how the kit fared against every faulty provider ({@code fault:RULE[/variant]})
 * and every legal-but-unusual provider ({@code legal:...}).
 *
 * @param format              {@value #FORMAT}
 * @param kitVersion          the kit's version
 * @param seed                the run seed every fault ran with
 * @param profile             the profile
 * @param tries               the tries override, or null
 * @param timeoutFactor       the timeout factor
 * @param faultBoundMillis    the time bound of one fault's run, in milliseconds
 * @param faults              one row per fault
 * @param legal               one row per legal provider
 * @param caught              faults caught by their rule
 * @param medianCatchMillis   median time to catch over the caught faults, or null
 * @param durationMillis      wall time of the whole selftest
 * @param exitCode            0 when every fault was caught and every legal provider passed, else 1
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"format", "kitVersion", "seed", "seedText"})
public record SelftestReport(String format, String kitVersion, long seed, String profile, Integer tries, double timeoutFactor,
                             long faultBoundMillis, List<FaultRow> faults, List<LegalRow> legal, int caught,
                             Long medianCatchMillis, long durationMillis, int exitCode) {
    /** Value of {@link #format()}. */
    public static final String FORMAT = "ndk-tck-selftest/1";

    /**
     * @return {@link #seed()} as an exact decimal string (field {@code seedText} of selftest.json, written, not read)
     */
    @JsonProperty(value = "seedText", access = JsonProperty.Access.READ_ONLY)
    public String seedText() {
        return Long.toString(seed);
    }

    /**
     * @param provider          the fault's provider name
     * @param rule              the rule it breaks (the part of the name before {@code /})
     * @param caught            whether the kit caught the fault: the rule is FAILed (ADVISORY for a SHOULD rule) and a
     *                          property's first failure was a RuleViolation of that rule ({@code outcome} "caught")
     * @param verdict           the verdict of that rule
     * @param failedRules       every rule that failed (FAIL or ADVISORY)
     * @param timeToCatchMillis from the start of the fault's run to the end of the first property that failed
     *                          the rule, or null when not caught
     * @param durationMillis    wall time of the fault's run
     * @param timedOut          whether the fault's run hit its time bound
     * @param message           the first lines of the rule's failure, or why it was not caught
     * @param replay            the command that shows this failure
     * @param outcome           {@value #CAUGHT}, {@value #OTHER_REASON} (something failed, but no property's first
     *                          failure was a violation of the rule: a crash, a time bound, a coverage, generator or
     *                          set-up error, or a violation of another rule) or {@value #NOT_CAUGHT} (nothing failed)
     * @param outcomeDetail     the outcome in words: which property caught it, or
     *                          {@code failed for another reason: ...} with what the failure was, or why not caught
     * @param caughtBy          the property ({@code Class#method}) whose first failure caught the fault, or null
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FaultRow(String provider, String rule, boolean caught, String verdict, List<String> failedRules,
                           Long timeToCatchMillis, long durationMillis, boolean timedOut, String message, String replay,
                           String outcome, String outcomeDetail, String caughtBy) {
        /** Value of {@link #outcome()}: a property's first failure was a violation of the fault's rule. */
        public static final String CAUGHT = "caught";
        /** Value of {@link #outcome()}: the run failed, but not by a violation of the fault's rule. */
        public static final String OTHER_REASON = "failed for another reason";
        /** Value of {@link #outcome()}: nothing failed. */
        public static final String NOT_CAUGHT = "not caught";

        /**
         * @return the provider setting {@code completion} of this row: {@code pending} for a row named
         *     {@code <provider> [completion=pending]} (the extra pending-completion rows), else {@code default} (the provider's own)
         */
        @JsonProperty(value = "completion", access = JsonProperty.Access.READ_ONLY)
        public String completion() {
            return completionOf(provider);
        }
    }

    /**
     * @param provider a row's provider field
     * @return {@code pending} when it carries {@code [completion=pending]} (before any {@code [profile=deep]}), else
     *     {@code default}
     */
    static String completionOf(String provider) {
        return provider != null && provider.contains(" [completion=pending]") ? "pending" : "default";
    }

    /**
     * @param provider       the legal provider's name
     * @param rules          the rules run (a pattern, or null for every rule)
     * @param passed         whether no rule failed
     * @param failedRules    the rules that failed
     * @param durationMillis wall time
     * @param message        why it did not pass, or null
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record LegalRow(String provider, String rules, boolean passed, List<String> failedRules, long durationMillis,
                           String message) {
        /** @return as {@link FaultRow#completion()}: {@code pending} or {@code default} */
        @JsonProperty(value = "completion", access = JsonProperty.Access.READ_ONLY)
        public String completion() {
            return completionOf(provider);
        }
    }
}
