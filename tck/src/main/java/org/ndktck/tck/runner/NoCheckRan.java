package org.ndktck.tck.runner;

import org.ndktck.tck.report.RunReport;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A rule whose properties passed without one check of the rule reaching an outcome (a provider result compared with
 * what the rule allows, {@link org.ndktck.tck.ChecksRun}) rests on nothing: its verdict is UNTESTED with the reason,
 * never PASS. The reason names each passing property and why its tries did not reach the check (the adapter limit the
 * kit could not reach and the setting that reaches it), as the property gave it.
 */
final class NoCheckRan {
    /** Start of the message of a rule UNTESTED because no check of it ran. */
    static final String PREFIX = "no check ran: ";

    private NoCheckRan() {
    }

    /**
     * @param id  a rule
     * @param own the outcomes of the rule's own properties
     * @return the checks of the rule that reached an outcome, summed over its properties
     */
    static long checksRun(String id, List<PropertyOutcome> own) {
        return own.stream().mapToLong(o -> o.checksRun(id)).sum();
    }

    /**
     * @param id  a rule
     * @param own the outcomes of the rule's own properties
     * @return why the rule is UNTESTED although a property passed (none of the passing properties ran a check of
     *     it); empty when a passing property ran one, or none passed
     */
    static Optional<String> why(String id, List<PropertyOutcome> own) {
        List<PropertyOutcome> passed = own.stream().filter(PropertyOutcome::passed).toList();
        if (passed.isEmpty() || passed.stream().anyMatch(o -> o.checksRun(id) > 0)) {
            return Optional.empty();
        }
        StringBuilder sb = new StringBuilder(PREFIX);
        for (PropertyOutcome o : passed) {
            if (sb.length() > PREFIX.length()) {
                sb.append("; ");
            }
            String why = o.checksRun() == null ? null : o.checksRun().whyNot(id);
            sb.append(o.property().propertyId()).append(" passed ").append(o.tries()).append(" tries without comparing a"
                    + " provider result with ").append(id).append(": ")
                    .append(why != null ? why : "no try reached the rule's check");
        }
        return Optional.of(sb.toString());
    }

    /**
     * Checks a correct provider may never reach because of an adapter limit or behaviour the pages leave to it, with
     * the start of the reason the rule's property gives then: GEN-CB-5 when the adapter does not run out of MRs within
     * 32 NdkCreateMr calls (a large object limit), GEN-LIFE-1 when every registration completes inline. The selftest's
     * legal rows accept these (and only these) rules with no check run; the reference reaches both with
     * {@code --set maxObjects=16} and {@code --set completion=pending}.
     */
    static final Map<String, String> ADAPTER_CHOICES = Map.of(
            "GEN-CB-5", "the adapter did not run out of MRs within 32 NdkCreateMr calls",
            "GEN-LIFE-1", "NdkRegisterMr and NdkInitializeFastRegisterMr completed inline");

    /**
     * @param rule a rule reported UNTESTED
     * @return true when its message says no check of it ran for a reason other than one of {@link #ADAPTER_CHOICES}
     */
    static boolean unjudged(RunReport.RuleReport rule) {
        if (!"UNTESTED".equals(rule.verdict()) || rule.message() == null || !rule.message().startsWith(PREFIX)) {
            return false;
        }
        String choice = ADAPTER_CHOICES.get(rule.id());
        return choice == null || !rule.message().contains(choice);
    }

    /** Start of the note of a PASS one of whose passing properties ran no check of the rule. */
    static final String PARTLY = "partly checked: ";

    /**
     * @param id  a rule that passed
     * @param own the outcomes of the rule's own properties
     * @return one note per passing property that ran no check of the rule although another did (the rule passes on the
     *     other's checks; the note says which part was not checked and why)
     */
    static List<String> partly(String id, List<PropertyOutcome> own) {
        return own.stream().filter(o -> o.passed() && o.checksRun(id) == 0)
                .map(o -> PARTLY + o.property().propertyId() + " ran no check of " + id + ": "
                        + (o.checksRun() != null && o.checksRun().whyNot(id) != null ? o.checksRun().whyNot(id)
                        : "no try reached the rule's check"))
                .toList();
    }
}
