package org.ndktck.tck.harness;

import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The state of one kit run (a test plan, or a suite inside one) that outlives a single try and must not outlive the
 * run: the forbidden callbacks that came after their session closed ({@link LateCallbacks}) and the checks waiting
 * for their quiet period ({@link QuietWatch}). One object per run, made by {@link ConfigCapture} when the run starts
 * ({@link #start}); the kit's objects that can be reached after their run ended take their run's object when they are
 * made and hand it down: an {@link AsyncOp} (whose completion a provider thread may call seconds later), a session's
 * {@link AsyncCalls} and held sessions. So what a run leaves behind (a provider thread of an earlier run completing a
 * request late, a launcher the runner abandoned finishing its try) lands in that run's object, never in the run that
 * goes on in the same JVM: before, a late callback of an earlier test's provider could fail the next run's first
 * property with a violation that was not its own, and such a run's verdicts depended on how slowly the machine ran.
 *
 * <p>The other per-run state of the harness (the time budget, the call and completion bounds, the provider under
 * test) is still reset in place when a run starts; it is read and written only by the run's own launcher thread and
 * the threads of its current try.
 */
public final class RunContext {
    private static final AtomicLong NEXT = new AtomicLong();
    private static volatile RunContext current = new RunContext();

    private final long id = NEXT.incrementAndGet();
    /** Forbidden callbacks of this run's calls that came after the session that made the call had closed. */
    private final ConcurrentLinkedQueue<AsyncOp<?>> late = new ConcurrentLinkedQueue<>();
    /** Checks waiting for their quiet period (guarded by itself). */
    private final List<QuietWatch.Pending> quiet = new ArrayList<>();

    private RunContext() {
    }

    /**
     * Starts a run: from now on {@link #current()} is a fresh object; the one before stays with whatever still holds it.
     *
     * @return the new run's object
     */
    static RunContext start() {
        RunContext c = new RunContext();
        current = c;
        return c;
    }

    /** @return the object of the run started last in this JVM */
    public static RunContext current() {
        return current;
    }

    /** @return a number unique to this run in this JVM, counting from 1 */
    public long id() {
        return id;
    }

    /** @param op a call of this run whose forbidden callback came after its session closed */
    void lateCallback(AsyncOp<?> op) {
        late.add(op);
    }

    /** @return the oldest late callback not yet taken, or null */
    AsyncOp<?> takeLateCallback() {
        return late.poll();
    }

    /** Forgets the late callbacks. */
    void clearLateCallbacks() {
        late.clear();
    }

    /**
     * @param deadlineNanos when the quiet period ends ({@link System#nanoTime()})
     * @param check         what must hold then: null when it holds, else the violation
     */
    void watch(long deadlineNanos, Supplier<RuleViolation> check) {
        synchronized (quiet) {
            quiet.add(new QuietWatch.Pending(deadlineNanos, check));
        }
    }

    /** @return the list of checks waiting for their quiet period; synchronize on it */
    List<QuietWatch.Pending> quietChecks() {
        return quiet;
    }
}
