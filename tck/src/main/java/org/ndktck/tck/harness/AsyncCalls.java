package org.ndktck.tck.harness;

import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The try's asynchronous calls and their completion callbacks: every create, request and close the kit makes
 * gets an {@link AsyncOp} here, which counts its callbacks (GEN-CB-1 to GEN-CB-4, CL-1), and a call's end is
 * judged against its status table. Creates also check where the new object arrives (the out parameter after
 * STATUS_SUCCESS, the completion after STATUS_PENDING); an object handed over irregularly is kept as an orphan
 * for the tear-down to close.
 */
public final class AsyncCalls {
    private final Invoker inv;
    private final Bounds bounds;
    /** The run of the session these calls belong to (their quiet checks are that run's). */
    private final RunContext run = RunContext.current();
    private final ConcurrentLinkedQueue<AsyncOp<?>> ops = new ConcurrentLinkedQueue<>();
    /** Objects the provider handed over outside the kit's bookkeeping (e.g. with a violation): closed at tear-down. */
    private final ConcurrentLinkedQueue<NdkObject> orphans = new ConcurrentLinkedQueue<>();
    private volatile Consumer<AsyncOp<?>> nextInsideCallback;

    AsyncCalls(Invoker inv, Bounds bounds) {
        this.inv = inv;
        this.bounds = bounds;
    }

    /**
     * Kit code to run inside the completion callback of the next asynchronous call of this try (on the
     * provider's thread; GEN-LIFE-1). Only {@link MrRequests#closeMrFromCallback} and
     * {@link MrRequests#deregisterFromCallback} are safe to call from it.
     *
     * @param action the action
     */
    public void insideNextCallback(Consumer<AsyncOp<?>> action) {
        this.nextInsideCallback = action;
    }

    /**
     * A new asynchronous call, accounted from now on.
     *
     * @param flavor create, request or close
     * @param kind   the NDK function
     * @param detail the call in hex
     * @param <T>    the object type of a create
     * @return the op; pass its completion and context to the provider
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <T extends NdkObject> AsyncOp<T> newOp(AsyncOp.Flavor flavor, String kind, Supplier<String> detail) {
        AsyncOp<T> op = new AsyncOp<>(flavor, kind, detail);
        Consumer<AsyncOp<?>> action = nextInsideCallback;
        if (action != null) {
            nextInsideCallback = null;
            op.runInsideCallback((Consumer) action);
        }
        ops.add(op);
        return op;
    }

    /**
     * Judges a request's return against its status table and awaits its completion after STATUS_PENDING.
     *
     * @param op        the request's op
     * @param r         what the call returned
     * @param tableRule the rule of the call's status table (MR-REG-9, MR-DEREG-2, MR-FRI-8, LAM-7)
     * @param allowed   the table, for messages
     * @return the outcome
     */
    Outcome finish(AsyncOp<?> op, NtStatus r, String tableRule, String allowed) {
        if (r == null) {
            throw Violations.of(tableRule, op.detail(), allowed, "the provider returned null instead of an NTSTATUS");
        }
        op.returned(r);
        // a try-later refusal (Refusals.TRY_LATER, STATUS_DEVICE_BUSY among them, a warning code) is a refusal too
        boolean okReturn = r.equals(NtStatus.STATUS_SUCCESS) || r.isPending() || r.isError() || Refusals.isAllowedRefusal(r);
        if (!okReturn) {
            throw Violations.of(tableRule, op.detail(), allowed, "returned " + r + ", which is neither a success nor an error code");
        }
        NtStatus st = r;
        if (r.isPending()) {
            inv.stepWait(op.kind() + " completion", op::detail, bounds.completionNanos());
            st = op.awaitPending(bounds);
            if (!(st.equals(NtStatus.STATUS_SUCCESS) || st.isError() || Refusals.isAllowedRefusal(st))) {
                throw Violations.of(tableRule, op.detail(), allowed + " as the completion status",
                        "returned STATUS_PENDING, then completed with " + st + ", which is neither a success nor an error code");
            }
        } else {
            RuleViolation early = op.check();
            if (early != null) {
                throw early;
            }
        }
        return new Outcome(op::detail, r, st);
    }

