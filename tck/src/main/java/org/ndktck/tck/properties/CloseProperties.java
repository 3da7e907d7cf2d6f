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
import org.ndktck.tck.NdkRule;
import org.ndktck.tck.RuleViolation;
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
                        NdkSession.Outcome o = s.deregister(mr);
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
                    NdkSession.Lam lam = s.buildLam(mdl, p);
                    NdkSession.WrOutcome fr = s.fastRegister(s.target().qp(), mr, 1, lam.pages(), 0, p, t.freshVa(), NdkOpFlags.ALLOW_REMOTE_READ);
                    if (!fr.succeeded()) {
                        throw Violations.of("MR-FRI-2", fr.call(), "STATUS_SUCCESS", fr.describe());
                    }
                    if (state == State.MR_INVALIDATED) {
                        NdkSession.WrOutcome inv = s.invalidate(mr, 0);
                        if (!inv.succeeded()) {
                            throw Violations.of("INV-3", inv.call(), "STATUS_SUCCESS", inv.describe());
                        }
                    }
                }
            }
            case QP_UNCONNECTED -> close.add(t.createQp(pd, s.target().cq(), new RequestContext("QPContext of a QP to close"), "QP to close", 0).qp());
            case QP_CONNECTED, QP_WITH_RECEIVES -> {
                SessionTools.QpRef[] pair = t.connectedPair(0);
                if (state == State.QP_WITH_RECEIVES) {
                    SessionTools.Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
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
    @NdkRule("CL-1")
    @NdkRule("CL-2")
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
    @NdkRule("CL-4")
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
                s.quietThenCheckCallbacks();
                if (request.callbacks() + close.callbacks() != before) {
                    throw Violations.of("CL-4", close.detail() + " while " + request.detail() + (pendingBefore ? " was pending" : ""),
                            "no callback of the MR after its close ended", "another callback arrived");
                }
            }
        });
    }

    /**
     * CL-5: closing a connected QP that holds pending receives and sends the peer has no receive for,
     * without flushing it first, ends within the bound, and by the end of the close every pending request
     * has completed exactly once (usually with STATUS_CANCELLED).
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @NdkRule("CL-5")
    @Tag("CL-5")
    void closeCancelsWhatIsOutstanding(@ForAll @IntRange(min = 0, max = 4) int receives, @ForAll @IntRange(min = 0, max = 4) int sends) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                SessionTools.QpRef[] pair = t.connectedPair(0);
                SessionTools.Registered buf = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
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
    @NdkRule("CL-6")
    @Tag("CL-6")
    void closingAParentFirstWaitsForItsChildren(@ForAll boolean withQp, @ForAll boolean fastRegisterMr, @ForAll boolean qpFirst) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                NdkPd pd = t.createPd();
                NdkMr mr = t.createMr(pd, fastRegisterMr);
                SessionTools.QpRef qp = withQp ? t.createQp(pd, s.target().cq(), new RequestContext("QPContext of a child QP"), "child QP", 0) : null;
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
}
