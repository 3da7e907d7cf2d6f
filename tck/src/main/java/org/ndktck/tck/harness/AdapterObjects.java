package org.ndktck.tck.harness;

import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * The adapter of one try and the objects the session keeps on it, with their lifetimes: the adapter
 * (NdkOpenAdapter, closed last), the two {@link Side}s (target and peer: a PD each, an initiator and a receive
 * CQ each, a QP each, connected by loopback), and a QP of the target PD that is never connected. QPs and CQs
 * are created on first use. Set-up creates refused for lack of resources are made again a few times
 * ({@link Refusals#SETUP_ATTEMPTS}); a close must return STATUS_SUCCESS or STATUS_PENDING (CL-2), and its
 * completion is awaited (CL-1). MRs live in {@link MrRequests}.
 */
public final class AdapterObjects {
    /** Queue depths and SGE counts the kit asks for (capped by the adapter's limits). */
    private static final int DEPTH = 16;
    private static final int CQ_DEPTH = 64;

    private final Invoker inv;
    private final Bounds bounds;
    private final AsyncCalls calls;
    private final NdkAdapterInfo info;
    private final Side target = new Side("target");
    private final Side peer = new Side("peer");
    private final Object unconnectedContext = new RequestContext("QPContext of the unconnected QP");
    private volatile NdkAdapter adapter;
    private NdkQp unconnected;
    private boolean qpsReady;
    /** Set when the try already failed: closes then do not wait for their completions. */
    private volatile boolean failing;

    AdapterObjects(Invoker inv, Bounds bounds, AsyncCalls calls, NdkAdapterInfo info) {
        this.inv = inv;
        this.bounds = bounds;
        this.calls = calls;
        this.info = info;
    }

    /**
     * Opens the adapter over {@code memory} and creates the target's PD (inside the session's set-up batch).
     *
     * @param put    the provider under test
     * @param memory the try's host memory
     * @throws KitSetupError when the adapter or the PD cannot be created
     */
    void open(ProviderUnderTest put, HostMemory memory) {
        int pageSize = put.pageSize();
        adapter = inv.call("NdkOpenAdapter", () -> "NdkOpenAdapter(HostMemory PAGE_SIZE=" + pageSize + ")",
                () -> put.factory().openAdapter(memory));
        if (adapter == null) {
            throw new KitSetupError("NdkOpenAdapter", "no adapter (null)");
        }
        target.pd = createRequired("NdkCreatePd", () -> "NdkCreatePd()", NdkObjectType.PD,
                op -> adapter.createPd(op.createCompletion(), op.context()));
    }

    /** @return the adapter under test, or null before it opened */
    public NdkAdapter adapter() {
        return adapter;
    }

    /** @return NDK_ADAPTER_INFO of the provider */
    public NdkAdapterInfo info() {
        return info;
    }

    /** @return true when the adapter sets NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED */
    public boolean readSinkNotRequired() {
        return info.hasFlag(NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED);
    }

    /** @return the side that owns the MRs under test (its PD exists; its QP on first {@link #qps()}) */
    public Side target() {
        return target;
    }

    /** @return the side that accesses them; its PD, CQ and QP exist after {@link #qps()} */
    public Side peer() {
        return peer;
    }

    /** @return true once {@link #qps()} ran */
    boolean qpsReady() {
        return qpsReady;
    }

    /** Marks the try failed: later closes do not wait for their completions. */
    void failing() {
        failing = true;
    }

    /** @return true when the try already failed */
    boolean isFailing() {
        return failing;
    }

    /** Creates (once) the peer's PD, each side's initiator CQ and receive CQ, and the two QPs, and connects them. */
    public void qps() {
        if (qpsReady) {
            return;
        }
        inv.batch("session set-up (QPs)", () -> {
            peer.pd = createRequired("NdkCreatePd", () -> "NdkCreatePd() for the peer", NdkObjectType.PD,
                    op -> adapter.createPd(op.createCompletion(), op.context()));
            target.cq = createCq(target, "initiator");
            target.receiveCq = createCq(target, "receive");
            peer.cq = createCq(peer, "initiator");
            peer.receiveCq = createCq(peer, "receive");
            target.qp = createQp(target, target.pd, target.qpContext);
            peer.qp = createQp(peer, peer.pd, peer.qpContext);
            NtStatus st = inv.call("connectLoopback", () -> "connectLoopback(target QP, peer QP)",
                    () -> adapter.connectLoopback(target.qp, peer.qp));
            if (!NtStatus.STATUS_SUCCESS.equals(st)) {
                throw new KitSetupError("connectLoopback(target QP, peer QP)", String.valueOf(st));
            }
            return null;
        });
        qpsReady = true;
    }

    /** @return a QP of the target PD that is never connected (created once; uses the target's two CQs) */
    public NdkQp unconnectedQp() {
        if (unconnected == null) {
            qps();
            unconnected = inv.batch("session set-up (unconnected QP)", () -> createQp(target, target.pd, unconnectedContext));
        }
        return unconnected;
    }

    /** @return true when {@code qp} is the never-connected QP */
    boolean isUnconnected(NdkQp qp) {
        return qp == unconnected && unconnected != null;
    }

    /** @return the side whose QPs {@code qp} belongs to: the peer for the peer's QP, the target otherwise */
    Side sideOf(NdkQp qp) {
        return qp == peer.qp ? peer : target;
    }

    /** @return the QPContext entries of requests posted on {@code qp} (a session QP) carry */
    Object qpContextOf(NdkQp qp) {
        return isUnconnected(qp) ? unconnectedContext : sideOf(qp).qpContext;
    }

    /** @return which of the session's CQs {@code cq} is, for messages (e.g. "the target's receive CQ") */
    String describeCq(NdkCq cq) {
        for (Side side : new Side[]{target, peer}) {
            if (cq == side.cq) {
                return "the " + side.name + "'s initiator CQ";
            }
            if (cq == side.receiveCq) {
                return "the " + side.name + "'s receive CQ";
            }
        }
        return "a CQ that is not this QP's";
    }

    private NdkCq createCq(Side side, String role) {
        int depth = capped(CQ_DEPTH, info.maxCqDepth());
        return createRequired("NdkCreateCq", () -> "NdkCreateCq(QueueDepth=" + u32(depth) + ") for the " + side.name + "'s " + role + " CQ",
                NdkObjectType.CQ,
                op -> adapter.createCq(depth, op.createCompletion(), op.context()));
    }

    private NdkQp createQp(Side side, NdkPd pd, Object qpContext) {
        int rq = capped(DEPTH, info.maxReceiveQueueDepth());
        int iq = capped(DEPTH, info.maxInitiatorQueueDepth());
        int rs = capped(1, info.maxReceiveRequestSge());
        int is = capped(1, info.maxInitiatorRequestSge());
        NdkCq icq = side.cq;
        NdkCq rcq = side.receiveCq;
        return createRequired("NdkCreateQp", () -> "NdkCreateQp(ReceiveQueueDepth=" + u32(rq) + ", InitiatorQueueDepth=" + u32(iq)
                        + ", MaxReceiveRequestSge=" + u32(rs) + ", MaxInitiatorRequestSge=" + u32(is) + ", InlineDataSize=0) on the " + side.name + " PD",
                NdkObjectType.QP, op -> pd.createQp(rcq, icq, qpContext, rq, iq, rs, is, 0, op.createCompletion(), op.context()));
    }

    private static int capped(int want, int limit) {
        long l = Integer.toUnsignedLong(limit);
        return (int) Math.max(1, Math.min(want, l == 0 ? want : l));
    }

    private <T extends NdkObject> T createRequired(String kind, Supplier<String> detail, NdkObjectType type,
                                                   Function<AsyncOp<T>, CreateResult<T>> call) {
        // a set-up create refused for lack of resources judged nothing: it is made again a few times
        // (Refusals.SETUP_ATTEMPTS) before the try is discarded, so a property of few tries still judges one
        Created<T> c = calls.create(kind, detail, call);
        for (int i = 1; i < Refusals.SETUP_ATTEMPTS && Refusals.isAllowedRefusal(c.status()); i++) {
            c = calls.create(kind, detail, call);
        }
        Refusals.discardIfRefused(c.status());
        if (!c.succeeded()) {
            throw new KitSetupError(detail.get(), c.describe());
        }
        return c.object();
    }

    /**
     * Closes an object and awaits the close (CL-2: SUCCESS or PENDING; CL-1 for the completion), unless the try
     * already failed.
     *
     * @param kind the NDK function (NdkCloseMr, NdkCloseQp, NdkCloseCq, NdkClosePd)
     * @param d    the call, for messages
     * @param call makes the call with the op's completion and context
     */
    void closeObject(String kind, Supplier<String> d, Function<AsyncOp<NdkMr>, NtStatus> call) {
        AsyncOp<NdkMr> op = calls.newOp(AsyncOp.Flavor.CLOSE, kind, d);
        AsyncOp<NdkMr> first = op;
        NtStatus r = inv.call(kind, d, () -> call.apply(first));
        // a close may fail inline, with no callback (the 2022 object-lifetime page; CL-2): the kit makes it again
        for (int i = 1; i < Refusals.SETUP_ATTEMPTS && CloseRefusals.refused(r); i++) {
            op.returned(r);
            op = calls.newOp(AsyncOp.Flavor.CLOSE, kind, d);
            AsyncOp<NdkMr> again = op;
            r = inv.call(kind, d, () -> call.apply(again));
        }
        if (r == null || !(r.equals(NtStatus.STATUS_SUCCESS) || r.isPending())) {
            op.returned(r == null ? NtStatus.of(-1) : r);
            CloseRefusals.judge(r, d.get(), () -> { });
        }
        op.returned(r);
        if (r.isPending() && !failing) {
            inv.stepWait(kind + " completion", d, bounds.completionNanos());
            op.awaitPending(bounds);
        }
    }

    /**
     * Tear-down, after the MRs and LAMs: closes the QPs, the CQs and the PDs, collecting what fails.
     *
     * @param problems where failures go
     * @param hung     true once a call of this try hung (the rest is then left)
     * @return false when a hang stopped the tear-down
     */
    boolean closeQueuesAndPds(List<Throwable> problems, BooleanSupplier hung) {
        List<Runnable> closes = new ArrayList<>();
        for (NdkQp qp : new NdkQp[]{unconnected, target.qp, peer.qp}) {
            if (qp != null) {
                closes.add(() -> closeObject("NdkCloseQp", () -> "NdkCloseQp()", op -> qp.close(op.closeCompletion(), op.context())));
            }
        }
        for (NdkCq cq : new NdkCq[]{target.cq, target.receiveCq, peer.cq, peer.receiveCq}) {
            if (cq != null) {
                closes.add(() -> closeObject("NdkCloseCq", () -> "NdkCloseCq()", op -> cq.close(op.closeCompletion(), op.context())));
            }
        }
        for (NdkPd pd : new NdkPd[]{target.pd, peer.pd}) {
            if (pd != null) {
                closes.add(() -> closeObject("NdkClosePd", () -> "NdkClosePd()", op -> pd.close(op.closeCompletion(), op.context())));
            }
        }
        for (Runnable c : closes) {
            try {
                c.run();
            } catch (RuntimeException | Error e) {
                problems.add(e);
                if (hung.getAsBoolean()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Closes the adapter (NdkCloseAdapter), the last step of the tear-down.
     *
     * @param problems where a failure goes
     */
    void closeAdapter(List<Throwable> problems) {
        try {
            inv.run("NdkCloseAdapter", () -> "NdkCloseAdapter()", adapter::close);
        } catch (RuntimeException | Error e) {
            problems.add(e);
        }
    }
}