    /**
     * Makes a create call and checks its completion rules: after STATUS_PENDING the out parameter stays
     * empty and the object arrives only through the completion (GEN-CB-3); after STATUS_SUCCESS the out
     * parameter holds the object (GEN-CB-4) and no completion follows; any other return has no
     * completion (GEN-CB-4).
     *
     * @param kind   the NDK function
     * @param detail the call in hex
     * @param call   makes the call with the op's completion and context
     * @param <T>    the object type
     * @return the outcome; {@code object} is non-null exactly when it succeeded
     */
    public <T extends NdkObject> Created<T> create(String kind, Supplier<String> detail, Function<AsyncOp<T>, CreateResult<T>> call) {
        AsyncOp<T> op = newOp(AsyncOp.Flavor.CREATE, kind, detail);
        CreateResult<T> r = inv.call(kind, detail, () -> call.apply(op));
        if (r == null || r.status() == null) {
            throw Violations.of("GEN-CB-4", detail.get(), "a CreateResult with a status", "the provider returned " + (r == null ? "null" : "a result without a status"));
        }
        op.returned(r.status());
        if (r.status().isPending()) {
            inv.stepWait(kind + " completion", detail, bounds.completionNanos());
            NtStatus st = op.awaitPending(bounds);
            T obj = op.completedObject();
            if (r.object() != null) {
                // the create page only says the out parameter is ignored after STATUS_PENDING; the completion page
                // forbids touching it when the create then succeeds (GEN-CB-3)
                orphans.add(r.object());
                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                    if (obj != null && obj != r.object()) {
                        orphans.add(obj);
                    }
                    throw Violations.of("GEN-CB-3", detail.get(), "after STATUS_PENDING and a successful completion the out parameter stays empty; "
                            + "the object comes only through the completion", "STATUS_PENDING with an object in the out parameter: " + r.object());
                }
            }
            if (NtStatus.STATUS_SUCCESS.equals(st) && obj == null) {
                throw Violations.of("GEN-CB-3", detail.get(), "a successful create completion carries the new object",
                        "the completion carried " + st + " and no object (null)");
            }
            return new Created<>(detail, r.status(), st, NtStatus.STATUS_SUCCESS.equals(st) ? obj : null);
        }
        RuleViolation early = op.check();
        if (early != null) {
            if (r.object() != null) {
                orphans.add(r.object());
            }
            throw early;
        }
        if (NtStatus.STATUS_SUCCESS.equals(r.status()) && r.object() == null) {
            throw Violations.of("GEN-CB-4", detail.get(), "STATUS_SUCCESS returns the new object in the out parameter",
                    "STATUS_SUCCESS with no object (null)");
        }
        return new Created<>(detail, r.status(), r.status(), NtStatus.STATUS_SUCCESS.equals(r.status()) ? r.object() : null);
    }

    /** @return the objects the provider handed over irregularly, for the tear-down to close */
    Iterable<NdkObject> orphans() {
        return orphans;
    }

    /**
     * Checks, now, every asynchronous call's callback accounting (GEN-CB-1 to GEN-CB-4, CL-1) and throws
     * the first breach. The GEN-CB-2 property calls it after a quiet period.
     */
    public void checkCallbacks() {
        RuleViolation v = firstViolation();
        if (v != null) {
            throw v;
        }
    }

    /** @return the first breach of callback accounting among the try's calls, or null */
    RuleViolation firstViolation() {
        for (AsyncOp<?> op : ops) {
            RuleViolation v = op.check();
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** @return the try's calls, for {@link LateCallbacks} (a forbidden callback of another try is charged there) */
    Set<AsyncOp<?>> mine() {
        Set<AsyncOp<?>> mine = Collections.newSetFromMap(new IdentityHashMap<>());
        mine.addAll(ops);
        return mine;
    }

    /**
     * Awaits, at the end of a try, every call that returned STATUS_PENDING and has had no callback yet.
     *
     * @param failing true when the try already failed (nothing is awaited then)
     */
    void awaitOutstanding(boolean failing) {
        for (AsyncOp<?> op : ops) {
            NtStatus r = op.returnedStatus();
            if (r != null && r.isPending() && op.callbacks() == 0 && !op.awaitFailed() && !failing) {
                inv.stepWait(op.kind() + " completion", op::detail, bounds.completionNanos());
                op.awaitPending(bounds);
            }
        }
    }

    /**
     * {@link #checkCallbacks()} now and again once the quiet period ({@link Bounds#quietNanos()}) has
     * passed, without waiting for it: the second check is handed to the {@link QuietWatch}, which runs it at
     * the close of a later try of the property or when the property ends (the kit-run budgets: the quiet period costs
     * wall time only at the end of a property). A forbidden callback within the quiet period breaks the same
     * rule as when the try waited.
     */
    public void quietThenCheckCallbacks() {
        quietThenCheck(() -> null);
    }

    /**
     * As {@link #quietThenCheckCallbacks()}, with one more check that must hold now and after the quiet period.
     *
     * @param extra null when it holds, else the violation
     */
    public void quietThenCheck(Supplier<RuleViolation> extra) {
        checkCallbacks();
        RuleViolation now = extra.get();
        if (now != null) {
            throw now;
        }
        List<AsyncOp<?>> mine = new ArrayList<>(ops);
        QuietWatch.after(run, bounds.quietNanos(), () -> {
            for (AsyncOp<?> op : mine) {
                RuleViolation v = op.check();
                if (v != null) {
                    return v;
                }
            }
            return extra.get();
        });
    }

    /**
     * Waits the quiet period ({@link Bounds#quietNanos()}), then {@link #checkCallbacks()}: for a property
     * that judges more than callbacks after the quiet period (a provider thread that died in it).
     */
    public void waitQuietThenCheckCallbacks() {
        long end = System.nanoTime() + bounds.quietNanos();
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
        checkCallbacks();
    }
}
