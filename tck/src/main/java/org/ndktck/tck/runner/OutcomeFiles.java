package org.ndktck.tck.runner;

import org.ndktck.tck.RunLedger;
import org.ndktck.tck.harness.WorkerOutcome;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A worker of a shared run ({@code run --claims DIR}) writes each property's outcome next to its claim
 * ({@link WorkerOutcome}), for a JVM that mirrors the run ({@link org.ndktck.tck.harness.PlatformJobs}), then
 * hands the event on to the console.
 */
final class OutcomeFiles implements KitExecution.Progress {
    private final Path claims;
    private final KitExecution.Progress next;
    private int advisoryMark;

    /**
     * @param claims the run's claims directory
     * @param next   the progress sink to hand every event to
     */
    OutcomeFiles(Path claims, KitExecution.Progress next) {
        this.claims = claims;
        this.next = next;
    }

    @Override
    public void started(PropertyInfo property) {
        advisoryMark = RunLedger.advisories().size();
        next.started(property);
    }

    @Override
    public void finished(PropertyOutcome o) {
        List<RunLedger.Advisory> all = RunLedger.advisories();
        List<RunLedger.Advisory> mine = all.subList(Math.min(advisoryMark, all.size()), all.size());
        Map<String, String> violations = new LinkedHashMap<>();
        for (String rule : Failures.violatedRules(o.failure())) {
            String text = Failures.violationMessage(o.failure(), rule).orElse("");
            String prefix = "[" + rule + "] ";
            violations.put(rule, text.startsWith(prefix) ? text.substring(prefix.length()) : text);
        }
        Catches.FirstFailure first = Catches.of(o);
        try {
            new WorkerOutcome(o.property().propertyId(), o.status(), o.tries(), o.checks(), o.seed(), o.durationMillis(),
                    o.message(), o.counterexample(), first == null ? null : first.rule(), violations, mine, o.checksRun()).write(claims);
        } catch (IOException | RuntimeException e) {
            System.err.println("ndk-tck: could not write the outcome of " + o.property().propertyId() + ": " + e.getMessage());
        }
        advisoryMark = all.size();
        next.finished(o);
    }

    @Override
    public void tick() {
        next.tick();
    }
}
