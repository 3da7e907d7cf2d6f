package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.AsyncOp;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.RequestContext;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;
import net.jqwik.api.Assume;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.tck.harness.Invoker;
import org.ndktck.tck.harness.ProviderUnderTest;

/**
 * Properties of NdkCloseMr, NdkClosePd, NdkCloseQp and NdkCloseCq (catalog section "Close"; the
 * NDK_FN_CLOSE_OBJECT and NDK_FN_CLOSE_COMPLETION pages and the object-lifetime requirements). CL-3 and
 * CL-8 bind the kit and are obeyed by it; CL-7 is informational. Every object closed here is one the
 * property created itself.
 */
@NdkKit
public class CloseProperties {
    private static final String REGISTER_TABLE =
            "STATUS_SUCCESS, STATUS_PENDING, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another error code";

    /** The state an object is in when the CL-1 / CL-2 property closes it. */
    enum State {
        /** An MR just created. */
        MR_CREATED,
        /** An MR registered with NdkRegisterMr. */
        MR_REGISTERED,
        /** An MR registered, then deregistered. */
        MR_DEREGISTERED,
        /** A fast-register MR initialized. */
        MR_INITIALIZED,
        /** A fast-register MR fast-registered. */
        MR_FAST_REGISTERED,
        /** A fast-register MR fast-registered, then invalidated. */
        MR_INVALIDATED,
        /** A QP never connected. */
        QP_UNCONNECTED,
        /** A QP connected (both QPs of the pair are closed). */
        QP_CONNECTED,
        /** A connected QP with receives pending (both closed). */
        QP_WITH_RECEIVES,
        /** A CQ no QP uses. */
        CQ_UNUSED,
        /** A PD without objects. */
        PD_EMPTY,
        /** A PD whose MR was closed first. */
        PD_AFTER_ITS_MR
    }

    /** Builds an object in {@code state}; returns the objects to close in order. */
    private static List<NdkObject> build(NdkSession s, SessionTools t, State state) {
        int p = s.pageSize();
        NdkPd pd = t.createPd();
        List<NdkObject> close = new ArrayList<>();
        switch (state) {
            case MR_CREATED, MR_REGISTERED, MR_DEREGISTERED -> {
                NdkMr mr = t.createMr(pd, false);
                if (state != State.MR_CREATED) {
                    HostBuffer b = s.allocate(1);
                    SectionChecks.requireRegistered(s, s.register(mr, b.mdl(t.freshVa(), 0, p), p, NdkMrFlags.ALLOW_REMOTE_READ));
                    if (state == State.MR_DEREGISTERED) {
                        Outcome o = s.deregister(mr);
                        Refusals.discardIfRefused(o.status()); // MR-DEREG-2 "other status codes": a shortage judges nothing
                        if (!o.succeeded()) {
                            throw Violations.of("MR-DEREG-2", o.call(), "STATUS_SUCCESS", o.describe());
                        }
                    }
                }
                close.add(mr);
            }
            case MR_INITIALIZED, MR_FAST_REGISTERED, MR_INVALIDATED -> {
                NdkMr mr = s.fastRegisterMr(1, true);
                if (state != State.MR_INITIALIZED) {
                    Mdl mdl = s.allocate(1).mdl(t.freshVa(), 0, p);
                    Lam lam = s.buildLam(mdl, p);
                    WrOutcome fr = s.fastRegister(s.target().qp(), mr, 1, lam.pages(), 0, p, t.freshVa(), NdkOpFlags.ALLOW_REMOTE_READ);
                    if (!fr.succeeded()) {
                        throw Violations.of("MR-FRI-2", fr.call(), "STATUS_SUCCESS", fr.describe());
                    }
                    if (state == State.MR_INVALIDATED) {
                        WrOutcome inv = s.invalidate(mr, 0);
                        if (!inv.succeeded()) {
                            throw Violations.of("INV-3", inv.call(), "STATUS_SUCCESS", inv.describe());
                        }
                    }
                }
            }
            case QP_UNCONNECTED -> close.add(t.createQp(pd, s.target().cq(), new RequestContext("QPContext of a QP to close"), "QP to close", 0).qp());
            case QP_CONNECTED, QP_WITH_RECEIVES -> {
                QpRef[] pair = t.connectedPair(0);
                if (state == State.QP_WITH_RECEIVES) {
                    Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                    for (int i = 0; i < 3; i++) {
                        t.receive(pair[0], new NdkSge[]{sink.sge((long) i * 64, 64)}, NdkOperationType.RECEIVE);
                    }
                }
                close.add(pair[0].qp());
                close.add(pair[1].qp());
            }
            case CQ_UNUSED -> close.add(t.createCq(16));
            case PD_EMPTY -> {
            }
            case PD_AFTER_ITS_MR -> close.add(t.createMr(pd, true));
        }
        close.add(pd);
        return close;
    }

