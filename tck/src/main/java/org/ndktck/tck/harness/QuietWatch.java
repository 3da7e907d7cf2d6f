package org.ndktck.tck.harness;

import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Quiet periods that cost no wall time while the kit has other work (the kit-run budgets). A check that must hold
 * through a quiet period after the provider returned inline ("no callback came": GEN-CB-2, GEN-CB-4, CL-1,
 * CL-4) is handed to this watch with its deadline (now plus {@link Bounds#quietNanos()}) instead of being
 * waited for: the try goes on, and the check runs once its deadline has passed, at the close of a later
 * session of the same property ({@link #due()}), or at the latest when the property ends
 * ({@link #settle()}), which waits only for what is still left of the last deadline. The check looks at
 * the same counters it looked at before (the callbacks an op saw), so a late callback is caught exactly as
 * when the try waited: it breaks the same rule, as a {@link RuleViolation}; the message says it was seen
 * after the try that made the call had ended. Each check runs once, after its full quiet period.
 *
 * <p>One property runs at a time in a JVM (the kit's lifecycle), so the watch is the running property's;
 * {@link #settle()} empties it. The checks are kept in the run's {@link RunContext}: a check a session of an ended run
 * left is never run by the run after it.
 */
public final class QuietWatch {
    /** One check and the end of its quiet period ({@link System#nanoTime()}). */
    record Pending(long deadlineNanos, Supplier<RuleViolation> check) {
    }

    private QuietWatch() {
    }

    /**
     * Runs {@code check} once the quiet period that starts now has passed.
     *
     * @param quietNanos the quiet period, in nanoseconds
     * @param check      what must hold after it: null when it holds, else the violation
     */
    public static void after(long quietNanos, Supplier<RuleViolation> check) {
        after(RunContext.current(), quietNanos, check);
    }

    /**
     * Runs {@code check} once the quiet period that starts now has passed, in the given run (the run of the session
     * that made the call: a check left by a run that has ended never runs in the run after it).
     *
     * @param run        the run the check belongs to
     * @param quietNanos the quiet period, in nanoseconds
     * @param check      what must hold after it: null when it holds, else the violation
     */
    static void after(RunContext run, long quietNanos, Supplier<RuleViolation> check) {
        run.watch(System.nanoTime() + quietNanos, check);
    }

    /**
     * Runs the checks whose quiet period has passed (the others stay), without waiting.
     *
     * @return the first violation they found, or null
     */
    public static RuleViolation due() {
        List<Pending> ready = new ArrayList<>();
        long now = System.nanoTime();
        List<Pending> pending = RunContext.current().quietChecks();
        synchronized (pending) {
            for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
                Pending p = it.next();
                if (now - p.deadlineNanos() >= 0) {
                    ready.add(p);
                    it.remove();
                }
            }
        }
        return run(ready);
    }

    /**
     * Waits for what is left of the latest quiet period, then runs every check still pending and empties
     * the watch (the end of a property).
     *
     * @return the first violation found, or null
     */
    public static RuleViolation settle() {
        List<Pending> all;
        List<Pending> pending = RunContext.current().quietChecks();
        synchronized (pending) {
            all = new ArrayList<>(pending);
            pending.clear();
        }
        long last = Long.MIN_VALUE;
        for (Pending p : all) {
            last = last == Long.MIN_VALUE || p.deadlineNanos() - last > 0 ? p.deadlineNanos() : last;
        }
        if (!all.isEmpty()) {
            for (long left; (left = last - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(left);
            }
        }
        return run(all);
    }

    /** Forgets every pending check (a new run starts). */
    public static void reset() {
        List<Pending> pending = RunContext.current().quietChecks();
        synchronized (pending) {
            pending.clear();
        }
    }

    private static RuleViolation run(List<Pending> checks) {
        RuleViolation first = null;
        for (Pending p : checks) {
            RuleViolation v = p.check().get();
            if (v != null && first == null) {
                first = new RuleViolation(v.ruleId(), stripRule(v.getMessage())
                        + "\n  (seen after the try that made the call had ended)");
            }
        }
        return first;
    }

    private static String stripRule(String message) {
        int close = message == null ? -1 : message.indexOf(']');
        return close >= 0 && close + 2 <= message.length() ? message.substring(close + 2) : String.valueOf(message);
    }
}
