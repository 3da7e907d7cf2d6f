package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * Objects a property owns, beside the session's: PDs, MRs, CQs and QPs it creates (any PD, any QP shape, extra
 * connected pairs), closes it starts and finishes itself (CL-1, CL-2, CL-4), and LAMs it builds and releases
 * (LAM-REL-1). What the property leaves open is closed by {@link #close()}, children before parents, before the
 * session's own tear-down.
 */
public final class OwnedObjects implements AutoCloseable {
    private final Invoker inv;
    private final Bounds bounds;
    private final AsyncCalls calls;
    private final AdapterObjects objects;
    private final MrRequests mrs;
    private final Lams lams;
    private final Map<Object, Boolean> owned = new IdentityHashMap<>();
    private final Deque<NdkObject> ownedOrder = new ArrayDeque<>();
    private final List<NdkLogicalAddressMapping> ownLams = new ArrayList<>();
    private final int hangMark;
    private boolean closed;

    /**
     * @param s an open session
     */
    OwnedObjects(NdkSession s) {
        this.inv = s.invoker();
        this.bounds = s.bounds();
        this.calls = s.calls();
        this.objects = s.objects();
        this.mrs = s.mrs();
        this.lams = s.lams();
        this.hangMark = inv.hangs();
    }

    // ------------------------------------------------------------------ creates

    private <T extends NdkObject> T own(T o) {
        owned.put(o, Boolean.FALSE);
        ownedOrder.push(o);
        return o;
    }

    private <T extends NdkObject> T required(Created<T> c) {
        Refusals.discardIfRefused(c.status());
        if (!c.succeeded()) {
            throw new KitSetupError(c.call(), c.describe());
        }
        return own(c.object());
    }

    /** @return a new PD of the adapter, owned by the property */
    public NdkPd createPd() {
        return required(calls.create("NdkCreatePd", () -> "NdkCreatePd()", op -> objects.adapter().createPd(op.createCompletion(), op.context())));
    }

    /**
     * NdkCreateMr on any PD, owned by the property (the session does not deregister or close it).
     *
     * @param pd           the PD
     * @param fastRegister FastRegister
     * @return the MR
     */
    public NdkMr createMr(NdkPd pd, boolean fastRegister) {
        return required(createMrCall(pd, fastRegister));
    }

    /**
     * As {@link #createMr}, for a caller that goes on without the MR when the provider refuses it for lack of
     * resources (the pages allow it; {@link Refusals}), as a stateful property's step does.
     *
     * @param pd           the PD
     * @param fastRegister FastRegister
     * @return the MR, or null when the create ended in an allowed refusal
     */
    public NdkMr createMrUnlessRefused(NdkPd pd, boolean fastRegister) {
        Created<NdkMr> c = createMrCall(pd, fastRegister);
        return Refusals.isAllowedRefusal(c.status()) ? null : required(c);
    }

    private Created<NdkMr> createMrCall(NdkPd pd, boolean fastRegister) {
        Created<NdkMr> c = calls.create("NdkCreateMr", () -> "NdkCreateMr(FastRegister=" + (fastRegister ? "TRUE" : "FALSE") + ")",
                op -> pd.createMr(fastRegister, op.createCompletion(), op.context()));
        if (c.succeeded()) {
            mrs.checkMrHeader(c::call, c.object());
        }
        if (!c.succeeded() && !Refusals.isAllowedRefusal(c.status())) {
            throw Violations.of("MR-CREATE-2", c.call(), "STATUS_SUCCESS, inline or through the completion, for an MR on an open PD", c.describe());
        }
        return c;
    }

    /**
     * NdkCreateCq, owned by the property.
     *
     * @param depth QueueDepth (ULONG)
     * @return the CQ
     */
    public NdkCq createCq(int depth) {
        return required(calls.create("NdkCreateCq", () -> "NdkCreateCq(QueueDepth=" + u32(depth) + ")",
                op -> objects.adapter().createCq(depth, op.createCompletion(), op.context())));
    }

    /**
     * NdkCreateQp on any PD, owned by the property, with up to {@code wantSge} SGEs a request.
     *
     * @param pd             the PD
     * @param cq             the CQ of both queues (a session CQ, so the session drains it)
     * @param qpContext      its QPContext
     * @param name           for messages
     * @param inlineDataSize InlineDataSize in bytes
     * @param wantSge        MaxInitiatorRequestSge and MaxReceiveRequestSge wanted; capped by the adapter's limits, at least 1
     * @return the QP
     */
    public QpRef createQp(NdkPd pd, NdkCq cq, Object qpContext, String name, int inlineDataSize, int wantSge) {
        int sge = (int) Math.max(1, Math.min(wantSge, Integer.toUnsignedLong(objects.info().maxInitiatorRequestSge())));
        int rsge = (int) Math.max(1, Math.min(wantSge, Integer.toUnsignedLong(objects.info().maxReceiveRequestSge())));
        return createQp(pd, cq, qpContext, name, inlineDataSize, rsge, sge, 16, 16);
    }

    /**
     * NdkCreateQp on any PD with the sizes given as they are (the caller keeps them within the adapter's maxima),
     * owned by the property; both queues complete on {@code cq}.
     *
     * @param pd                  the PD
     * @param cq                  the CQ of both queues
     * @param qpContext           its QPContext
     * @param name                for messages
     * @param inlineDataSize      InlineDataSize in bytes
     * @param receiveSge          MaxReceiveRequestSge (ULONG)
     * @param initiatorSge        MaxInitiatorRequestSge (ULONG)
     * @param receiveQueueDepth   ReceiveQueueDepth (ULONG)
     * @param initiatorQueueDepth InitiatorQueueDepth (ULONG)
     * @return the QP
     */
    public QpRef createQp(NdkPd pd, NdkCq cq, Object qpContext, String name, int inlineDataSize, int receiveSge, int initiatorSge,
                          int receiveQueueDepth, int initiatorQueueDepth) {
        NdkQp qp = required(calls.create("NdkCreateQp", () -> "NdkCreateQp(ReceiveQueueDepth=" + u32(receiveQueueDepth)
                        + ", InitiatorQueueDepth=" + u32(initiatorQueueDepth) + ", MaxReceiveRequestSge=" + u32(receiveSge)
                        + ", MaxInitiatorRequestSge=" + u32(initiatorSge) + ", InlineDataSize=" + u32(inlineDataSize) + ") for " + name,
                op -> pd.createQp(cq, cq, qpContext, receiveQueueDepth, initiatorQueueDepth, receiveSge, initiatorSge, inlineDataSize,
                        op.createCompletion(), op.context())));
        return new QpRef(qp, cq, cq, qpContext, name, false);
    }

    /**
     * Two QPs the property owns, one on the target PD and one on the peer PD, on the sides' CQs, connected.
     *
     * @param inlineDataSize InlineDataSize of both
     * @param wantSge        SGEs a request wanted (capped by the adapter)
     * @return {target-side QP, peer-side QP}
     */
    public QpRef[] connectedPair(int inlineDataSize, int wantSge) {
        objects.qps();
        Side t = objects.target();
        Side p = objects.peer();
        QpRef a = createQp(t.pd(), t.cq(), new RequestContext("QPContext of an extra target QP"), "extra target", inlineDataSize, wantSge);
        QpRef b = createQp(p.pd(), p.cq(), new RequestContext("QPContext of an extra peer QP"), "extra peer", inlineDataSize, wantSge);
        NtStatus st = inv.call("connectLoopback", () -> "connectLoopback(extra target QP, extra peer QP)",
                () -> objects.adapter().connectLoopback(a.qp(), b.qp()));
        if (!NtStatus.STATUS_SUCCESS.equals(st)) {
            throw new KitSetupError("connectLoopback(extra QPs)", String.valueOf(st));
        }
        return new QpRef[]{a, b};
    }

    /**
     * @param pd a PD
     * @return NdkGetPrivilegedMemoryRegionToken of it
     */
    public int privilegedToken(NdkPd pd) {
        return inv.call("NdkGetPrivilegedMemoryRegionToken", () -> "NdkGetPrivilegedMemoryRegionToken()", pd::getPrivilegedMemoryRegionToken);
    }

    // ------------------------------------------------------------------ closes

    /**
     * Starts a close (NdkCloseMr/Pd/Qp/Cq) and returns at once; CL-2 (SUCCESS or PENDING only) is checked now.
     *
     * @param object an object the property owns (or a session MR the property takes over)
     * @param inside kit code to run inside the close callback, or null
     * @param before receives the op just before the provider is called (so other code can watch a close whose
     *               callback may come before the call returns), or null
     * @return the op
     */
    public AsyncOp<NdkMr> startClose(NdkObject object, Consumer<AsyncOp<NdkMr>> inside, Consumer<AsyncOp<NdkMr>> before) {
        String kind = closeKind(object);
        Supplier<String> d = () -> kind + "()";
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.CLOSE, kind, d);
        if (inside != null) {
            op.runInsideCallback(inside);
        }
        if (before != null) {
            before.accept(op);
        }
        if (owned.containsKey(object)) {
            owned.put(object, Boolean.TRUE);
        }
        AsyncOp<NdkMr> first = op;
        NtStatus r = inv.call(kind, d, () -> closeCall(object, first));
        op.returned(r == null ? NtStatus.of(-1) : r);
        // a close may fail inline, with no callback (the 2022 object-lifetime page; CL-2): the kit makes it again
        for (int i = 1; i < Refusals.SETUP_ATTEMPTS && CloseRefusals.refused(r); i++) {
            RuleViolation early = op.check();
            if (early != null) {
                throw early;
            }
            AsyncOp<NdkMr> again = calls.newOp(AsyncOp.Flavor.CLOSE, kind, d);
            if (inside != null) {
                again.runInsideCallback(inside);
            }
            r = inv.call(kind, d, () -> closeCall(object, again));
            again.returned(r == null ? NtStatus.of(-1) : r);
            op = again;
        }
        CloseRefusals.judge(r, d.get(), () -> {
            if (owned.containsKey(object)) {
                owned.put(object, Boolean.FALSE);
            }
        });
        return op;
    }

    /**
     * Awaits a started close: after STATUS_PENDING exactly one close callback within the bound (CL-1).
     *
     * @param op the close
     */
    public void finishClose(AsyncOp<?> op) {
        NtStatus r = op.returnedStatus();
        if (r != null && r.isPending()) {
            inv.stepWait(op.kind() + " completion", op::detail, bounds.completionNanos());
            op.awaitPending(bounds);
        } else {
            RuleViolation early = op.check();
            if (early != null) {
                throw early;
            }
        }
    }

    /**
     * Closes an object and awaits the close (CL-1, CL-2).
     *
     * @param object the object
     * @return the close op
     */
    public AsyncOp<NdkMr> closeAndWait(NdkObject object) {
        AsyncOp<NdkMr> op = startClose(object, null, null);
        finishClose(op);
        return op;
    }

    private static String closeKind(NdkObject o) {
        if (o instanceof NdkMr) {
            return "NdkCloseMr";
        }
        if (o instanceof NdkQp) {
            return "NdkCloseQp";
        }
        if (o instanceof NdkCq) {
            return "NdkCloseCq";
        }
        if (o instanceof NdkPd) {
            return "NdkClosePd";
        }
        throw new IllegalArgumentException("not closable here: " + o);
    }

    private static NtStatus closeCall(NdkObject o, AsyncOp<NdkMr> op) {
        if (o instanceof NdkMr mr) {
            return mr.close(op.closeCompletion(), op.context());
        }
        if (o instanceof NdkQp qp) {
            return qp.close(op.closeCompletion(), op.context());
        }
        if (o instanceof NdkCq cq) {
            return cq.close(op.closeCompletion(), op.context());
        }
        return ((NdkPd) o).close(op.closeCompletion(), op.context());
    }

    /** Marks an object the property closed by other means (so {@link #close()} leaves it alone). */
    public void forget(NdkObject o) {
        owned.put(o, Boolean.TRUE);
    }

    // ------------------------------------------------------------------ LAMs

    /**
     * NdkBuildLam, awaited, without requiring success; the LAM-7 status table is checked. A mapping that
     * succeeds is released by {@link #close()} unless the property releases it with {@link #releaseLam}.
     *
     * @param mdl    the chain
     * @param length bytes to map (unsigned)
     * @param lam    the mapping, with the buffer size offered
     * @return the outcome
     */
    public Outcome buildLam(Mdl mdl, long length, NdkLogicalAddressMapping lam) {
        Outcome o = lams.build(mdl, length, lam);
        if (o.succeeded()) {
            ownLams.add(lam);
        }
        return o;
    }

    /**
     * NdkReleaseLam of a mapping built with {@link #buildLam}.
     *
     * @param lam the mapping
     */
    public void releaseLam(NdkLogicalAddressMapping lam) {
        ownLams.remove(lam);
        lams.release(lam);
    }

    // ------------------------------------------------------------------ clean-up

    /**
     * Closes what the property left open (children first) and releases its LAMs. Call before the session
     * closes.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (inv.hangs() != hangMark || objects.adapter() == null) {
            return;
        }
        RuntimeException first = null;
        for (NdkLogicalAddressMapping lam : new ArrayList<>(ownLams)) {
            try {
                releaseLam(lam);
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        while (!ownedOrder.isEmpty()) {
            NdkObject o = ownedOrder.pop();
            if (Boolean.TRUE.equals(owned.get(o))) {
                continue;
            }
            try {
                closeAndWait(o);
            } catch (RuntimeException | Error e) {
                if (first == null && e instanceof RuntimeException re) {
                    first = re;
                } else if (e instanceof Error err) {
                    throw err;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
