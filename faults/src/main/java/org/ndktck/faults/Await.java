package org.ndktck.faults;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Makes a call of the wrapped provider synchronous, whatever its completion style: the call is made with a
 * capturing completion and, if it returns STATUS_PENDING, the final status is awaited for at most
 * {@link #WAIT_MILLIS}. If it has not come by then, the capture forwards it to the consumer's own completion
 * whenever it comes, and the caller gets STATUS_PENDING back meaning "not known: leave the consumer to its
 * completion" (a conforming pass-through).
 */
final class Await {
    /** The longest a wrapper waits for the wrapped provider's completion, in milliseconds. */
    static final long WAIT_MILLIS = 2_000;

    private Await() {
    }

    /**
     * @param inner      the wrapped request
     * @param consumer   the consumer's completion (receives the completion if the wait gives up; may be null)
     * @param context    the consumer's request context
     * @return the final status, or STATUS_PENDING when it did not come within {@link #WAIT_MILLIS}
     */
    static NtStatus request(Hooks.RequestCall inner, RequestCompletion consumer, Object context) {
        RequestCapture cap = new RequestCapture(consumer);
        NtStatus r = inner.invoke(cap, context);
        if (r == null || !r.isPending()) {
            return r;
        }
        return cap.await() ? cap.status : NtStatus.STATUS_PENDING;
    }

    /**
     * @param inner    the wrapped create
     * @param consumer the consumer's completion (receives the completion if the wait gives up)
     * @param context  the consumer's create context
     * @param <T>      the object type
     * @return the final result (STATUS_SUCCESS with the object, or an error), or a PENDING result when the
     *     completion did not come within {@link #WAIT_MILLIS}
     */
    static <T extends NdkObject> CreateResult<T> create(Hooks.CreateCall<T> inner, CreateCompletion<T> consumer,
                                                        Object context) {
        CreateCapture<T> cap = new CreateCapture<>(consumer);
        CreateResult<T> r = inner.invoke(cap, context);
        if (r == null || r.status() == null || !r.status().isPending()) {
            return r;
        }
        return cap.await() ? new CreateResult<>(cap.status, cap.object) : CreateResult.pending();
    }

    /**
     * Turns a request's final status into a late completion: the wrapped request runs to its final status (as
     * {@link #request}), and {@code later} is offered the delivery of that status to the consumer's completion. When
     * {@code later} takes it (returns true) the consumer sees STATUS_PENDING; otherwise, or when there is no
     * completion or the final status did not come, the wrapped provider's answer stands.
     *
     * @param inner      the wrapped request
     * @param completion the consumer's completion (may be null)
     * @param context    the consumer's request context
     * @param later      schedules the delivery it is given and returns true, or returns false to leave it inline
     * @return what the consumer sees inline
     */
    static NtStatus completeLater(Hooks.RequestCall inner, RequestCompletion completion, Object context, Predicate<Runnable> later) {
        if (completion == null) {
            return inner.invoke(null, context);
        }
        NtStatus s = request(inner, completion, context);
        if (s == null || s.isPending()) {
            return s;
        }
        return later.test(() -> completion.complete(context, s)) ? NtStatus.STATUS_PENDING : s;
    }

    /**
     * {@link #completeLater} for a create: the created object (on success) travels with the late completion.
     *
     * @param inner      the wrapped create
     * @param completion the consumer's completion (may be null)
     * @param context    the consumer's create context
     * @param later      schedules the delivery it is given and returns true, or returns false to leave it inline
     * @param <T>        the object type
     * @return what the consumer sees inline
     */
    static <T extends NdkObject> CreateResult<T> createLater(Hooks.CreateCall<T> inner, CreateCompletion<T> completion,
                                                             Object context, Predicate<Runnable> later) {
        if (completion == null) {
            return inner.invoke(null, context);
        }
        CreateResult<T> r = create(inner, completion, context);
        if (r == null || r.status() == null || r.status().isPending()) {
            return r;
        }
        T object = NtStatus.STATUS_SUCCESS.equals(r.status()) ? r.object() : null;
        return later.test(() -> completion.complete(context, r.status(), object)) ? CreateResult.pending() : r;
    }

    private abstract static class Capture {
        final CountDownLatch done = new CountDownLatch(1);
        private boolean gaveUp;

        /** @return true when the completion came in time; false: it will be forwarded */
        boolean await() {
            boolean interrupted = false;
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            try {
                while (true) {
                    long left = end - System.nanoTime();
                    try {
                        if (left > 0 && done.await(left, TimeUnit.NANOSECONDS)) {
                            return true;
                        }
                    } catch (InterruptedException e) {
                        interrupted = true;
                        continue;
                    }
                    synchronized (this) {
                        if (done.getCount() == 0) {
                            return true;
                        }
                        gaveUp = true;
                        return false;
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** @return true when the completion must go to the consumer (the waiter gave up) */
        synchronized boolean arrived() {
            done.countDown();
            return gaveUp;
        }
    }

    private static final class RequestCapture extends Capture implements RequestCompletion {
        private final RequestCompletion consumer;
        volatile NtStatus status;

        RequestCapture(RequestCompletion consumer) {
            this.consumer = consumer;
        }

        @Override
        public void complete(Object requestContext, NtStatus s) {
            status = s;
            if (arrived() && consumer != null) {
                consumer.complete(requestContext, s);
            }
        }
    }

    private static final class CreateCapture<T extends NdkObject> extends Capture implements CreateCompletion<T> {
        private final CreateCompletion<T> consumer;
        volatile NtStatus status;
        volatile T object;

        CreateCapture(CreateCompletion<T> consumer) {
            this.consumer = consumer;
        }

        @Override
        public void complete(Object createContext, NtStatus s, T o) {
            status = s;
            object = o;
            if (arrived() && consumer != null) {
                consumer.complete(createContext, s, o);
            }
        }
    }
}
