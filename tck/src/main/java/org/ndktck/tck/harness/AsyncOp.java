package org.ndktck.tck.harness;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;
import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One asynchronous NDK call and the accounting of its completion callback (GEN-CB-1 to GEN-CB-4, CL-1):
 * the status the call returned, every invocation of the completion the kit passed, the context and
 * status each carried, and whether the callback has returned.
 *
 * <p>Rules per flavour: a request ({@link RequestCompletion}) must complete exactly once with its own
 * context after STATUS_PENDING (GEN-CB-1) and never after another return (GEN-CB-2); a create
 * ({@link CreateCompletion}) likewise (GEN-CB-3, GEN-CB-4); a close ({@link CloseCompletion}) likewise
 * (CL-1). {@link #check()} reports the first breach; the session calls it when it closes.
 *
 * @param <T> the object type for creates ({@link NdkObject}); unused for requests and closes
 */
public final class AsyncOp<T extends NdkObject> {
    /** Which completion type the call takes, and the rules that govern it. */
    public enum Flavor {
        /** NDK_FN_REQUEST_COMPLETION. */
        REQUEST("GEN-CB-1", "GEN-CB-2"),
        /** NDK_FN_CREATE_COMPLETION. */
        CREATE("GEN-CB-3", "GEN-CB-4"),
        /** NDK_FN_CLOSE_COMPLETION. */
        CLOSE("CL-1", "CL-1");

        final String afterPending;
        final String afterInline;

        Flavor(String afterPending, String afterInline) {
            this.afterPending = afterPending;
            this.afterInline = afterInline;
        }

        /** @return the rule for the callback after a PENDING return */
        public String afterPendingRule() {
            return afterPending;
        }

        /** @return the rule for the callback after any other return */
        public String afterInlineRule() {
            return afterInline;
        }
    }

    private final Flavor flavor;
    private final String kind;
    private final Supplier<String> detail;
    private final RequestContext context;
    private final AtomicInteger callbacks = new AtomicInteger();
    private final List<String> anomalies = new ArrayList<>();
    private volatile NtStatus returned;
    private volatile NtStatus completedStatus;
    private volatile T completedObject;
    private volatile boolean callbackReturned;
    private volatile Thread waiter;
    private volatile Consumer<AsyncOp<T>> insideCallback;
    private volatile Throwable insideFailure;
    private volatile long reportedLate;
    private volatile boolean awaitFailed;
    /** The run that made the call (its late callback is that run's, {@link LateCallbacks}). */
    private final RunContext run = RunContext.current();

    /**
     * @param flavor the completion type
     * @param kind   the NDK function
     * @param detail the call with its arguments in hex
     */
    public AsyncOp(Flavor flavor, String kind, Supplier<String> detail) {
        this.flavor = flavor;
        this.kind = kind;
        this.detail = detail;
        this.context = new RequestContext(kind);
    }

    /** @return the run that made the call */
    RunContext run() {
        return run;
    }

    /** @return the context the kit passes with the call */
    public RequestContext context() {
        return context;
    }

    /** @return the completion type */
    public Flavor flavor() {
        return flavor;
    }

    /** @return the NDK function */
    public String kind() {
        return kind;
    }

    /** @return the call with its arguments */
    public String detail() {
        return detail.get();
    }

    /**
     * Kit code to run inside the completion callback, on the provider's thread, after the callback was
     * recorded (GEN-LIFE-1: close the object from inside its completion). Set before the call.
     *
     * @param action the action; its exceptions are kept and reported by {@link #insideFailure()}
     */
    public void runInsideCallback(Consumer<AsyncOp<T>> action) {
        this.insideCallback = action;
    }

    /** @return what the kit's action inside the callback threw, or null */
    public Throwable insideFailure() {
        return insideFailure;
    }

    /** @param status the status the call returned */
    public void returned(NtStatus status) {
        this.returned = status;
    }

    /** @return the status the call returned, or null if it did not return (threw, hung) */
    public NtStatus returnedStatus() {
        return returned;
    }

    /** @return the completion to pass for a request call */
    public RequestCompletion requestCompletion() {
        return (ctx, status) -> onCallback(ctx, status, null);
    }

    /** @return the completion to pass for a create call */
    public CreateCompletion<T> createCompletion() {
        return (ctx, status, object) -> onCallback(ctx, status, object);
    }

    /** @return the completion to pass for a close call */
    public CloseCompletion closeCompletion() {
        return ctx -> onCallback(ctx, null, null);
    }

    private void onCallback(Object ctx, NtStatus status, T object) {
        int n = callbacks.incrementAndGet();
        synchronized (anomalies) {
            if (ctx != context) {
                anomalies.add("the completion carried context " + RequestContext.describe(ctx) + " instead of " + context);
            }
            if (n > 1) {
                anomalies.add("the completion was called " + n + " times");
            }
            if (flavor != Flavor.CLOSE && status == null) {
                anomalies.add("the completion carried no status (null)");
            } else if (status != null && status.isPending()) {
                anomalies.add("the completion carried STATUS_PENDING as its final status");
            }
        }
        if (n == 1) {
            completedStatus = status;
            completedObject = object;
        }
        NtStatus r = returned;
        if (r != null && !r.isPending()) {
            LateCallbacks.report(this);
        }
        Consumer<AsyncOp<T>> action = insideCallback;
        if (action != null && n == 1) {
            try {
                action.accept(this);
            } catch (Throwable e) {
                insideFailure = e;
            }
        }
        if (n == 1) {
            callbackReturned = true;
        }
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** @return how many times the completion was called so far */
    public int callbacks() {
        return callbacks.get();
    }

    /** @return the status of the first completion, or null */
    public NtStatus completedStatus() {
        return completedStatus;
    }

    /** @return the object of the first create completion, or null */
    public T completedObject() {
        return completedObject;
    }

    /** @return true once the first callback (with the kit's action inside it) has returned */
    public boolean callbackReturned() {
        return callbackReturned;
    }

    /**
     * Waits for the first completion after a PENDING return.
     *
     * @param nanos the bound
     * @return true when the completion came (and its callback returned) within the bound
     */
    public boolean await(long nanos) {
        if (callbackReturned) {
            return true;
        }
        waiter = Thread.currentThread();
        long start = System.nanoTime();
        long spinEnd = start + 20_000;
        try {
            while (!callbackReturned) {
                long now = System.nanoTime();
                long left = start + nanos - now;
                if (left <= 0) {
                    return callbackReturned;
                }
                if (now - spinEnd < 0) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(this, left);
                }
            }
            Bounds.completionArrived(start);
            return true;
        } finally {
            waiter = null;
        }
    }

    /**
     * Awaits the completion after a PENDING return and gives its final status.
     *
     * @param bounds the run's bounds
     * @return the completion's status (null for a close)
     * @throws RuleViolation GEN-CB-1 / GEN-CB-3 / CL-1 when no completion comes within the bound, or it
     *                       carries a wrong context or STATUS_PENDING
     */
    public NtStatus awaitPending(Bounds bounds) {
        if (!await(bounds.completionNanos())) {
            awaitFailed = true;
            Bounds.completionMissed();
            if (callbacks.get() > 0) {
                throw Violations.of("GEN-LIFE-1", detail(), "the completion callback, with the kit's action inside it, returns within "
                                + bounds.describeCompletionBound(),
                        "the callback was entered but had not returned: the kit's call from inside it did not return");
            }
            throw Violations.of(flavor.afterPending, detail(), "after STATUS_PENDING the completion is called exactly once within "
                    + bounds.describeCompletionBound() + " (GEN-TIME-1 bounds every completion)", "no completion was called");
        }
        RuleViolation v = checkPendingCallbacks();
        if (v != null) {
            throw v;
        }
        return completedStatus;
    }

    private RuleViolation checkPendingCallbacks() {
        synchronized (anomalies) {
            if (!anomalies.isEmpty()) {
                return Violations.of(flavor.afterPending, detail(), "after STATUS_PENDING exactly one completion, with context "
                        + context + " and a final status", String.join("; ", anomalies));
            }
        }
        return null;
    }

    /**
     * Checks the callback accounting as it stands: after PENDING exactly one well-formed callback (one
     * not yet come is not reported here); after another return none.
     *
     * @return the first breach, or null
     */
    public RuleViolation check() {
        NtStatus r = returned;
        if (r == null) {
            return null;
        }
        if (r.isPending()) {
            return checkPendingCallbacks();
        }
        int n = callbacks.get();
        if (n > 0) {
            return Violations.of(flavor.afterInline, detail(), "no completion after the call returned " + r + " (only STATUS_PENDING is followed by a completion)",
                    "the completion was called " + n + " time(s)" + (completedStatus == null ? "" : ", first with " + completedStatus));
        }
        return null;
    }

    /** @return true when an {@link #awaitPending} already gave up on this op (it is not awaited again) */
    public boolean awaitFailed() {
        return awaitFailed;
    }

    /** @return true once a forbidden callback of this op was reported to {@link LateCallbacks} */
    boolean markReportedLate() {
        if (reportedLate != 0) {
            return false;
        }
        reportedLate = System.nanoTime();
        return true;
    }
}
