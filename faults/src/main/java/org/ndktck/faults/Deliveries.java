package org.ndktck.faults;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One adapter's completion-delivery thread: a daemon thread, started on first use, that runs the
 * completions a wrapper delivers itself (instead of the wrapped provider's threads), one at a time and in
 * the order they were submitted. FIFO order keeps an object's close completion after its other
 * completions (CL-4); {@link #quiesce()} lets NdkCloseAdapter wait until every delivered callback has
 * returned (CL-8).
 *
 * <p>A callback that throws does not kill the thread (the throwable is dropped: a consumer's fault is not
 * the provider's). Deliveries submitted after {@link #stop()} run on the submitting thread.
 */
public final class Deliveries {
    /** How long a wait for the delivery thread lasts at most, in milliseconds (a stuck consumer callback). */
    static final long MAX_WAIT_MILLIS = 30_000;
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final String name;
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private Thread thread;
    private boolean stopped;

    /** @param name the provider's name, used in the thread's name */
    public Deliveries(String name) {
        this.name = name;
    }

    /** @return true when the current thread is this adapter's delivery thread */
    public synchronized boolean onDeliveryThread() {
        return thread != null && Thread.currentThread() == thread;
    }

    /**
     * Runs {@code delivery} later on the delivery thread.
     *
     * @param delivery a completion call
     */
    public void submit(Runnable delivery) {
        synchronized (this) {
            if (!stopped) {
                if (thread == null) {
                    thread = new Thread(this::loop, "fault-delivery-" + name + "-" + THREADS.incrementAndGet());
                    thread.setDaemon(true);
                    thread.start();
                }
                queue.add(delivery);
                return;
            }
        }
        runQuietly(delivery);
    }

    /**
     * Runs {@code delivery} on the delivery thread and waits until it has returned; on the delivery thread
     * itself it runs at once.
     *
     * @param delivery a completion call
     */
    public void runAndWait(Runnable delivery) {
        if (onDeliveryThread()) {
            runQuietly(delivery);
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        submit(() -> {
            try {
                delivery.run();
            } finally {
                done.countDown();
            }
        });
        awaitQuietly(done);
    }

    /** Waits until everything submitted so far has run (returns at once on the delivery thread). */
    public void quiesce() {
        if (onDeliveryThread()) {
            return;
        }
        synchronized (this) {
            if (thread == null || stopped) {
                return;
            }
        }
        CountDownLatch done = new CountDownLatch(1);
        submit(done::countDown);
        awaitQuietly(done);
    }

    /** Waits for what was submitted, then ends the thread; later submissions run on the caller's thread. */
    public void stop() {
        quiesce();
        synchronized (this) {
            stopped = true;
            if (thread != null) {
                queue.add(STOP);
            }
        }
    }

    private static final Runnable STOP = () -> {
    };

    private void loop() {
        while (true) {
            Runnable r;
            try {
                r = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (r == STOP) {
                return;
            }
            runQuietly(r);
        }
    }

    private static void runQuietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | Error e) {
            // the consumer's callback threw: not the provider's business
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        boolean interrupted = false;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MILLIS);
        try {
            while (true) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    if (latch.await(left, TimeUnit.NANOSECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
