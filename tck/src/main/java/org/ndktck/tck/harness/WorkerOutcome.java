package org.ndktck.tck.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.RunLedger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How one property ended in a worker JVM of a shared run, as the JVM that waits for it needs it
 * ({@link PlatformJobs}: a provider's own build with {@code ndk.tck.jobs} above 1). Written by the worker as
 * {@code <claim file>.outcome.json} next to its claim ({@link PropertyClaims}), atomically (written aside, then
 * moved), so a reader sees all of it or nothing.
 *
 * @param property       {@code Class#method}
 * @param status         SUCCESSFUL, FAILED, ABORTED, SKIPPED or TIMED_OUT
 * @param tries          tries run
 * @param checks         tries not rejected
 * @param seed           the property's jqwik seed, or empty
 * @param durationMillis the property's wall time in the worker, in milliseconds
 * @param message        failure or skip reason, or empty
 * @param counterexample the shrunk sample as text, or empty
 * @param firstRule      the rule of the property's first failure when that is a {@link RuleViolation}, else null
 * @param violations     every rule the failure names, with the violation's message (without the {@code [RULE]} prefix)
 * @param advisories     the SHOULD-level findings the worker recorded while the property ran
 * @param checksRun      per rule, the tries whose check reached an outcome in the worker (null: not counted)
 */
public record WorkerOutcome(String property, String status, int tries, int checks, String seed, long durationMillis,
                            String message, String counterexample, String firstRule, Map<String, String> violations,
                            List<RunLedger.Advisory> advisories, org.ndktck.tck.ChecksRun checksRun) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Normalizes nulls. */
    public WorkerOutcome {
        message = message == null ? "" : message;
        counterexample = counterexample == null ? "" : counterexample;
        seed = seed == null ? "" : seed;
        violations = violations == null ? Map.of() : new LinkedHashMap<>(violations);
        advisories = advisories == null ? List.of() : List.copyOf(advisories);
    }

    /**
     * @param claims     the run's claims directory
     * @param propertyId {@code Class#method}
     * @return where the outcome of that property goes
     */
    public static Path file(Path claims, String propertyId) {
        return claims.resolve(PropertyClaims.fileName(propertyId) + ".outcome.json");
    }

    /**
     * @param claims the run's claims directory
     * @throws IOException when it cannot be written
     */
    public void write(Path claims) throws IOException {
        Path f = file(claims, property);
        Path aside = f.resolveSibling(f.getFileName() + ".part");
        JSON.writeValue(aside.toFile(), this);
        Files.move(aside, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * @param claims     the run's claims directory
     * @param propertyId {@code Class#method}
     * @return the property's outcome, once a worker has written it
     */
    public static Optional<WorkerOutcome> read(Path claims, String propertyId) {
        Path f = file(claims, propertyId);
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(f.toFile(), WorkerOutcome.class));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * @return the failure as this JVM reports it: a {@link RuleViolation} of the first rule (or a
     *     {@link WorkerFailure} when the first failure named no rule) whose suppressed exceptions are the
     *     violations of the other rules; null for a property that did not fail
     */
    public Throwable failure() {
        if (!status.equals("FAILED") && !status.equals("TIMED_OUT")) {
            return null;
        }
        Throwable top = firstRule != null
                ? new RuleViolation(firstRule, violations.getOrDefault(firstRule, message))
                : new WorkerFailure(message.isBlank() ? "the property failed in a worker JVM" : message);
        violations.forEach((rule, text) -> {
            if (!rule.equals(firstRule)) {
                top.addSuppressed(new RuleViolation(rule, text));
            }
        });
        top.setStackTrace(new StackTraceElement[0]);
        return top;
    }

    /**
     * @param ruleIds the property's rules
     * @return the ledger record of this outcome, as the property's own run would have recorded it
     */
    public RunLedger.PropertyRecord record(Set<String> ruleIds) {
        Throwable f = failure();
        return new RunLedger.PropertyRecord(ruleIds, property, status.equals("TIMED_OUT") ? "FAILED" : status, tries, checks,
                seed, durationMillis, f == null ? message : String.valueOf(f.getMessage()), f, counterexample, checksRun);
    }

    /** A failure of a worker's property that named no rule (a crash, a time bound, a set-up error), as text. */
    public static final class WorkerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message what the worker reported */
        public WorkerFailure(String message) {
            super(message);
        }
    }
}
