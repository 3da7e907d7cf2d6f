package org.ndktck.tck.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Groups the failures of a run by cause, so one cause is one message (report.json {@code failureCauses}, the
 * console's failure list and report.html's "Failures by cause"). The cause of a failed property is its first
 * failure as {@link RunReport.PropertyReport#firstFailure()} words it: {@code violation of RULE} (one provider bug
 * that several properties meet), {@code set-up error: kit set-up failed: NdkCreatePd() returned
 * STATUS_NOT_IMPLEMENTED (0xC0000002)} (a call the kit needs before it can judge anything), {@code crash: ...},
 * {@code time bound: ...}. Each FAIL or ADVISORY rule is listed under the cause of the failure it reports (the
 * property whose seed and counterexample the rule carries); a rule whose finding is a SHOULD-level advisory with
 * no failed property has no cause and is not listed here.
 */
public final class FailureCauses {
    private FailureCauses() {
    }

    /** Prefix of a set-up error cause, as {@code org.ndktck.tck.runner.Catches} words it. */
    public static final String SETUP = "set-up error: ";

    private static final Pattern SETUP_CALL = Pattern.compile("kit set-up failed: (Ndk\\w+|connectLoopback)\\(");

    /**
     * One cause.
     *
     * @param cause          the cause: a failed property's first failure ({@code violation of MR-FR-4},
     *                       {@code set-up error: ...}, {@code crash: ...})
     * @param properties     the properties whose first failure it was ({@code Class#method}), in the order they ran
     * @param rules          the FAIL or ADVISORY rules that report a failure with this cause, in catalog order
     * @param failedRules    those of {@code rules} that are FAIL
     * @param advisoryRules  those of {@code rules} that are ADVISORY
     * @param rule           the rule whose message, counterexample and replay stand for the group (its first rule),
     *                       or null when no rule reports it
     * @param implementFirst for a set-up error, the SPI call that failed ({@code NdkCreatePd}): the provider's first
     *                       job; else null
     */
    public record FailureCause(String cause, List<String> properties, List<String> rules, List<String> failedRules,
                               List<String> advisoryRules, String rule, String implementFirst) {
        /** @return whether this cause is a set-up error */
        public boolean setup() {
            return cause.startsWith(SETUP);
        }
    }

    /**
     * @param p a failed property
     * @return its cause: {@code firstFailure}, or {@code failed: } and its message's first line when the report has no
     *     {@code firstFailure} (a report written before the field existed)
     */
    public static String causeOf(RunReport.PropertyReport p) {
        if (p.firstFailure() != null && !p.firstFailure().isBlank()) {
            return p.firstFailure();
        }
        String m = p.message() == null ? p.status() : p.message();
        int nl = m.indexOf('\n');
        return "failed: " + (nl < 0 ? m : m.substring(0, nl));
    }

    /**
     * @param r a report
     * @return its causes, in the order their first property ran
     */
    public static List<FailureCause> of(RunReport r) {
        Map<String, List<RunReport.PropertyReport>> byCause = new LinkedHashMap<>();
        for (RunReport.PropertyReport p : r.properties()) {
            if (failed(p)) {
                byCause.computeIfAbsent(causeOf(p), k -> new ArrayList<>()).add(p);
            }
        }
        Map<String, Set<String>> rulesOf = new LinkedHashMap<>();
        byCause.keySet().forEach(c -> rulesOf.put(c, new LinkedHashSet<>()));
        for (RunReport.RuleReport rule : r.rules()) {
            if (!finding(rule)) {
                continue;
            }
            String c = causeOfRule(rule, byCause);
            if (c != null) {
                rulesOf.get(c).add(rule.id());
            }
        }
        Map<String, String> verdicts = new LinkedHashMap<>();
        r.rules().forEach(x -> verdicts.put(x.id(), x.verdict()));
        List<FailureCause> out = new ArrayList<>();
        byCause.forEach((cause, props) -> {
            List<String> rules = List.copyOf(rulesOf.get(cause));
            Matcher m = SETUP_CALL.matcher(cause);
            out.add(new FailureCause(cause, props.stream().map(RunReport.PropertyReport::property).toList(), rules,
                    rules.stream().filter(id -> "FAIL".equals(verdicts.get(id))).toList(),
                    rules.stream().filter(id -> "ADVISORY".equals(verdicts.get(id))).toList(),
                    rules.isEmpty() ? null : rules.get(0),
                    cause.startsWith(SETUP) && m.find() ? m.group(1) : null));
        });
        return out;
    }

    /**
     * @param r    a report
     * @param rule one of its rules
     * @return the cause its finding is listed under, or null (not a finding, or an advisory with no failed property)
     */
    public static String causeOfRule(RunReport r, RunReport.RuleReport rule) {
        if (!finding(rule)) {
            return null;
        }
        Map<String, List<RunReport.PropertyReport>> byCause = new LinkedHashMap<>();
        r.properties().stream().filter(FailureCauses::failed)
                .forEach(p -> byCause.computeIfAbsent(causeOf(p), k -> new ArrayList<>()).add(p));
        return causeOfRule(rule, byCause);
    }

    private static String causeOfRule(RunReport.RuleReport rule, Map<String, List<RunReport.PropertyReport>> byCause) {
        // the property whose failure the rule reports: the same seed and counterexample
        for (Map.Entry<String, List<RunReport.PropertyReport>> e : byCause.entrySet()) {
            for (RunReport.PropertyReport p : e.getValue()) {
                if (rule.seed() != null && Objects.equals(rule.seed(), p.seed())
                        && Objects.equals(rule.counterexample(), p.counterexample())) {
                    return e.getKey();
                }
            }
        }
        // else a failed property of the rule, or one its message names
        for (Map.Entry<String, List<RunReport.PropertyReport>> e : byCause.entrySet()) {
            for (RunReport.PropertyReport p : e.getValue()) {
                if (rule.properties().contains(p.property())
                        || rule.message() != null && rule.message().contains(p.property())) {
                    return e.getKey();
                }
            }
        }
        return null;
    }

    private static boolean failed(RunReport.PropertyReport p) {
        return "FAILED".equals(p.status()) || "TIMED_OUT".equals(p.status());
    }

    private static boolean finding(RunReport.RuleReport rule) {
        return "FAIL".equals(rule.verdict()) || "ADVISORY".equals(rule.verdict());
    }
}