    /**
     * CL-1 and CL-2: closing MRs (created, registered, deregistered, initialized, fast-registered,
     * invalidated), QPs (unconnected, connected, with receives pending), CQs and PDs (children closed first)
     * returns STATUS_SUCCESS or STATUS_PENDING and nothing else (CL-2); a PENDING close is followed by
     * exactly one close callback within the completion bound, with the kit's context, and a SUCCESS close by
     * none, through a quiet period (CL-1).
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("CL-1")
    @Tag("CL-2")
    void closeReturnsSuccessOrPendingAndCallsBackOnlyAfterPending(@ForAll @Size(min = 1, max = 6) List<State> states) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                List<AsyncOp<NdkMr>> closes = new ArrayList<>();
                for (State state : states) {
                    for (NdkObject o : build(s, t, state)) {
                        closes.add(t.startClose(o, null));
                    }
                }
                for (AsyncOp<NdkMr> op : closes) {
                    t.finishClose(op);
                }
                s.drain(s.target());
                s.drain(s.peer());
                s.quietThenCheckCallbacks();
                for (AsyncOp<NdkMr> op : closes) {
                    RuleViolation v = op.check();
                    if (v != null) {
                        throw v;
                    }
                }
            }
        });
    }

    /**
     * CL-4: an MR closed while its NdkRegisterMr (or NdkInitializeFastRegisterMr) is pending gets its close
     * callback only after the request's completion has returned (checked from inside the close callback);
     * after a SUCCESS close the request must already have completed; and once the close has ended no
     * further callback of the MR arrives (through a quiet period). The request may complete with an error
     * (for example STATUS_CANCELLED). With inline completions the request is over before the close. A completion
     * on another thread is held inside the kit's callback until the close was called and a quiet period passed
     * (at most half the completion bound), so the close meets a pending request whatever the provider's speed; a
     * provider whose call (the request or the close) waits for that completion gets it after one quiet period.
     */
    @Property(tries = 50, generation = GenerationMode.RANDOMIZED)
    @Tag("CL-4")
    void theCloseCallbackIsTheObjectsLast(@ForAll boolean initialize, @ForAll @IntRange(min = 1, max = 4) int pages) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                NdkPd pd = s.target().pd();
                NdkMr mr = t.createMr(pd, initialize);
                HostBuffer b = s.allocate(pages);
                // The kit holds a completion that comes on another thread until the close has been called (and a
                // quiet period after it, for a close callback to show up): so the close always meets a pending
                // request, however fast the provider completes. The hold is bounded well below the completion
                // bound, so a provider that waits inside its close for the completion is not charged here.
                Thread kit = Thread.currentThread();
                CountDownLatch closeCalled = new CountDownLatch(1);
                long hold = s.bounds().completionNanos() / 2;
                long quiet = s.bounds().quietNanos();
                // when the kit thread entered the register (or initialize) call or the close call it is in, or 0
                AtomicLong kitInCallSince = new AtomicLong(System.nanoTime());
                Consumer<AsyncOp<NdkMr>> holdUntilClosed = op -> {
                    if (Thread.currentThread() == kit) {
                        return;
                    }
                    long start = System.nanoTime();
                    try {
                        while (!closeCalled.await(Math.max(1, quiet / 4), TimeUnit.NANOSECONDS)) {
                            long since = kitInCallSince.get();
                            long now = System.nanoTime();
                            // a provider whose call waits for this completion (inside the request call, or inside a
                            // close that waits for outstanding requests) is let go after a quiet period
                            if (now - start > hold || (since != 0 && now - since > quiet && now - start > quiet)) {
                                return;
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                };
                AsyncOp<NdkMr> started;
                try {
                    started = initialize ? t.startInitialize(mr, pages, true, holdUntilClosed)
                            : t.startRegister(mr, b.mdl(t.freshVa(), 0, pages * p), (long) pages * p, NdkMrFlags.ALLOW_REMOTE_READ,
                            holdUntilClosed);
                } finally {
                    kitInCallSince.set(0);
                }
                AsyncOp<NdkMr> request = started;
                AtomicReference<String> order = new AtomicReference<>();
                boolean pendingBefore = request.returnedStatus().isPending() && !request.callbackReturned();
                AsyncOp<NdkMr> close;
                try {
                    close = t.startClose(mr, op -> {
                        if (request.returnedStatus().isPending() && !request.callbackReturned()) {
                            order.set("the close callback started while the " + request.kind() + " completion had "
                                    + (request.callbacks() == 0 ? "not been called" : "not returned"));
                        }
                        closeCalled.countDown();
                    }, op -> kitInCallSince.set(System.nanoTime()));
                    kitInCallSince.set(0);
                    if (NtStatus.STATUS_SUCCESS.equals(close.returnedStatus()) && request.returnedStatus().isPending()
                            && !request.callbackReturned()) {
                        order.compareAndSet(null, "the close returned STATUS_SUCCESS while the " + request.kind() + " had not completed");
                    }
                    if (pendingBefore && close.returnedStatus().isPending()) {
                        close.await(s.bounds().quietNanos());
                    }
                } finally {
                    closeCalled.countDown();
                }
                t.finishClose(close);
                t.finish(request, initialize ? "MR-FRI-8" : "MR-REG-9", REGISTER_TABLE);
                if (order.get() != null) {
                    throw Violations.of("CL-4", close.detail() + " while " + request.detail() + " was pending",
                            "the close callback is the MR's last callback: the request's completion returns before it", order.get());
                }
                int before = request.callbacks() + close.callbacks();
                s.quietThenCheck(() -> request.callbacks() + close.callbacks() == before ? null
                        : Violations.of("CL-4", close.detail() + " while " + request.detail() + (pendingBefore ? " was pending" : ""),
                        "no callback of the MR after its close ended", "another callback arrived"));
            }
        });
    }

    /**
     * CL-5: closing a connected QP that holds pending receives and sends the peer has no receive for,
     * without flushing it first, ends within the bound, and by the end of the close every pending request
     * has completed exactly once (usually with STATUS_CANCELLED).
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("CL-5")
    void closeCancelsWhatIsOutstanding(@ForAll @IntRange(min = 0, max = 4) int receives, @ForAll @IntRange(min = 0, max = 4) int sends) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                QpRef[] pair = t.connectedPair(0);
                Registered buf = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                List<WorkRequest> pending = new ArrayList<>();
                for (int i = 0; i < receives; i++) {
                    pending.add(t.receive(pair[0], new NdkSge[]{buf.sge((long) i * 64, 64)}, NdkOperationType.RECEIVE));
                }
                for (int i = 0; i < sends; i++) {
                    pending.add(t.send(pair[0], new NdkSge[]{buf.sge(p / 2 + (long) i * 16, 16)}, 0));
                }
                pending.removeIf(wr -> !NtStatus.STATUS_SUCCESS.equals(wr.returned()));
                AsyncOp<NdkMr> close = t.startClose(pair[0].qp(), null);
                t.finishClose(close);
                s.drain(s.target());
                for (WorkRequest wr : pending) {
                    if (wr.entry() == null) {
                        throw Violations.of("CL-5", close.detail() + " " + (close.returnedStatus().isPending() ? "(completed)" : "returned STATUS_SUCCESS")
                                        + " with " + wr.detail() + " pending", "the close cancels what is outstanding: the request's CQ entry is there when the close ends",
                                "no CQ entry for " + wr.context());
                    }
                }
                t.closeAndWait(pair[1].qp());
                s.checkMemory("CL-5", close.detail());
            }
        });
    }

    /**
     * CL-6: closing a PD that still has a live MR (and, in half the tries, a live QP) returns STATUS_PENDING
     * and calls back only after its children are closed: the PD's close callback starts after every
     * child's close has ended (STATUS_SUCCESS, or its callback returned).
     */
    @Property(tries = 50, generation = GenerationMode.RANDOMIZED)
    @Tag("CL-6")
    void closingAParentFirstWaitsForItsChildren(@ForAll boolean withQp, @ForAll boolean fastRegisterMr, @ForAll boolean qpFirst) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                NdkPd pd = t.createPd();
                NdkMr mr = t.createMr(pd, fastRegisterMr);
                QpRef qp = withQp ? t.createQp(pd, s.target().cq(), new RequestContext("QPContext of a child QP"), "child QP", 0) : null;
                int expected = withQp ? 2 : 1;
                List<AsyncOp<NdkMr>> children = java.util.Collections.synchronizedList(new ArrayList<>());
                List<Boolean> endedAtParentCallback = new ArrayList<>();
                AtomicReference<Integer> startedAtParentCallback = new AtomicReference<>();
                AsyncOp<NdkMr> parent = t.startClose(pd, op -> {
                    synchronized (children) {
                        startedAtParentCallback.set(children.size());
                        for (AsyncOp<NdkMr> c : children) {
                            endedAtParentCallback.add(c.callbackReturned());
                        }
                    }
                });
                if (!parent.returnedStatus().isPending()) {
                    throw Violations.of("CL-6", parent.detail() + " with a live MR" + (withQp ? " and a live QP" : ""), "STATUS_PENDING",
                            "returned " + parent.returnedStatus());
                }
                if (parent.callbacks() > 0) {
                    throw Violations.of("CL-6", parent.detail() + " with a live MR", "no close callback while the children are open",
                            "the close callback came at once");
                }
                List<NdkObject> order = new ArrayList<>();
                if (qpFirst && qp != null) {
                    order.add(qp.qp());
                }
                order.add(mr);
                if (!qpFirst && qp != null) {
                    order.add(qp.qp());
                }
                for (NdkObject child : order) {
                    t.finishClose(t.startClose(child, null, children::add));
                }
                t.finishClose(parent);
                Integer started = startedAtParentCallback.get();
                if (started == null || started < expected) {
                    throw Violations.of("CL-6", parent.detail() + " before its children", "the PD's close completes after every child is closed",
                            "the PD's close callback started when " + (started == null ? "?" : started) + " of " + expected + " children had begun closing");
                }
                for (int k = 0; k < children.size(); k++) {
                    AsyncOp<NdkMr> c = children.get(k);
                    if (c.returnedStatus() != null && c.returnedStatus().isPending() && !endedAtParentCallback.get(k)) {
                        throw Violations.of("CL-6", parent.detail() + " before its children", "the PD's close callback after each child's close callback returned",
                                "it started before the callback of " + c.detail() + " had returned");
                    }
                }
            }
        });
    }

    /**
     * CL-9, the provider's side of CL-8: NdkCloseAdapter returns only when every callback of every object
     * under the adapter has returned. On a second adapter of its own the property creates a PD and one to
     * three MRs, registers them, and without waiting closes the MRs, then (in half the tries) the PD, then the
     * adapter. Each of the kit's callbacks that runs on another thread stays inside the callback for a
     * moment (a quarter of the quiet period, at most 20 ms), so an adapter close that does not wait finds
     * it still running. When the close returns, every call that returned STATUS_PENDING must have had its
     * completion called and returned; after a quiet period no callback may have started since.
     */
    @Property(tries = 30, generation = GenerationMode.RANDOMIZED)
    @Tag("CL-9")
    void adapterCloseReturnsOnlyAfterEveryCallback(@ForAll @IntRange(min = 1, max = 3) int mrs, @ForAll boolean closePd) {
        NdkSession.inTry(s -> {
            Invoker inv = s.invoker();
            Thread kit = Thread.currentThread();
            long linger = Math.min(s.bounds().quietNanos() / 4, TimeUnit.MILLISECONDS.toNanos(20));
            List<AsyncOp<?>> ops = new ArrayList<>();
            NdkAdapter adapter = inv.call("NdkOpenAdapter", () -> "NdkOpenAdapter() of a second adapter",
                    () -> ProviderUnderTest.get().factory().openAdapter(s.memory()));
            if (adapter == null) {
                throw Violations.of("CL-9", "NdkOpenAdapter() of a second adapter", "an adapter", "null");
            }
            try {
                NdkPd pd = createAwaited(s, ops, "NdkCreatePd", () -> "NdkCreatePd() on the second adapter",
                        op -> adapter.createPd(op.createCompletion(), op.context()));
                int p = s.pageSize();
                for (int i = 0; i < mrs; i++) {
                    NdkMr mr = createAwaited(s, ops, "NdkCreateMr", () -> "NdkCreateMr(FastRegister=FALSE) on the second adapter",
                            op -> pd.createMr(false, op.createCompletion(), op.context()));
                    HostBuffer b = s.allocate(1);
                    Mdl mdl = b.mdl(0x0000_5000_0000_0000L + (long) i * 0x10_0000L, 0, p);
                    AsyncOp<NdkMr> register = lingering(ops, AsyncOp.Flavor.REQUEST, "NdkRegisterMr", kit, linger);
                    register.returned(inv.call("NdkRegisterMr", register::detail,
                            () -> mr.register(mdl, p, NdkMrFlags.ALLOW_LOCAL_WRITE, register.requestCompletion(), register.context())));
                    AsyncOp<NdkMr> close = lingering(ops, AsyncOp.Flavor.CLOSE, "NdkCloseMr", kit, linger);
                    close.returned(inv.call("NdkCloseMr", close::detail, () -> mr.close(close.closeCompletion(), close.context())));
                }
                if (closePd) {
                    AsyncOp<NdkMr> close = lingering(ops, AsyncOp.Flavor.CLOSE, "NdkClosePd", kit, linger);
                    close.returned(inv.call("NdkClosePd", close::detail, () -> pd.close(close.closeCompletion(), close.context())));
                }
            } finally {
                inv.run("NdkCloseAdapter", () -> "NdkCloseAdapter() of the second adapter", adapter::close);
            }
            List<String> open = new ArrayList<>();
            int[] before = new int[ops.size()];
            for (int i = 0; i < ops.size(); i++) {
                AsyncOp<?> op = ops.get(i);
                before[i] = op.callbacks();
                NtStatus r = op.returnedStatus();
                if (r != null && r.isPending() && !op.callbackReturned()) {
                    open.add(op.kind() + " (completion " + (op.callbacks() == 0 ? "not called" : "not returned") + ")");
                }
            }
            if (!open.isEmpty()) {
                throw Violations.of("CL-9", "NdkCloseAdapter() with " + ops.size() + " calls made on its objects",
                        "every completion of a call that returned STATUS_PENDING has returned when NdkCloseAdapter returns",
                        open.size() + " had not: " + String.join(", ", open));
            }
            s.quietThenCheck(() -> {
                for (int i = 0; i < ops.size(); i++) {
                    if (ops.get(i).callbacks() != before[i]) {
                        return Violations.of("CL-9", "NdkCloseAdapter() of the second adapter",
                                "no callback after NdkCloseAdapter returned", "a callback of " + ops.get(i).detail() + " arrived later");
                    }
                }
                return null;
            });
        });
    }

    /**
     * A create on the second adapter, its completion awaited (the completion's own rules apply). The try is
     * skipped (jqwik's Assume) when the create gives no object: a provider may refuse it.
     */
    private static <T extends NdkObject> T createAwaited(NdkSession s, List<AsyncOp<?>> ops, String kind, Supplier<String> detail,
                                                        Function<AsyncOp<T>, CreateResult<T>> call) {
        AsyncOp<T> op = new AsyncOp<>(AsyncOp.Flavor.CREATE, kind, detail);
        ops.add(op);
        CreateResult<T> r = s.invoker().call(kind, detail, () -> call.apply(op));
        op.returned(r == null ? null : r.status());
        T object = r == null ? null : r.object();
        if (r != null && r.status() != null && r.status().isPending()) {
            op.awaitPending(s.bounds());
            object = op.completedObject();
        }
        Assume.that(object != null);
        return object;
    }

    /** An op whose callback, when it runs on a thread other than the kit's, lingers inside for {@code linger} ns. */
    private static AsyncOp<NdkMr> lingering(List<AsyncOp<?>> ops, AsyncOp.Flavor flavor, String kind, Thread kit, long linger) {
        AsyncOp<NdkMr> op = new AsyncOp<>(flavor, kind, () -> kind + "() on the second adapter");
        op.runInsideCallback(o -> {
            if (Thread.currentThread() != kit) {
                LockSupport.parkNanos(linger);
            }
        });
        ops.add(op);
        return op;
    }
}
