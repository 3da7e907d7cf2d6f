package org.ndktck.tck.harness;

import net.jqwik.api.lifecycle.FalsifiedSample;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.ShrunkFalsifiedSample;
import org.ndktck.tck.RunLedger;

import java.util.List;
import java.util.Optional;

/**
 * A property's result that another JVM computed ({@link PlatformJobs}): jqwik reports it as the property's own,
 * with the worker's status, failure, seed and counts. It carries no sample objects (the worker's counterexample
 * is text, in the ledger record).
 *
 * @param status    jqwik's status
 * @param failure   the failure, or null
 * @param seedText  the property's seed, or empty
 * @param tries     tries run
 * @param checks    tries not rejected
 */
record MirroredResult(Status status, Throwable failure, String seedText, int tries, int checks)
        implements PropertyExecutionResult {

    /**
     * @param rec the ledger record of the worker's outcome
     * @return the result jqwik reports for it
     */
    static MirroredResult of(RunLedger.PropertyRecord rec) {
        Status s = switch (rec.status()) {
            case "SUCCESSFUL", "SKIPPED" -> Status.SUCCESSFUL;
            case "ABORTED" -> Status.ABORTED;
            default -> Status.FAILED;
        };
        Throwable t = rec.failure();
        if (s == Status.ABORTED && t == null) {
            t = new WorkerOutcome.WorkerFailure(rec.message());
        }
        return new MirroredResult(s, t, rec.seed(), rec.tries(), rec.checks());
    }

    @Override
    public Optional<String> seed() {
        return seedText == null || seedText.isBlank() ? Optional.empty() : Optional.of(seedText);
    }

    @Override
    public Optional<List<Object>> falsifiedParameters() {
        return Optional.empty();
    }

    @Override
    public Optional<Throwable> throwable() {
        return Optional.ofNullable(failure);
    }

    @Override
    public int countChecks() {
        return checks;
    }

    @Override
    public int countTries() {
        return tries;
    }

    @Override
    public Optional<FalsifiedSample> originalSample() {
        return Optional.empty();
    }

    @Override
    public Optional<ShrunkFalsifiedSample> shrunkSample() {
        return Optional.empty();
    }

    @Override
    public PropertyExecutionResult mapTo(Status newStatus, Throwable newThrowable) {
        return new MirroredResult(newStatus, newThrowable, seedText, tries, checks);
    }
}
