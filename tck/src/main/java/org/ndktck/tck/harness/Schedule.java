package org.ndktck.tck.harness;

import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A seeded schedule for a try in which several kit threads call into one adapter at once (
 * the properties of {@code ConcurrentCallsProperties}).
 *
 * <p><b>Shape.</b> {@code threads} kit threads run {@code steps} steps each. All threads start step {@code k}
 * together (a {@link SpinBarrier}: its waiters spin, so they leave it at the same instant rather than one wake-up
 * apart), and before its action of that step each thread spins a seeded number of
 * iterations and, for some steps, yields, so which call of which thread reaches the provider first is drawn
 * from the seed: the same seed gives the same barriers and the same delays, so a failing try is reproducible
 * as far as the JVM's own scheduling allows. Within a step the threads really run at once.
 *
 * <p><b>Log.</b> Every action a thread runs is logged as {@code step k, thread t: <the call> -> <outcome>}, in
 * the order the actions ended; {@link #explain} puts the seed, the delays and the log into a failure message,
 * so a report shows which thread did which call in which step.
 *
 * <p><b>Time bound.</b> The thread that runs the schedule (the invoker's caller thread, inside
 * {@link NdkSession#inTry}) waits for each step at most one call bound plus one completion bound
 * ({@link Bounds}); the schedule's own threads call the provider directly (the {@link Invoker} bounds only the
 * property thread's calls), so a provider call that never returns is seen here: the step ends in
 * {@code GEN-TIME-1} naming the threads still in it, the barrier is terminated so the other threads stop, and
 * the stuck thread (a daemon) is left behind.
 */
public final class Schedule {
    /** The most iterations a thread spins before an action. */
    static final int MAX_SPIN = 4_000;

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ndk-tck-schedule-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    /** One thread's action at one step. */
    @FunctionalInterface
    public interface Action {
        /**
         * Makes the step's calls.
         *
         * @return the calls and what they returned, for the log (the call in hex, e.g. {@code NdkWrite(...) -> STATUS_SUCCESS})
         */
        String run();
    }

    private final long seed;
    private final int threads;
    private final int steps;
    private final int[][] spins;
    private final boolean[][] yields;
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    private Schedule(long seed, int threads, int steps) {
        this.seed = seed;
        this.threads = threads;
        this.steps = steps;
        this.spins = new int[threads][steps];
        this.yields = new boolean[threads][steps];
        SplittableRandom r = new SplittableRandom(seed);
        for (int t = 0; t < threads; t++) {
            for (int k = 0; k < steps; k++) {
                // half the steps start at once (a race window of a few hundred nanoseconds needs calls that
                // close); the rest spread log-uniformly up to MAX_SPIN, so short offsets are as likely as long ones
                boolean together = r.nextBoolean();
                spins[t][k] = together ? 0 : (int) Math.pow(MAX_SPIN + 1, r.nextDouble()) - 1;
                yields[t][k] = !together && r.nextInt(4) == 0;
            }
        }
    }

    /**
     * Draws the delays of a schedule.
     *
     * @param seed    the try's schedule seed (a jqwik parameter, so a counterexample names it)
     * @param threads kit threads, at least 1
     * @param steps   steps of each thread, at least 1
     * @return the schedule
     */
    public static Schedule draw(long seed, int threads, int steps) {
        if (threads < 1 || steps < 1) {
            throw new IllegalArgumentException("threads and steps must be at least 1: " + threads + ", " + steps);
        }
        return new Schedule(seed, threads, steps);
    }

    /** @return the number of kit threads */
    public int threads() {
        return threads;
    }

    /** @return the number of steps */
    public int steps() {
        return steps;
    }

    /**
     * Runs the actions: {@code perThread.get(t).get(k)} is thread {@code t}'s action at step {@code k} (null, or
     * a list shorter than {@link #steps()}, means the thread only waits at that step). Returns when every
     * thread has finished every step.
     *
     * @param perThread one list of actions per thread ({@link #threads()} lists)
     * @throws RuleViolation the first failure of an action (with {@link #explain}), or GEN-TIME-1 when a step
     *                       does not end within its bound
     */
    public void run(List<List<Action>> perThread) {
        if (perThread.size() != threads) {
            throw new IllegalArgumentException(perThread.size() + " action lists for " + threads + " threads");
        }
        SpinBarrier barrier = new SpinBarrier(threads + 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicIntegerArray done = new java.util.concurrent.atomic.AtomicIntegerArray(threads);
        CurrentProperty.Info property = CurrentProperty.get();
        for (int t = 0; t < threads; t++) {
            int me = t;
            List<Action> mine = perThread.get(t);
            POOL.execute(() -> {
                CurrentProperty.setOnThisThread(property);
                try {
                    for (int k = 0; k < steps && !barrier.isTerminated(); k++) {
                        delay(me, k);
                        Action a = k < mine.size() ? mine.get(k) : null;
                        if (a != null && failure.get() == null) {
                            try {
                                log.add("step " + k + ", thread " + me + ": " + a.run());
                            } catch (Throwable e) {
                                log.add("step " + k + ", thread " + me + ": failed: " + firstLine(e));
                                failure.compareAndSet(null, e);
                            }
                        }
                        done.set(me, k + 1);
                        if (barrier.arriveAndAwait() < 0) {
                            return;
                        }
                    }
                } finally {
                    CurrentProperty.setOnThisThread(null);
                }
            });
        }
        Bounds b = Bounds.current();
        long bound = b.callNanos() + b.completionNanos();
        Invoker inv = Invoker.forCurrentThread();
        for (int k = 0; k < steps; k++) {
            int step = k;
            // inside a batch, the caller thread's own bound becomes this step's wait plus one call bound
            inv.stepWait("a step of a concurrent schedule", () -> "step " + step + " of a concurrent schedule of " + threads + " threads", bound);
            try {
                barrier.arriveAndWatch(bound);
            } catch (TimeoutException e) {
                barrier.terminate();
                List<Integer> stuck = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    if (done.get(t) <= k) {
                        stuck.add(t);
                    }
                }
                CurrentProperty.boundReached();
                throw explain(Violations.of("GEN-TIME-1", "step " + k + " of a concurrent schedule (threads " + stuck + " still in it)",
                        "every call of the step returns, and every completion it awaits arrives, within " + Bounds.millis(bound),
                        "the step had not ended after " + Bounds.millis(bound) + "; the kit left the stuck threads behind"));
            }
        }
        Throwable f = failure.get();
        if (f instanceof RuleViolation v) {
            throw explain(v);
        }
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error er) {
            throw er;
        }
        if (f != null) {
            throw new IllegalStateException(f);
        }
    }

    private void delay(int t, int k) {
        if (yields[t][k]) {
            Thread.yield();
        }
        for (int i = spins[t][k]; i > 0; i--) {
            Thread.onSpinWait();
        }
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return e.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
    }

    /**
     * Adds a log line of the thread that runs the schedule (the set-up before it, the check after it).
     *
     * @param line what the kit did
     */
    public void note(String line) {
        log.add(line);
    }

    /** @return the seed, the threads' delays and the log of the calls, for a failure message */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("schedule seed ").append(String.format(Locale.ROOT, "0x%X", seed)).append(", ").append(threads)
                .append(" kit threads, ").append(steps).append(" steps; spins before each step (a * marks a yield first):");
        for (int t = 0; t < threads; t++) {
            sb.append("\n    thread ").append(t).append(':');
            for (int k = 0; k < steps; k++) {
                sb.append(' ').append(yields[t][k] ? "*" : "").append(spins[t][k]);
            }
        }
        sb.append("\n  calls, in the order they ended:");
        for (String line : log) {
            sb.append("\n    ").append(line);
        }
        return sb.toString();
    }

    /**
     * @param v a failure of the try
     * @return the same failure (same rule, same cause) with the schedule appended to its message
     */
    public RuleViolation explain(RuleViolation v) {
        String m = String.valueOf(v.getMessage());
        String prefix = "[" + v.ruleId() + "] ";
        String body = m.startsWith(prefix) ? m.substring(prefix.length()) : m;
        if (body.contains("\n  schedule seed ")) {
            return v;
        }
        RuleViolation out = new RuleViolation(v.ruleId(), body + "\n  " + describe(), v.getCause() != null ? v.getCause() : v);
        out.setStackTrace(v.getStackTrace());
        return out;
    }
}
