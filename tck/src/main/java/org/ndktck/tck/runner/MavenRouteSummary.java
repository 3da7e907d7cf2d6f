package org.ndktck.tck.runner;

import org.ndktck.tck.report.FailureCauses;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.harness.TckConfig;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the kit prints on the build's console at the end of a test plan in the provider's own Maven build (the
 * JUnit Platform listener {@link PlatformReports}), so Surefire's output says how to replay a failure: one line per
 * failure cause with its rules, then the replays, in this build ({@code mvn -B verify -Dndk.tck.seed=S
 * -Dgroups=RULE}) and from the kit's checkout (the rule's {@code ./ndk-tck run} command with the provider's classes as
 * {@code --provider-jar}), and where the reports are. Nothing when every rule passed or the provider could not be set up.
 */
final class MavenRouteSummary {
    private MavenRouteSummary() {
    }

    /** Causes printed at most; the rest are counted. */
    static final int MAX_CAUSES = 5;

    /**
     * @param r   the report of the plan
     * @param dir where it was written
     * @return the lines, each starting {@code ndk-tck: }; empty when no rule is FAIL or ADVISORY
     */
    static List<String> lines(RunReport r, Path dir) {
        List<String> out = new ArrayList<>();
        List<FailureCauses.FailureCause> causes = FailureCauses.of(r);
        if (r.summary().failed() + r.summary().advisory() == 0 || r.exitCode() == NdkTckCommand.USAGE) {
            // a setup error already fails every property with its one line; there is nothing to replay
            return out;
        }
        out.add("ndk-tck: " + r.summary().failed() + " FAIL, " + r.summary().advisory() + " ADVISORY; "
                + causes.size() + " " + Console.plural(causes.size(), "cause", "causes") + ":");
        for (FailureCauses.FailureCause c : causes.subList(0, Math.min(MAX_CAUSES, causes.size()))) {
            if (c.rule() == null) {
                continue;
            }
            String rules = c.rules().size() <= 6 ? String.join(", ", c.rules())
                    : String.join(", ", c.rules().subList(0, 6)) + " and " + (c.rules().size() - 6) + " more";
            out.add("ndk-tck:   " + c.cause() + " (" + rules + ")"
                    + (c.implementFirst() == null ? "" : "; write " + c.implementFirst() + " first"));
            out.add("ndk-tck:     replay here:       mvn -B verify -D" + TckConfig.SEED + "=" + r.seedText() + " -Dgroups=" + c.rule());
            r.rules().stream().filter(x -> x.id().equals(c.rule()) && x.replay() != null).findFirst()
                    .ifPresent(x -> out.add("ndk-tck:     replay in the kit: " + x.replay()));
        }
        if (causes.size() > MAX_CAUSES) {
            out.add("ndk-tck:   and " + (causes.size() - MAX_CAUSES) + " more causes");
        }
        out.add("ndk-tck: reports: " + dir.resolve(ReportWriter.HTML) + " (failures by cause first), " + dir.resolve(ReportWriter.JSON));
        return out;
    }
}
