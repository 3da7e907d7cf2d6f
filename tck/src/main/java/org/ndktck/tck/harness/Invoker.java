package org.ndktck.tck.harness;

import org.ndktck.tck.RuleViolation;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The guarded invoker: every provider call the kit makes goes through it (GEN-TIME-1, GEN-EXC-1).
 *
 * <p><b>Time bound.</b> A call made on the property thread (the jqwik thread that owns the invoker) is
 * handed to a daemon <i>caller thread</i> and awaited with the bound of {@link Bounds#callNanos()}. If
 * the call has not returned in time, the kit throws {@code RuleViolation("GEN-TIME-1", ...)}, abandons
 * the stuck caller thread (it is a daemon: it never keeps the JVM alive; it is interrupted, so a provider that
 * waits interruptibly lets it go, and it counts against {@link #MAX_ABANDONED} only while it is stuck) and starts a fresh one for the
 * next call, so the rest of the run goes on; the session that made the call stops talking to its adapter
 * and the next try opens a fresh one. A call kind that hung once gets the shorter
 * {@link Bounds#knownHungNanos()} for the rest of the run. The jqwik property itself never leaves its
 * thread (jqwik keeps per-property state in thread-locals).
 *
 * <p>Why a caller thread and not a watchdog: a watchdog cannot free a thread blocked in provider code
 * that ignores interrupts. The hand-off costs a few microseconds while the other side has not parked yet
 * (both sides yield for up to a millisecond before they park, since waking a parked thread costs tens of
 * microseconds on a virtual machine); the kit batches the calls of session
 * set-up and tear-down into one hand-off ({@link #batch}); a property runs its whole try's provider
 * interaction as one batch ({@link NdkSession#inTry}), so a try costs one hand-off, and every provider
 * call in it still has its own bound: the waiting property thread watches the start time of the call the
 * caller thread is in.
 *
 * <p><b>Exceptions.</b> A {@link RuntimeException} or {@link Error} thrown by the provider becomes
 * {@code RuleViolation("GEN-EXC-1", ...)} with the exception as cause.
 *
 * <p><b>Threads.</b> On the property thread: hand-off with the bound. On the invoker's caller thread
 * (a call nested in a {@link #batch}, or a call the kit makes from a completion the provider runs
 * inline): direct, and the outer wait times that step. On any other thread (a completion on a provider
 * thread): direct and unbounded, since a callback must not block the provider; the kit's waits on the
 * property thread bound it.
 */
public final class Invoker {
    /**
     * How long the waiting property thread yields (spins with {@link Thread#yield()}) before it parks, in
     * nanoseconds. Waking a parked thread costs tens of microseconds on a virtual machine, more than most
     * tries' whole provider work; a yielding thread hands its core to any other runnable thread, so it costs
     * the other workers of a run little (BENCHMARKS.md, "Where a try's time goes").
     */
    private static final long WAIT_SPIN_NANOS = 1_000_000;
    /** How long an idle caller thread yields before it parks, in nanoseconds (as {@link #WAIT_SPIN_NANOS}). */
    private static final long IDLE_SPIN_NANOS = 1_000_000;
    /** Longest the waiting property thread sleeps before it looks at the caller thread's current call again. */
    private static final long POLL_NANOS = 5_000_000;
    /**
     * After this many abandoned caller threads are still stuck in provider code, the kit stops calling the
     * provider at all. An abandoned thread is interrupted (a provider that waits interruptibly lets it go)
     * and stops counting once its call returns.
     */
    static final int MAX_ABANDONED = 64;

    private static final ThreadLocal<Invoker> OWNED = ThreadLocal.withInitial(() -> new Invoker(Thread.currentThread()));
    /** Call kinds that did not return within the bound in this run, each with its first such call (for messages). */
    private static final ConcurrentHashMap<String, String> HUNG_KINDS = new ConcurrentHashMap<>();
    /** The longest a call of each kind took and returned, in this run (nanoseconds). */
    private static final ConcurrentHashMap<String, Long> LONGEST = new ConcurrentHashMap<>();
    private static final AtomicInteger ABANDONED = new AtomicInteger();
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Thread owner;
    private CallerThread caller;
    private volatile int hangs;

    private Invoker(Thread owner) {
        this.owner = owner;
    }

    /**
     * @return the invoker owned by the current thread (the property thread); on a caller thread, the
     *     invoker it works for
     */
    public static Invoker forCurrentThread() {
        if (Thread.currentThread() instanceof CallerThread ct) {
            return ct.owner;
        }
        return OWNED.get();
    }

    /** Forgets which call kinds hung (a new run starts). Abandoned threads stay abandoned. */
    public static void resetRun() {
        Bounds.resetRun();
        HUNG_KINDS.clear();
        LONGEST.clear();
    }

    /** @return how many calls of this invoker did not return within their bound */
    public int hangs() {
        return hangs;
    }

    /** @return call kinds (NDK function names) that did not return within the bound in this run */
    public static Set<String> hungKinds() {
        return Set.copyOf(HUNG_KINDS.keySet());
    }

    /**
     * Calls the provider.
     *
     * @param kind   the NDK function, e.g. {@code NdkRegisterMr} (keys the known-hung bound)
     * @param detail the call with its arguments in hex, built only for a failure message
     * @param body   the provider call
     * @param <T>    the result type
     * @return what the provider returned
     * @throws RuleViolation GEN-TIME-1 when the call does not return in time, GEN-EXC-1 when it throws
     */
    public <T> T call(String kind, Supplier<String> detail, Supplier<T> body) {
        // a launcher the runner abandoned, and the caller threads working for it, stop before their next provider call:
        // they must not change the adapters, layouts or watches of the run that goes on without them
        AbandonedLaunchers.stopHereIfAbandoned(owner);
        Thread me = Thread.currentThread();
        if (me == owner) {
            return handOff(kind, detail, () -> invokeProvider(detail, body), false);
        }
        if (me instanceof CallerThread ct && ct.task != null && ct.owner == this) {
            if (ct.abandoned) {
                throw new Abandoned(ct);
            }
            Task t = ct.task;
            Step outer = t.step;
            t.step(kind, detail, boundFor(kind));
            long started = t.step.start();
            try {
                T result = invokeProvider(detail, body);
                if (ct.abandoned) {
                    throw new Abandoned(ct);
                }
                noteDuration(kind, System.nanoTime() - started);
                return result;
            } finally {
                t.step(outer.kind(), outer.detail(), Math.max(outer.bound(), kitCodeBound()));
            }
        }
        return invokeProvider(detail, body);
    }

    /**
     * Calls the provider for its effect.
     *
     * @param kind   the NDK function
     * @param detail the call with its arguments
     * @param body   the provider call
     */
    public void run(String kind, Supplier<String> detail, Runnable body) {
        call(kind, detail, () -> {
            body.run();
            return null;
        });
    }

    /**
     * Runs kit code that makes several provider calls (through {@link #call}) on the caller thread in
     * one hand-off. Each nested call is bounded on its own; exceptions of the kit code pass through
     * unchanged.
     *
     * @param kind what the batch does, e.g. {@code session set-up}
     * @param body the kit code
     * @param <T>  the result type
     * @return the body's result
     */
    public <T> T batch(String kind, Supplier<T> body) {
        if (Thread.currentThread() != owner) {
            return body.get();
        }
        return handOff(kind, () -> kind, body, true);
    }

    /**
     * Marks a wait the kit does inside a {@link #batch} (for a completion): the outer bound becomes
     * {@code nanos} plus one call bound, so the wait's own, more precise failure wins.
     *
     * @param kind   what is awaited
     * @param detail the awaited call
     * @param nanos  the wait's own bound
     */
    void stepWait(String kind, Supplier<String> detail, long nanos) {
        if (Thread.currentThread() instanceof CallerThread ct && ct.task != null && ct.owner == this) {
            ct.task.step(kind, detail, nanos + Bounds.current().callNanos());
        }
    }

    private static <T> T invokeProvider(Supplier<String> detail, Supplier<T> body) {
        try {
            return body.get();
        } catch (RuleViolation v) {
            throw v;
        } catch (RuntimeException | Error e) {
            if (e instanceof org.opentest4j.TestAbortedException) {
                throw e;
            }
            throw Violations.of("GEN-EXC-1", detail.get(), "an NTSTATUS result; a provider reports errors as NTSTATUS and never throws",
                    "the provider threw " + e, e);
        }
    }

    /** The bound of kit code between two calls of a batch: a call bound plus a completion bound, so the kit's own waits fail first. */
    private static long kitCodeBound() {
        Bounds b = Bounds.current();
        return b.callNanos() + b.completionNanos();
    }

    private long boundFor(String kind) {
        Bounds b = Bounds.current();
        if (!HUNG_KINDS.containsKey(kind)) {
            return b.callNanos();
        }
        // shortened, but never below twice the longest call of this kind that did return in this run, so a
        // legitimately slow kind (a 2^20-page fast registration) is not cut short after one of them ran over
        Long longest = LONGEST.get(kind);
        long floor = longest == null ? 0 : Math.min(b.callNanos(), 2 * longest);
        return Math.max(b.knownHungNanos(), floor);
    }

    private static void noteDuration(String kind, long nanos) {
        if (nanos > 1_000_000) {
            LONGEST.merge(kind, nanos, Math::max);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> T handOff(String kind, Supplier<String> detail, Supplier<T> body, boolean isBatch) {
        if (ABANDONED.get() >= MAX_ABANDONED) {
            throw Violations.of("GEN-TIME-1", detail.get(), "the call returns within the bound",
                    "not called: " + ABANDONED.get() + " abandoned provider calls are still stuck, so the kit no longer calls the provider");
        }
        CallerThread ct = caller;
        if (ct == null || ct.abandoned) {
            ct = new CallerThread(this, THREADS.incrementAndGet());
            ct.start();
            caller = ct;
        }
        CurrentProperty.Info property = CurrentProperty.get();
        Supplier<T> withProperty = property == null ? body : () -> {
            CurrentProperty.setOnThisThread(property);
            try {
                return body.get();
            } finally {
                CurrentProperty.setOnThisThread(null);
            }
        };
        Task t = new Task(withProperty, owner);
        t.step(kind, detail, isBatch ? kitCodeBound() : boundFor(kind));
        ct.post(t);
        long spinEnd = System.nanoTime() + WAIT_SPIN_NANOS;
        boolean interrupted = false;
        while (!t.done) {
            // one consistent snapshot of the caller thread's current step (kind, bound and start together)
            Step step = t.step;
            long now = System.nanoTime();
            long deadline = step.start() + step.bound();
            if (now - deadline >= 0) {
                if (t.done) {
                    break;
                }
                if (t.step != step) {
                    continue; // a new step began while we looked: judge that one
                }
                ct.abandon();
                caller = null;
                hangs++;
                String d = step.detail().get();
                String firstHang = HUNG_KINDS.putIfAbsent(step.kind(), d + " in " + CurrentProperty.primaryRule("?") + "'s property");
                CurrentProperty.boundReached();
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                throw Violations.of("GEN-TIME-1", d, "the call returns within " + Bounds.millis(step.bound())
                                + " (" + Bounds.CALL_MILLIS + " ms x ndk.tck.timeoutFactor " + TckConfig.current().timeoutFactor()
                                + (step.bound() < Bounds.current().callNanos() ? ", shortened: this call kind already hung in this run"
                                + (firstHang == null ? "" : ", first at " + firstHang + ", where it had the full bound") : "") + ")",
                        "it had not returned after " + Bounds.millis(now - step.start()) + "; the kit abandoned the calling thread "
                                + ct.getName() + " and goes on with a fresh adapter");
            }
            if (now - spinEnd < 0) {
                Thread.yield();
            } else {
                // wake up now and then: a nested call may have started with a shorter bound than the one slept on
                LockSupport.parkNanos(this, Math.min(deadline - now, POLL_NANOS));
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!isBatch) {
            noteDuration(kind, System.nanoTime() - t.step.start());
        }
        if (t.error != null) {
            if (t.error instanceof RuntimeException re) {
                throw re;
            }
            if (t.error instanceof Error er) {
                throw er;
            }
            throw new IllegalStateException(t.error);
        }
        return (T) t.result;
    }

    /**
     * What the caller thread is doing now: the call kind, its detail, its bound and when it started
     * ({@link System#nanoTime()}, nanoseconds). Replaced as a whole, so the waiting thread never mixes the
     * start of one step with the bound of another.
     */
    record Step(String kind, Supplier<String> detail, long bound, long start) {
    }

    /** One unit of work handed to the caller thread. */
    static final class Task {
        final Supplier<?> body;
        final Thread waiter;
        volatile Step step;
        volatile boolean done;
        Object result;
        Throwable error;

        Task(Supplier<?> body, Thread waiter) {
            this.body = body;
            this.waiter = waiter;
        }

        void step(String kind, Supplier<String> detail, long bound) {
            this.step = new Step(kind, detail, bound, System.nanoTime());
        }

        void execute() {
            try {
                result = body.get();
            } catch (Throwable e) {
                error = e;
            }
            done = true;
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Thrown on an abandoned caller thread whose provider call came back (late, or released by the
     * interrupt): the try it worked for has already failed, so the rest of that try's kit code unwinds
     * without calling the provider again. Nobody sees it: the abandoned task's result is never read.
     */
    static final class Abandoned extends Error {
        private static final long serialVersionUID = 1L;

        Abandoned(Thread t) {
            super(t.getName() + " was abandoned by the kit after a call ran over its time bound", null, false, false);
        }
    }

    /** The daemon thread that makes provider calls for one property thread. */
    static final class CallerThread extends Thread {
        final Invoker owner;
        volatile Task task;
        private volatile Task posted;
        volatile boolean abandoned;

        CallerThread(Invoker owner, int n) {
            super("ndk-tck-caller-" + n);
            this.owner = owner;
            setDaemon(true);
        }

        void post(Task t) {
            posted = t;
            LockSupport.unpark(this);
        }

        /**
         * Gives the thread up: it counts as stuck ({@link #ABANDONED}) until its call returns, and it is
         * interrupted so a provider waiting interruptibly lets it go.
         */
        void abandon() {
            ABANDONED.incrementAndGet();
            abandoned = true;
            interrupt();
        }

        @Override
        public void run() {
            try {
                loop();
            } finally {
                if (abandoned) {
                    ABANDONED.decrementAndGet();
                }
            }
        }

        private void loop() {
            long spinUntil = 0;
            while (!abandoned) {
                Task t = posted;
                if (t != null) {
                    posted = null;
                    task = t;
                    t.execute();
                    task = null;
                    spinUntil = 0;
                    continue;
                }
                long now = System.nanoTime();
                if (spinUntil == 0) {
                    spinUntil = now + IDLE_SPIN_NANOS;
                }
                if (now - spinUntil < 0) {
                    Thread.yield();
                } else {
                    LockSupport.park(this);
                }
            }
        }
    }
}
