package org.ndktck.tck;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many checks of each rule a property ran to an outcome: for each of the property's rules, the tries (shrinking
 * steps not counted) in which a provider result was compared with what the rule allows, and for a rule whose check a
 * try did not reach, why (the adapter limit the kit could not reach and the setting that reaches it). Filled by
 * {@code org.ndktck.tck.harness.ChecksReached}; a rule with no check run is UNTESTED, never PASS.
 *
 * @param byRule     rule ID to the number of tries whose check of that rule reached an outcome (0 or more)
 * @param notReached rule ID to why some of its tries did not reach its check (the first reason given); empty when
 *                   every try reached it
 * @param modelPairs for a property driven by the kit's model of the adapter (a model chain), each (state, call) pair
 *                   of the model its counted tries exercised, named {@code "STATE CALL"} (for example
 *                   {@code "PEER_CLOSED WRITE"}), with how many calls were made in that state; empty for other
 *                   properties
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChecksRun(Map<String, Integer> byRule, Map<String, String> notReached, Map<String, Integer> modelPairs) {
    /** No check counted (a property skipped, not run, or whose count is unknown). */
    public static final ChecksRun NONE = new ChecksRun(Map.of(), Map.of());

    /** Normalizes nulls and copies. */
    public ChecksRun {
        byRule = byRule == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byRule));
        notReached = notReached == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(notReached));
        modelPairs = modelPairs == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(modelPairs));
    }

    /**
     * Checks counted with no model pairs.
     *
     * @param byRule     rule ID to the tries whose check of that rule reached an outcome
     * @param notReached rule ID to why some of its tries did not reach its check
     */
    public ChecksRun(Map<String, Integer> byRule, Map<String, String> notReached) {
        this(byRule, notReached, Map.of());
    }

    /**
     * @param ruleId a rule ID
     * @return the tries whose check of that rule reached an outcome (0 when none, or the rule is not the property's)
     */
    public int of(String ruleId) {
        return byRule.getOrDefault(ruleId, 0);
    }

    /**
     * @param ruleId a rule ID
     * @return why a try did not reach the rule's check, or null when none said so
     */
    public String whyNot(String ruleId) {
        return notReached.get(ruleId);
    }

    /** @return the checks of every rule, summed */
    @JsonIgnore
    public long total() {
        return byRule.values().stream().mapToLong(Integer::longValue).sum();
    }
}
