package org.ndktck.tck.harness;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A barrier whose waiters spin instead of parking, so that the kit threads it releases reach the provider at the
 * same instant (concurrent calls on one adapter). A latch, {@link java.util.concurrent.Phaser}
 * or {@link java.util.concurrent.CyclicBarrier} wakes its waiters one after the other, tens of microseconds apart
 * on a virtual machine: longer than a fast provider's whole call, so threads released by one seldom overlap in the
 * provider and a race with a window of a few hundred nanoseconds is never hit. Here every waiter that holds a
 * processor leaves the moment the last party arrives, and the others follow within one scheduler turn (a waiter
 * yields on every turn). A waiter that has spun for {@link #SPIN_NANOS} without the barrier opening (a step that
 * waits for a slow provider's completion) sleeps {@link #NAP_NANOS} between looks, so a long wait costs the
 * provider's own threads no processor time.
 *
 * <p>Phases are numbered from 0; each time all {@code parties} have arrived the phase advances by one and every
 * waiter returns. {@link #terminate()} ends every wait with -1.
 */
public final class SpinBarrier {
    /** How long a waiter spins (yielding each turn) before it starts to nap, in nanoseconds. */
    static final long SPIN_NANOS = 2_000_000;
    /** How long a napping waiter sleeps between looks, in nanoseconds. */
    static final long NAP_NANOS = 50_000;

    private final int parties;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int phase;
    private volatile boolean terminated;

    /** @param parties the threads that arrive at each phase, at least 1 */
    public SpinBarrier(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("parties must be at least 1: " + parties);
        }
        this.parties = parties;
    }

    /**
     * Arrives and waits for the others of this phase, without a bound.
     *
     * @return the new phase, or -1 when the barrier was terminated
     */
    public int arriveAndAwait() {
        try {
            return arriveAndAwait(Long.MAX_VALUE);
        } catch (TimeoutException e) {
            throw new IllegalStateException("an unbounded wait timed out", e);
        }
    }

    /**
     * Arrives and waits, spinning, for the others of this phase at most {@code nanos}.
     *
     * @param nanos the longest wait, in nanoseconds ({@link Long#MAX_VALUE}: no bound)
     * @return the new phase, or -1 when the barrier was terminated
     * @throws TimeoutException when the others had not all arrived within {@code nanos}; the barrier is then
     *                          broken for everyone: terminate it
     */
    public int arriveAndAwait(long nanos) throws TimeoutException {
        return arriveAndAwait(nanos, SPIN_NANOS);
    }

    /**
     * As {@link #arriveAndAwait(long)}, but napping from the start: for the thread that only watches the others
     * (it needs no instant start, and a spinning watcher would take a processor from the threads it releases).
     *
     * @param nanos the longest wait, in nanoseconds
     * @return the new phase, or -1 when the barrier was terminated
     * @throws TimeoutException as {@link #arriveAndAwait(long)}
     */
    public int arriveAndWatch(long nanos) throws TimeoutException {
        return arriveAndAwait(nanos, 0);
    }

    private int arriveAndAwait(long nanos, long spinNanos) throws TimeoutException {
        int p = phase;
        if (terminated) {
            return -1;
        }
        if (arrived.incrementAndGet() == parties) {
            arrived.set(0); // before the phase moves on: no party of the next phase can arrive earlier
            phase = p + 1;
            return p + 1;
        }
        long start = System.nanoTime();
        while (phase == p) {
            if (terminated) {
                return -1;
            }
            long waited = System.nanoTime() - start;
            if (waited > nanos) {
                throw new TimeoutException("the barrier's other parties had not arrived after " + nanos + " ns");
            }
            if (waited < spinNanos) {
                Thread.onSpinWait();
                Thread.yield();
            } else {
                LockSupport.parkNanos(NAP_NANOS);
            }
        }
        return p + 1;
    }

    /** Ends every wait, now and later, with -1. */
    public void terminate() {
        terminated = true;
    }

    /** @return whether {@link #terminate()} was called */
    public boolean isTerminated() {
        return terminated;
    }
}
