package org.ndktck.tck.harness;

import net.jqwik.api.Assume;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * One try's world: a fresh adapter over a fresh {@link HostMemory}, opened from
 * {@code ProviderUnderTest.get().factory()}, with the objects a memory-region property needs, every
 * provider call made through the guarded {@link Invoker}, and the bookkeeping that catches, in passing,
 * the general rules every call is subject to. Use it with try-with-resources; {@link #close()} tears
 * everything down and then runs the end-of-try checks.
 *
 * <h2>Objects</h2>
 * Two sides on separate PDs: the {@link #target()} owns the MRs under test; the {@link #peer()} issues
 * RDMA reads and writes at them through its QP, which is connected (loopback) to the target's QP. Each
 * side's QP has its own receive CQ and initiator CQ, so an entry on the wrong one is seen (MR-FR-8 and INV-3
 * name the initiator CQ; a receive's entry belongs on the receive CQ, CQ-2). {@link #unconnectedQp()} is a QP
 * of the target PD that is never
 * connected. QPs, CQs and the peer's scratch MR are created on first use.
 *
 * <h2>What every call is checked for</h2>
 * <ul>
 *   <li>GEN-TIME-1: every call returns within its bound, every PENDING call completes within its bound
 *       ({@link Bounds});</li>
 *   <li>GEN-EXC-1: no call throws; no provider thread dies with an exception during the try;</li>
 *   <li>GEN-CB-1 / GEN-CB-2: a request completion comes exactly once, with the kit's context, after
 *       STATUS_PENDING, and never after another return; GEN-CB-3 / GEN-CB-4 the same for creates, with
 *       the object only in the callback after PENDING and only in the out parameter after SUCCESS; CL-1
 *       and CL-2 for closes;</li>
 *   <li>status tables: MR-REG-9 (NdkRegisterMr), MR-DEREG-2, MR-FRI-8, MR-CREATE-2;</li>
 *   <li>CQ entries: matched by RequestContext; an entry with a context the kit never posted or with
 *       the wrong QPContext is CQ-2, an entry for a request that failed inline is DEF-2, a wrong
 *       NDK_RESULT_EX.Type is MR-FR-8 (fast register) or CQ-3, a missing entry after a successful post
 *       is MR-FR-8 (fast register), INV-3 (invalidate) or RW-5 (others); an entry on the QP's other CQ is
 *       MR-FR-8, INV-3 or CQ-2;</li>
 *   <li>OBJ-1: a created MR's header says NdkObjectTypeMr;</li>
 *   <li>memory: at close no guard frame was read or written and every painted byte is what the kit
 *       expects; a breach is charged to the running property's first rule.</li>
 * </ul>
 * A breach found in passing is thrown as a {@link RuleViolation} naming its own rule.
 *
 * <h2>Values</h2>
 * Lengths, addresses and logical addresses are unsigned 64-bit values in longs; flags, counts, FBO and
 * tokens are ULONG / UINT32 values in ints. Messages print them in hex.
 */
public final class NdkSession implements AutoCloseable {
    /** Queue depths and SGE counts the kit asks for (capped by the adapter's limits). */
    private static final int DEPTH = 16;
    private static final int CQ_DEPTH = 64;

    /**
     * One side of the connection: a PD, two CQs (the QP's initiator CQ and its receive CQ, so a completion on the
     * wrong one is seen: MR-FR-8, INV-3, CQ-2), a QP and, on the peer, a registered scratch buffer.
     */
    public static final class Side {
        private final String name;
        private final Object qpContext;
        private volatile NdkPd pd;
        private volatile NdkCq cq;
        private volatile NdkCq receiveCq;
        private volatile NdkQp qp;
        private HostBuffer scratch;
        private NdkMr scratchMr;
        private long scratchVa;
        private int scratchLocalToken;
        private int scratchRemoteToken;

        Side(String name) {
            this.name = name;
            this.qpContext = new RequestContext("QPContext of the " + name + " QP");
        }

        /** @return "target" or "peer" */
        public String name() {
            return name;
        }

        /** @return the side's PD */
        public NdkPd pd() {
            return pd;
        }

        /**
         * @return the side's initiator CQ (completions of NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite,
         *     NdkSend, NdkSendAndInvalidate), or null before the QPs exist
         */
        public NdkCq cq() {
            return cq;
        }

        /** @return the side's receive CQ (completions of NdkReceive), or null before the QPs exist */
        public NdkCq receiveCq() {
            return receiveCq;
        }

        /**
         * @param type the operation type of a request posted on this side's QP
         * @return the CQ its entry belongs on: the receive CQ for a receive, the initiator CQ otherwise
         */
        public NdkCq cqFor(NdkOperationType type) {
            return isReceive(type) ? receiveCq : cq;
        }

        /** @return the side's connected QP, or null before the QPs exist */
        public NdkQp qp() {
            return qp;
        }

        /** @return the QPContext the kit gave this side's QP */
        public Object qpContext() {
            return qpContext;
        }
    }

    /**
     * The end of an asynchronous call.
     *
     * @param callText the call and its arguments in hex (built only when asked for)
     * @param returned the status the call returned
     * @param status   the final status: {@code returned}, or the completion's status after STATUS_PENDING
     */
    public record Outcome(Supplier<String> callText, NtStatus returned, NtStatus status) {
        /** @return the call and its arguments in hex */
        public String call() {
            return callText.get();
        }

        /** @return true when the call ended in STATUS_SUCCESS */
        public boolean succeeded() {
            return NtStatus.STATUS_SUCCESS.equals(status);
        }

        /** @return "returned X" or "returned STATUS_PENDING, completed with Y" */
        public String describe() {
            return returned.isPending() ? "returned STATUS_PENDING, then completed with " + status : "returned " + returned;
        }
    }

    /**
     * The end of a create call.
     *
     * @param callText the call (built only when asked for)
     * @param returned the status the call returned
     * @param status   the final status
     * @param object   the object (from the out parameter or the completion), or null when it failed
     * @param <T>      the object type
     */
    public record Created<T extends NdkObject>(Supplier<String> callText, NtStatus returned, NtStatus status, T object) {
        /** @return the call in hex */
        public String call() {
            return callText.get();
        }

        /** @return true when the create ended in STATUS_SUCCESS */
        public boolean succeeded() {
            return NtStatus.STATUS_SUCCESS.equals(status);
        }

        /** @return "returned X" or "returned STATUS_PENDING, completed with Y" */
        public String describe() {
            return returned.isPending() ? "returned STATUS_PENDING, then completed with " + status : "returned " + returned;
        }
    }

    /**
     * The end of a work request.
     *
     * @param callText the call and its arguments in hex (built only when asked for)
     * @param returned the status the post returned
     * @param status   the final status: the CQ entry's status after a SUCCESS return, else {@code returned}
     * @param entry    the CQ entry, or null (inline failure)
     */
    public record WrOutcome(Supplier<String> callText, NtStatus returned, NtStatus status, NdkResultEx entry) {
        /** @return the call and its arguments in hex */
        public String call() {
            return callText.get();
        }

        /** @return true when the request completed with STATUS_SUCCESS */
        public boolean succeeded() {
            return NtStatus.STATUS_SUCCESS.equals(status);
        }

        /** @return "failed inline with X" or "returned STATUS_SUCCESS, CQ entry status Y" */
        public String describe() {
            if (entry == null) {
                return "returned " + returned + " (no CQ entry)";
            }
            return "returned " + returned + ", then a CQ entry with status " + entry.status();
        }
    }

    /**
     * A peer's (or the target's) RDMA access.
     *
     * @param outcome the work request's end
     * @param data    for a successful read the bytes read, else empty
     */
    public record Access(WrOutcome outcome, byte[] data) {
        /** @return true when the access completed with STATUS_SUCCESS */
        public boolean succeeded() {
            return outcome.succeeded();
        }

        /** @return the call and how it ended */
        public String describe() {
            return outcome.call() + " " + outcome.describe();
        }
    }

    /**
     * A logical address mapping built with NdkBuildLam.
     *
     * @param mapping the mapping object (released at close)
     * @param fbo     {@code *pFBO}
     * @param count   AdapterPageCount
     * @param pages   AdapterPageArray (first {@code count} entries)
     */
    public record Lam(NdkLogicalAddressMapping mapping, int fbo, int count, long[] pages) {
    }

    private static final class MrState {
        final NdkMr mr;
        final boolean fastRegister;
        volatile boolean registered;
        volatile boolean closed;

        MrState(NdkMr mr, boolean fastRegister) {
            this.mr = mr;
            this.fastRegister = fastRegister;
        }
    }

    private final ProviderUnderTest put;
    private final Bounds bounds;
    private final Invoker inv;
    private final HostMemory memory;
    private final NdkAdapterInfo info;
    private final int pageSize;
    private final int hangMark;
    private final long deathMark;
    private final Side target = new Side("target");
    private final Side peer = new Side("peer");
    private final ConcurrentLinkedQueue<AsyncOp<?>> ops = new ConcurrentLinkedQueue<>();
    final Map<Object, WorkRequest> posted = Collections.synchronizedMap(new IdentityHashMap<>());
    private final ConcurrentLinkedQueue<MrState> mrs = new ConcurrentLinkedQueue<>();
    private final List<NdkLogicalAddressMapping> lams = new ArrayList<>();
    private final List<HostBuffer> buffers = new ArrayList<>();
    /** Seeds the frame layout of each buffer of this session. */
    private final java.util.SplittableRandom layouts;
    private final Object unconnectedContext = new RequestContext("QPContext of the unconnected QP");
    private volatile NdkAdapter adapter;
    private NdkQp unconnected;
    private boolean qpsReady;
    private boolean closed;
    private volatile Consumer<AsyncOp<?>> nextInsideCallback;
    /** Set when the try already failed: tear-down then closes everything without waiting for close completions. */
    private volatile boolean failing;
    /** Objects the provider handed over outside the kit's bookkeeping (e.g. with a violation): closed at tear-down. */
    private final ConcurrentLinkedQueue<NdkObject> orphans = new ConcurrentLinkedQueue<>();

    private NdkSession(ProviderUnderTest put) {
        this.put = put;
        this.bounds = Bounds.current();
        this.inv = Invoker.forCurrentThread();
        this.hangMark = inv.hangs();
        this.deathMark = ProviderThreads.mark();
        this.pageSize = put.pageSize();
        this.memory = new HostMemory(pageSize);
        this.layouts = MemoryLayouts.forSession();
        this.info = put.adapterInfo();
    }

    /**
     * Opens a session: a fresh HostMemory, a fresh adapter over it, and the target's PD.
     *
     * @return the session; close it
     * @throws RuleViolation GEN-TIME-1 / GEN-EXC-1 when opening misbehaves
     * @throws KitSetupError when the adapter or the PD cannot be created
     */
    public static NdkSession open() {
        ProviderThreads.install();
        NdkSession s = new NdkSession(ProviderUnderTest.get());
        try {
            s.inv.batch("session set-up", () -> {
                s.adapter = s.inv.call("NdkOpenAdapter", () -> "NdkOpenAdapter(HostMemory PAGE_SIZE=" + s.pageSize + ")",
                        () -> s.put.factory().openAdapter(s.memory));
                if (s.adapter == null) {
                    throw new KitSetupError("NdkOpenAdapter", "no adapter (null)");
                }
                s.target.pd = s.createRequired("NdkCreatePd", () -> "NdkCreatePd()", NdkObjectType.PD,
                        op -> s.adapter.createPd(op.createCompletion(), op.context()));
                return null;
            });
        } catch (RuntimeException | Error e) {
            try {
                s.close();
            } catch (Throwable suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return s;
    }

    /**
     * Runs one try's provider interaction: opens a session, runs {@code body}, closes the session, all on
     * the invoker's caller thread in one hand-off ({@link Invoker#batch}), so the try pays for one
     * thread switch while every provider call in it keeps its own time bound. jqwik state (statistics,
     * reporting) must be used outside {@code body}; {@code Assume} inside it works.
     *
     * @param body what the try does with the session
     */
    public static void inTry(Consumer<NdkSession> body) {
        Invoker.forCurrentThread().batch("one try of the property", () -> {
            NdkSession s = open();
            try {
                body.accept(s);
            } catch (RuntimeException | Error e) {
                s.failing = true;
                try {
                    s.close();
                } catch (RuntimeException | Error suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            s.close();
            return null;
        });
    }

    /** Marks the session as closing after a failed try ({@link HeldSessions}: as {@link #inTry} does on a failure). */
    void markFailing() {
        failing = true;
    }

    // ------------------------------------------------------------------ accessors

    /** @return the session's host memory */
    public HostMemory memory() {
        return memory;
    }

    /** @return the adapter under test */
    public NdkAdapter adapter() {
        return adapter;
    }

    /** @return NDK_ADAPTER_INFO of the provider */
    public NdkAdapterInfo info() {
        return info;
    }

    /** @return PAGE_SIZE in bytes */
    public int pageSize() {
        return pageSize;
    }

    /** @return the run's time bounds */
    public Bounds bounds() {
        return bounds;
    }

    /** @return the guarded invoker this session calls through */
    public Invoker invoker() {
        return inv;
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

    /**
     * Creates (once) the peer's PD, each side's initiator CQ and receive CQ, and the two QPs, and connects them.
     *
     * @return this session
     */
    public NdkSession qps() {
        if (qpsReady) {
            return this;
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
        return this;
    }

    /**
     * @return a QP of the target PD that is never connected (created once; uses the target's two CQs)
     */
    public NdkQp unconnectedQp() {
        if (unconnected == null) {
            qps();
            unconnected = inv.batch("session set-up (unconnected QP)", () -> createQp(target, target.pd, unconnectedContext));
        }
        return unconnected;
    }

    // ------------------------------------------------------------------ memory

    /**
     * Allocates a guarded, painted buffer (see {@link HostBuffer}); it is checked when the session closes. Its
     * frames lie as the session's seeded layout stream says ({@link MemoryLayouts}): scattered in most
     * buffers, consecutive in some.
     *
     * @param pages data pages
     * @return the buffer
     */
    public HostBuffer allocate(int pages) {
        return allocate(pages, MemoryLayouts.next(layouts));
    }

    /**
     * Allocates a guarded, painted buffer whose frames lie as {@code layout} says.
     *
     * @param pages  data pages
     * @param layout how its frames lie ({@link HostMemory.FrameLayout})
     * @return the buffer
     */
    public HostBuffer allocate(int pages, HostMemory.FrameLayout layout) {
        HostBuffer b = new HostBuffer(memory, pages, buffers.size() + 1, layout, layouts.nextLong());
        buffers.add(b);
        return b;
    }

    // ------------------------------------------------------------------ creates

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
        Created<T> c = create(kind, detail, call);
        for (int i = 1; i < Refusals.SETUP_ATTEMPTS && Refusals.isAllowedRefusal(c.status()); i++) {
            c = create(kind, detail, call);
        }
        Refusals.discardIfRefused(c.status(), c.call());
        if (!c.succeeded()) {
            throw new KitSetupError(detail.get(), c.describe());
        }
        return c.object();
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
                // forbids touching it when the create then succeeds (GEN-CB-3, issue 17)
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

    /**
     * NdkCreateMr on a side's PD, with the completion rules of {@link #create}; the MR-CREATE-2 table is
     * the caller's to judge.
     *
     * @param side         target or peer
     * @param fastRegister true for a fast-register MR
     * @return the outcome
     */
    public Created<NdkMr> createMrRaw(Side side, boolean fastRegister) {
        NdkPd pd = side.pd;
        Created<NdkMr> c = create("NdkCreateMr", () -> "NdkCreateMr(FastRegister=" + (fastRegister ? "TRUE" : "FALSE") + ") on the " + side.name + " PD",
                op -> pd.createMr(fastRegister, op.createCompletion(), op.context()));
        if (c.object() != null) {
            mrs.add(new MrState(c.object(), fastRegister));
        }
        return c;
    }

    /**
     * NdkCreateMr that must succeed (MR-CREATE-2: on a fresh PD it ends in success, inline or through
     * its completion) and whose header must say NdkObjectTypeMr (OBJ-1). STATUS_INSUFFICIENT_RESOURCES
     * rejects the try (GEN-CB-5 allows it).
     *
     * @param side         target or peer
     * @param fastRegister true for a fast-register MR
     * @return the MR
     */
    public NdkMr createMr(Side side, boolean fastRegister) {
        Created<NdkMr> c = createMrRaw(side, fastRegister);
        Refusals.discardIfRefused(c.status(), c.call());
        if (!c.succeeded()) {
            throw Violations.of("MR-CREATE-2", c.call(), "STATUS_SUCCESS, inline or through the completion, for an MR on a fresh PD", c.describe());
        }
        checkMrHeader(c.call(), c.object());
        return c.object();
    }

    /**
     * Reads an MR's header and checks ObjectType = NdkObjectTypeMr (OBJ-1).
     *
     * @param call the create call, for the message
     * @param mr   the MR
     */
    public void checkMrHeader(String call, NdkMr mr) {
        var h = inv.call("NDK_OBJECT_HEADER", () -> "NDK_MR.Header of the MR from " + call, mr::header);
        if (h == null || h.objectType() != NdkObjectType.MR) {
            throw Violations.of("OBJ-1", call, "Header.ObjectType = NdkObjectTypeMr (4)",
                    h == null ? "no header (null)" : "Header.ObjectType = " + h.objectType());
        }
    }

    // ------------------------------------------------------------------ MR calls

    /**
     * Kit code to run inside the completion callback of the next asynchronous call this session makes
     * (on the provider's thread; GEN-LIFE-1). Only {@link #closeMrFromCallback} and {@link #deregisterFromCallback}
     * are safe to call from it.
     *
     * @param action the action
     */
    public void insideNextCallback(Consumer<AsyncOp<?>> action) {
        this.nextInsideCallback = action;
    }

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

    Outcome finish(AsyncOp<?> op, NtStatus r, String tableRule, String allowed) {
        if (r == null) {
            throw Violations.of(tableRule, op.detail(), allowed, "the provider returned null instead of an NTSTATUS");
        }
        op.returned(r);
        boolean okReturn = r.equals(NtStatus.STATUS_SUCCESS) || r.isPending() || r.isError();
        if (!okReturn) {
            throw Violations.of(tableRule, op.detail(), allowed, "returned " + r + ", which is neither a success nor an error code");
        }
        NtStatus st = r;
        if (r.isPending()) {
            inv.stepWait(op.kind() + " completion", op::detail, bounds.completionNanos());
            st = op.awaitPending(bounds);
            if (!(st.equals(NtStatus.STATUS_SUCCESS) || st.isError())) {
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

    private MrState state(NdkMr mr) {
        for (MrState s : mrs) {
            if (s.mr == mr) {
                return s;
            }
        }
        return null;
    }

    /**
     * NdkRegisterMr, awaited to its end; the result must be in the MR-REG-9 table (SUCCESS, PENDING, or an
     * error code; the completion SUCCESS or an error).
     *
     * @param mr     a normal (not fast-register) MR
     * @param mdl    the first MDL of the chain
     * @param length Length in bytes (SIZE_T, unsigned)
     * @param flags  NDK_MR_FLAG_* bits
     * @return the outcome
     */
    public Outcome register(NdkMr mr, Mdl mdl, long length, int flags) {
        Supplier<String> d = () -> "NdkRegisterMr(Mdl=" + mdl + ", Length=" + u64(length) + ", Flags=" + u32(flags) + ")";
        AsyncOp<NdkMr> op = newOp(AsyncOp.Flavor.REQUEST, "NdkRegisterMr", d);
        NtStatus r = inv.call("NdkRegisterMr", d, () -> mr.register(mdl, length, flags, op.requestCompletion(), op.context()));
        Outcome o = finish(op, r, "MR-REG-9", "STATUS_SUCCESS, STATUS_PENDING, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another error code");
        if (o.succeeded()) {
            MrState s = state(mr);
            if (s != null) {
                s.registered = true;
            }
        }
        return o;
    }

    /**
     * NdkRegisterMr of a request the kit built to be valid: it must succeed (MR-REG-10: registrations up
     * to MaxRegistrationSize work, resources permitting). STATUS_INSUFFICIENT_RESOURCES rejects the try.
     *
     * @param mr     a normal MR
     * @param mdl    the chain
     * @param length Length (unsigned)
     * @param flags  NDK_MR_FLAG_* bits
     */
    public void registerValid(NdkMr mr, Mdl mdl, long length, int flags) {
        Outcome o = register(mr, mdl, length, flags);
        Refusals.discardIfRefused(o.status(), o.call());
        if (!o.succeeded()) {
            if ((flags & NdkMrFlags.RDMA_READ_SINK) != 0 && readSinkNotRequired()) {
                Outcome without = register(mr, mdl, length, flags & ~NdkMrFlags.RDMA_READ_SINK);
                if (without.succeeded()) {
                    throw Violations.of("MR-REG-7", o.call(), "STATUS_SUCCESS: NDK_MR_FLAG_RDMA_READ_SINK never makes a registration fail on an "
                            + "adapter with RDMA_READ_SINK_NOT_REQUIRED", o.describe() + ", while the same request without it succeeded");
                }
            }
            throw Violations.of("MR-REG-10", o.call(), "STATUS_SUCCESS for a valid registration within MaxRegistrationSize ("
                    + u64(info.maxRegistrationSize()) + ")", o.describe());
        }
    }

    /**
     * NdkDeregisterMr, awaited (MR-DEREG-2 table: SUCCESS, PENDING or an error).
     *
     * @param mr a registered MR
     * @return the outcome
     */
    public Outcome deregister(NdkMr mr) {
        Supplier<String> d = () -> "NdkDeregisterMr()";
        AsyncOp<NdkMr> op = newOp(AsyncOp.Flavor.REQUEST, "NdkDeregisterMr", d);
        NtStatus r = inv.call("NdkDeregisterMr", d, () -> mr.deregister(op.requestCompletion(), op.context()));
        Outcome o = finish(op, r, "MR-DEREG-2", "STATUS_SUCCESS, STATUS_PENDING or an error code");
        MrState s = state(mr);
        if (s != null && o.succeeded()) {
            s.registered = false;
        }
        return o;
    }

    /**
     * NdkInitializeFastRegisterMr, awaited (MR-FRI-8 table: SUCCESS, PENDING, STATUS_IMPLEMENTATION_LIMIT
     * or another error).
     *
     * @param mr               a fast-register MR
     * @param adapterPageCount the most pages (ULONG, unsigned)
     * @param remoteAccess     whether later fast registrations may grant remote access
     * @return the outcome
     */
    public Outcome initializeFastRegister(NdkMr mr, int adapterPageCount, boolean remoteAccess) {
        Supplier<String> d = () -> "NdkInitializeFastRegisterMr(AdapterPageCount=" + u32(adapterPageCount) + ", RemoteAccess="
                + (remoteAccess ? "TRUE" : "FALSE") + ")";
        AsyncOp<NdkMr> op = newOp(AsyncOp.Flavor.REQUEST, "NdkInitializeFastRegisterMr", d);
        NtStatus r = inv.call("NdkInitializeFastRegisterMr", d, () -> mr.initializeFastRegister(adapterPageCount, remoteAccess,
                op.requestCompletion(), op.context()));
        return finish(op, r, "MR-FRI-8", "STATUS_SUCCESS, STATUS_PENDING, STATUS_IMPLEMENTATION_LIMIT or another error code");
    }

    /**
     * Creates a fast-register MR on the target PD and initializes it; both must succeed (MR-CREATE-2,
     * MR-FRI-2 for counts up to FRMRPageCount). STATUS_INSUFFICIENT_RESOURCES rejects the try.
     *
     * @param adapterPageCount pages (≤ FRMRPageCount)
     * @param remoteAccess     RemoteAccess
     * @return the MR
     */
    public NdkMr fastRegisterMr(int adapterPageCount, boolean remoteAccess) {
        NdkMr mr = createMr(target, true);
        Outcome o = initializeFastRegister(mr, adapterPageCount, remoteAccess);
        Refusals.discardIfRefused(o.status(), o.call());
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS: AdapterPageCount is at most FRMRPageCount ("
                    + u32(info.frmrPageCount()) + ")", o.describe());
        }
        return mr;
    }

    /** @param mr an MR @return NdkGetRemoteTokenFromMr */
    public int remoteToken(NdkMr mr) {
        return inv.call("NdkGetRemoteTokenFromMr", () -> "NdkGetRemoteTokenFromMr()", mr::getRemoteToken);
    }

    /** @param mr an MR @return NdkGetLocalTokenFromMr */
    public int localToken(NdkMr mr) {
        return inv.call("NdkGetLocalTokenFromMr", () -> "NdkGetLocalTokenFromMr()", mr::getLocalToken);
    }

    /**
     * NdkCloseMr from inside a completion callback (GEN-LIFE-1); the close's own completion is checked
     * when the session closes.
     *
     * @param mr the MR
     * @return the status the close returned
     */
    public NtStatus closeMrFromCallback(NdkMr mr) {
        MrState s = state(mr);
        if (s != null) {
            s.closed = true;
        }
        Supplier<String> d = () -> "NdkCloseMr() from inside a completion callback";
        AsyncOp<NdkMr> op = newOp(AsyncOp.Flavor.CLOSE, "NdkCloseMr", d);
        NtStatus r = inv.call("NdkCloseMr", d, () -> mr.close(op.closeCompletion(), op.context()));
        op.returned(r);
        return r;
    }

    /**
     * NdkDeregisterMr from inside a completion callback (GEN-LIFE-1), not awaited.
     *
     * @param mr the MR
     * @return the status it returned
     */
    public NtStatus deregisterFromCallback(NdkMr mr) {
        Supplier<String> d = () -> "NdkDeregisterMr() from inside a completion callback";
        AsyncOp<NdkMr> op = newOp(AsyncOp.Flavor.REQUEST, "NdkDeregisterMr", d);
        NtStatus r = inv.call("NdkDeregisterMr", d, () -> mr.deregister(op.requestCompletion(), op.context()));
        op.returned(r);
        MrState s = state(mr);
        if (s != null) {
            s.registered = false;
        }
        return r;
    }

    /**
     * NdkCloseMr, awaited (CL-2: SUCCESS or PENDING; CL-1 for the completion).
     *
     * @param mr the MR
     */
    public void closeMr(NdkMr mr) {
        MrState s = state(mr);
        if (s != null) {
            s.closed = true;
        }
        closeObject("NdkCloseMr", () -> "NdkCloseMr()", op -> mr.close(op.closeCompletion(), op.context()));
    }

    private void closeObject(String kind, Supplier<String> d, Function<AsyncOp<NdkMr>, NtStatus> call) {
        AsyncOp<NdkMr> op = newOp(AsyncOp.Flavor.CLOSE, kind, d);
        NtStatus r = inv.call(kind, d, () -> call.apply(op));
        if (r == null || !(r.equals(NtStatus.STATUS_SUCCESS) || r.isPending())) {
            op.returned(r == null ? NtStatus.of(-1) : r);
            throw Violations.of("CL-2", d.get(), "STATUS_SUCCESS or STATUS_PENDING (a close never fails)", "returned " + r);
        }
        op.returned(r);
        if (r.isPending() && !failing) {
            inv.stepWait(kind + " completion", d, bounds.completionNanos());
            op.awaitPending(bounds);
        }
    }

    // ------------------------------------------------------------------ LAM

    /**
     * NdkBuildLam over a chain for the kit's own use (the page array of a fast registration, MR-FR-2),
     * sized exactly, with one retry on STATUS_BUFFER_TOO_SMALL; awaited. The mapping must have one
     * PAGE_SIZE-aligned entry per page spanned and FBO = the chain's offset in its first page (LAM-4).
     *
     * @param mdl    the chain
     * @param length bytes to map (unsigned)
     * @return the mapping; released when the session closes
     */
    public Lam buildLam(Mdl mdl, long length) {
        long span = Mdl.spanPages(mdl.byteOffset(), length, pageSize);
        NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) NdkLogicalAddressMapping.bytesFor(span));
        Outcome o = buildLamOnce(mdl, length, lam);
        if (NtStatus.STATUS_BUFFER_TOO_SMALL.equals(o.status())) {
            lam = new NdkLogicalAddressMapping(lam.lamSize());
            o = buildLamOnce(mdl, length, lam);
        }
        Refusals.discardIfRefused(o.status(), o.call());
        if (!o.succeeded()) {
            throw new KitSetupError(o.call(), o.describe());
        }
        synchronized (lams) {
            lams.add(lam);
        }
        long[] pages = lam.adapterPageArray();
        long count = Integer.toUnsignedLong(lam.adapterPageCount());
        String problem = null;
        if (count != span || pages == null || pages.length < count) {
            problem = "AdapterPageCount " + count + " for " + span + " pages spanned";
        } else if (lam.fbo() != mdl.byteOffset()) {
            problem = "*pFBO " + u32(lam.fbo()) + " for a chain starting at offset " + u32(mdl.byteOffset());
        } else {
            for (int i = 0; i < count; i++) {
                if ((pages[i] & (pageSize - 1)) != 0) {
                    problem = "AdapterPageArray[" + i + "] = " + u64(pages[i]) + " is not PAGE_SIZE-aligned";
                    break;
                }
            }
        }
        if (problem != null) {
            throw Violations.of("LAM-4", o.call(), "one PAGE_SIZE-aligned entry per page and *pFBO = the offset in the first page", problem);
        }
        return new Lam(lam, lam.fbo(), (int) count, pages);
    }

    /**
     * NdkBuildLam with a buffer of {@code lamSizeBytes} bytes (0: none), awaited; for the kit's general
     * properties (STATUS_BUFFER_TOO_SMALL is an inline or completion result like any other). The mapping is
     * released at close when it succeeded.
     *
     * @param mdl          the chain
     * @param length       bytes (unsigned)
     * @param lamSizeBytes {@code *pLAMSize} offered (ULONG)
     * @return the outcome
     */
    public Outcome buildLamRaw(Mdl mdl, long length, int lamSizeBytes) {
        NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping(lamSizeBytes);
        Outcome o = buildLamOnce(mdl, length, lam);
        if (o.succeeded()) {
            synchronized (lams) {
                lams.add(lam);
            }
        }
        return o;
    }

    private Outcome buildLamOnce(Mdl mdl, long length, NdkLogicalAddressMapping lam) {
        int offered = lam.lamSize();
        Supplier<String> d = () -> "NdkBuildLam(Mdl=" + mdl + ", Length=" + u64(length) + ", *pLAMSize=" + u32(offered) + ")";
        AsyncOp<NdkMr> op = newOp(AsyncOp.Flavor.REQUEST, "NdkBuildLam", d);
        NtStatus r = inv.call("NdkBuildLam", d, () -> adapter.buildLam(mdl, length, op.requestCompletion(), op.context(), lam));
        return finish(op, r, "LAM-7", "STATUS_SUCCESS, STATUS_PENDING, STATUS_BUFFER_TOO_SMALL, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another error code");
    }

    // ------------------------------------------------------------------ work requests

    /** @return true for the completion types of NdkReceive (RECEIVE, RECEIVE_AND_INVALIDATE) */
    static boolean isReceive(NdkOperationType type) {
        return type == NdkOperationType.RECEIVE || type == NdkOperationType.RECEIVE_AND_INVALIDATE;
    }

    /**
     * @return the rule that names the CQ an entry of this type belongs on: MR-FR-8 (fast register) and INV-3
     *     (invalidate) say the initiator CQ; for the others CQ-2 (the entry of the QP and queue it was posted on)
     */
    static String cqRule(NdkOperationType type) {
        return switch (type) {
            case FAST_REGISTER -> "MR-FR-8";
            case INVALIDATE -> "INV-3";
            default -> "CQ-2";
        };
    }

    /** @return the rule that requires a CQ entry after a successful post of this type */
    static String wrRule(NdkOperationType type) {
        return switch (type) {
            case FAST_REGISTER -> "MR-FR-8";
            case INVALIDATE -> "INV-3";
            default -> "RW-5";
        };
    }

    WorkRequest post(NdkQp qp, NdkOperationType type, String kind, Supplier<String> detail, int flags,
                             Function<Object, NtStatus> call) {
        boolean onUnconnected = qp == unconnected && unconnected != null;
        Side side = qp == peer.qp ? peer : target;
        Object qpContext = onUnconnected ? unconnectedContext : side.qpContext;
        WorkRequest wr = new WorkRequest(type, kind, detail, side.cqFor(type), isReceive(type) ? side.cq : side.receiveCq, qpContext,
                (flags & NdkOpFlags.SILENT_SUCCESS) != 0);
        posted.put(wr.context, wr);
        NtStatus r = inv.call(kind, detail, () -> call.apply(wr.context));
        if (r == null) {
            throw Violations.of(wrRule(type), detail.get(),
                    "an NTSTATUS", "the provider returned null");
        }
        wr.returned = r;
        if (r.isPending()) {
            throw Violations.of(wrRule(type), detail.get(),
                    "STATUS_SUCCESS (then a CQ entry) or an error: work requests complete through the CQ, not a callback",
                    "returned STATUS_PENDING");
        }
        // the work-request pages allow "other status codes": a post refused for lack of resources judges nothing
        Refusals.discardIfRefused(r, null);
        return wr;
    }

    /**
     * Completes a posted request: its CQ entry is awaited when the post returned STATUS_SUCCESS (and
     * SILENT_SUCCESS was not set).
     *
     * @param wr a posted request
     * @return the outcome
     */
    public WrOutcome complete(WorkRequest wr) {
        NtStatus r = wr.returned;
        if (!NtStatus.STATUS_SUCCESS.equals(r)) {
            return new WrOutcome(wr::detail, r, r, null);
        }
        if (wr.silent) {
            return new WrOutcome(wr::detail, r, r, null);
        }
        awaitEntry(wr);
        // a request that failed later for lack of resources (an error CQ entry, which the pages allow) judges nothing
        Refusals.discardIfRefused(wr.entry.status(), null);
        return new WrOutcome(wr::detail, r, wr.entry.status(), wr.entry);
    }

    /**
     * Polls the request's CQ until its entry arrives, within the completion bound.
     *
     * @param wr a request whose post returned STATUS_SUCCESS
     * @throws RuleViolation MR-FR-8 (fast register), INV-3 or RW-5 when no entry comes in time
     */
    public void awaitEntry(WorkRequest wr) {
        long start = System.nanoTime();
        int round = 0;
        while (wr.entry == null) {
            drainFor(wr);
            if (wr.entry != null) {
                Bounds.completionArrived(start);
                return;
            }
            if (bounds.completionExpired(start)) {
                throw Violations.of(wrRule(wr.type), wr.detail(),
                        "after STATUS_SUCCESS a CQ entry with RequestContext " + wr.context + " within " + bounds.describeCompletionBound(),
                        "no such entry on the CQ");
            }
            round++;
            if (round < 16) {
                Thread.onSpinWait();
            } else if (round < 64) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(Math.min(1_000_000L, 10_000L * (round - 63)));
            }
        }
    }

    /**
     * Drains the CQ a request's entry belongs on and then the QP's other CQ, so an entry on the wrong CQ is
     * reported at once (MR-FR-8, INV-3, CQ-2) instead of as a missing entry.
     *
     * @param wr a posted request
     */
    public void drainFor(WorkRequest wr) {
        drain(wr.cq);
        if (wr.entry == null && wr.otherCq != wr.cq) {
            drain(wr.otherCq);
        }
    }

    /**
     * Drains both CQs of a side (initiator, then receive), checking each entry as {@link #drain(NdkCq)} does.
     *
     * @param side the target or the peer
     */
    public void drain(Side side) {
        drain(side.cq);
        if (side.receiveCq != side.cq) {
            drain(side.receiveCq);
        }
    }

    /**
     * Drains a CQ with NdkGetCqResultsEx and checks each entry (CQ-1, CQ-2, CQ-3, DEF-2, MR-FR-8).
     *
     * @param cq the target's or the peer's CQ
     */
    public void drain(NdkCq cq) {
        if (cq == null) {
            return;
        }
        NdkResultEx[] buf = new NdkResultEx[8];
        int n;
        do {
            java.util.Arrays.fill(buf, null);
            n = inv.call("NdkGetCqResultsEx", () -> "NdkGetCqResultsEx(nResults=8)", () -> cq.getCqResultsEx(buf));
            if (n < 0 || n > buf.length) {
                throw Violations.of("CQ-1", "NdkGetCqResultsEx(nResults=8)", "a count between 0 and 8", "returned " + n);
            }
            for (int i = 0; i < n; i++) {
                accept(cq, buf[i]);
            }
        } while (n == buf.length);
    }

    /**
     * Drains a CQ with NdkGetCqResults (the form without the operation type), checking each entry as
     * {@link #drain} does except the type.
     *
     * @param cq a CQ
     * @return the entries removed
     */
    public List<NdkResult> drainPlain(NdkCq cq) {
        NdkResult[] buf = new NdkResult[8];
        List<NdkResult> out = new ArrayList<>();
        int n;
        do {
            java.util.Arrays.fill(buf, null);
            n = inv.call("NdkGetCqResults", () -> "NdkGetCqResults(nResults=8)", () -> cq.getCqResults(buf));
            if (n < 0 || n > buf.length) {
                throw Violations.of("CQ-1", "NdkGetCqResults(nResults=8)", "a count between 0 and 8", "returned " + n);
            }
            for (int i = 0; i < n; i++) {
                NdkResult e = buf[i];
                if (e == null) {
                    throw Violations.of("CQ-1", "NdkGetCqResults(nResults=8)", n + " entries filled", "entry " + i + " is null");
                }
                out.add(e);
                accept(cq, new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(), null, 0));
            }
        } while (n == buf.length);
        return out;
    }

    /** @return which of the session's CQs {@code cq} is, for messages (e.g. "the target's receive CQ") */
    private String describeCq(NdkCq cq) {
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

    /**
     * A receive that completes in error may report NdkOperationTypeReceive or NdkOperationTypeReceiveAndInvalidate
     * whichever the kit expected: a receive whose SendAndInvalidate was refused (INV-6) never became a
     * ReceiveAndInvalidate, and the pages do not say which type such an error carries.
     */
    private static boolean failedReceiveOfEitherType(WorkRequest wr, NdkResultEx e) {
        return isReceive(wr.type) && isReceive(e.type()) && e.status() != null && !NtStatus.STATUS_SUCCESS.equals(e.status());
    }

    void accept(NdkCq cq, NdkResultEx e) {
        if (e == null) {
            throw Violations.of("CQ-1", "NdkGetCqResultsEx", "every counted entry filled", "a null entry");
        }
        WorkRequest wr = posted.get(e.requestContext());
        Supplier<String> where = () -> "CQ entry {Status=" + e.status() + ", RequestContext=" + RequestContext.describe(e.requestContext())
                + ", QPContext=" + RequestContext.describe(e.qpContext()) + ", Type=" + e.type() + "}";
        if (wr == null) {
            throw Violations.of("CQ-2", where.get(), "RequestContext is a value the kit passed when it posted a request",
                    "a RequestContext the kit never posted");
        }
        if (wr.cq != cq) {
            throw Violations.of(cqRule(wr.type), wr.detail(), "its CQ entry on the " + (isReceive(wr.type) ? "receive" : "initiator")
                    + " CQ of the QP it was posted on", where.get() + " arrived on " + describeCq(cq));
        }
        if (e.qpContext() != wr.qpContext) {
            throw Violations.of("CQ-2", wr.detail(), "QPContext = " + wr.qpContext, where.get());
        }
        NtStatus r = wr.returned;
        if (r != null && !NtStatus.STATUS_SUCCESS.equals(r)) {
            throw Violations.of("DEF-2", wr.detail(), "no CQ entry after the post returned " + r, where.get());
        }
        if (wr.entry != null) {
            throw Violations.of("CQ-2", wr.detail(), "one CQ entry per request", "a second " + where.get());
        }
        if (e.type() != null && e.type() != wr.type && !failedReceiveOfEitherType(wr, e)
                && !(wr.eitherReceiveType && isReceive(wr.type) && isReceive(e.type()))) {
            String rule = switch (wr.type) {
                case FAST_REGISTER -> "MR-FR-8";
                case SEND -> "SND-2";
                default -> "CQ-3";
            };
            throw Violations.of(rule, wr.detail(), "NDK_RESULT_EX.Type = " + wr.type + " (" + wr.type.value() + ")", where.get());
        }
        if (e.status() == null) {
            throw Violations.of("CQ-2", wr.detail(), "an entry with a status", where.get());
        }
        wr.entry = e;
    }

    /**
     * NdkFastRegister on a QP of the target PD, awaited: after STATUS_SUCCESS the CQ entry is awaited and
     * checked (MR-FR-8, CQ-2).
     *
     * @param qp                 the target's QP or {@link #unconnectedQp()}
     * @param mr                 an initialized fast-register MR
     * @param adapterPageCount   entries to use (ULONG)
     * @param adapterPageArray   logical addresses
     * @param fbo                FBO (ULONG)
     * @param length             Length (unsigned)
     * @param baseVirtualAddress BaseVirtualAddress (unsigned)
     * @param flags              NDK_OP_FLAG_* bits
     * @return the outcome
     */
    public WrOutcome fastRegister(NdkQp qp, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo, long length,
                                  long baseVirtualAddress, int flags) {
        return complete(postFastRegister(qp, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags));
    }

    /**
     * Posts NdkFastRegister without waiting for its CQ entry.
     *
     * @return the posted request (see {@link #fastRegister} for the parameters)
     */
    public WorkRequest postFastRegister(NdkQp qp, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo, long length,
                                        long baseVirtualAddress, int flags) {
        Supplier<String> d = () -> "NdkFastRegister(AdapterPageCount=" + u32(adapterPageCount) + ", AdapterPageArray="
                + Hex.pages(adapterPageArray, adapterPageCount) + ", FBO=" + u32(fbo) + ", Length=" + u64(length)
                + ", BaseVirtualAddress=" + u64(baseVirtualAddress) + ", Flags=" + u32(flags) + ")"
                + (qp == unconnected && unconnected != null ? " on an unconnected QP" : "");
        return post(qp, NdkOperationType.FAST_REGISTER, "NdkFastRegister", d, flags,
                ctx -> qp.fastRegister(ctx, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags));
    }

    /**
     * NdkInvalidate on the target's QP, awaited.
     *
     * @param mr    a fast-registered MR
     * @param flags NDK_OP_FLAG_* bits
     * @return the outcome
     */
    public WrOutcome invalidate(NdkMr mr, int flags) {
        qps();
        NdkQp qp = target.qp;
        Supplier<String> d = () -> "NdkInvalidate(Flags=" + u32(flags) + ")";
        return complete(post(qp, NdkOperationType.INVALIDATE, "NdkInvalidate", d, flags, ctx -> qp.invalidate(ctx, mr, flags)));
    }

    /**
     * Pages of the peer's scratch buffer: the source of a peer write crosses the boundary of pages 0 and 1, the
     * sink of a peer read that of pages 1 and 2, so the peer's side of every access spans two frames of a
     * (usually scattered) buffer.
     */
    static final int SCRATCH_PAGES = 3;

    /** Creates the peer's scratch buffer ({@link #SCRATCH_PAGES} pages) and registers it: local write, remote read, READ_SINK where needed. */
    private Side peerScratch() {
        qps();
        if (peer.scratchMr != null) {
            return peer;
        }
        HostBuffer b = allocate(SCRATCH_PAGES);
        long va = 0x00007E0000000000L + ((long) buffers.size() << 24);
        Mdl mdl = b.mdl(va, 0, SCRATCH_PAGES * pageSize);
        int flags = NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_READ | (readSinkNotRequired() ? 0 : NdkMrFlags.RDMA_READ_SINK);
        inv.batch("session set-up (peer scratch MR)", () -> {
            NdkMr mr = createMr(peer, false);
            Outcome o = register(mr, mdl, (long) SCRATCH_PAGES * pageSize, flags);
            Refusals.discardIfRefused(o.status(), o.call());
            if (!o.succeeded()) {
                throw new KitSetupError(o.call() + " for the peer's scratch buffer", o.describe());
            }
            peer.scratchLocalToken = localToken(mr);
            peer.scratchRemoteToken = remoteToken(mr);
            peer.scratchMr = mr;
            return null;
        });
        peer.scratch = b;
        peer.scratchVa = va;
        return peer;
    }

    /** @return the largest access {@link #peerWrite} and {@link #peerRead} take, in bytes: PAGE_SIZE / 2 */
    public int maxAccess() {
        return pageSize / 2;
    }

    /**
     * The peer RDMA-writes {@code data} at {@code remoteAddress} with {@code remoteToken} (NdkWrite on the
     * peer's QP, from its registered scratch buffer), awaited. The kit does not declare any change of
     * target memory: the caller does ({@link HostBuffer#expectWrite}) when the rules allow the write.
     *
     * @param remoteAddress absolute remote address (unsigned)
     * @param remoteToken   the target MR's remote token
     * @param data          1 to {@link #maxAccess()} bytes
     * @return the access
     */
    public Access peerWrite(long remoteAddress, int remoteToken, byte[] data) {
        Side p = peerScratch();
        long sourceOffset = pageSize - data.length / 2;
        p.scratch.put(sourceOffset, data);
        NdkSge sge = new NdkSge(p.scratchVa + sourceOffset, data.length, p.scratchLocalToken);
        Supplier<String> d = () -> "NdkWrite(peer QP, Sgl=[" + sge + "], RemoteAddress=" + u64(remoteAddress) + ", RemoteToken="
                + u32(remoteToken) + ", Flags=0x00000000) of " + data.length + " byte(s) " + accessFields("write", remoteAddress, data.length);
        NdkQp qp = p.qp;
        WrOutcome o = complete(post(qp, NdkOperationType.WRITE, "NdkWrite", d, 0,
                ctx -> qp.write(ctx, new NdkSge[]{sge}, remoteAddress, remoteToken, 0)));
        return new Access(o, new byte[0]);
    }

    /**
     * The peer RDMA-reads {@code length} bytes at {@code remoteAddress} with {@code remoteToken} (NdkRead
     * on the peer's QP into its scratch buffer), awaited.
     *
     * @param remoteAddress absolute remote address (unsigned)
     * @param remoteToken   the target MR's remote token
     * @param length        1 to {@link #maxAccess()} bytes
     * @return the access, with the bytes read when it succeeded
     */
    public Access peerRead(long remoteAddress, int remoteToken, int length) {
        Side p = peerScratch();
        long sinkOffset = 2L * pageSize - length / 2;
        NdkSge sge = new NdkSge(p.scratchVa + sinkOffset, length, p.scratchLocalToken);
        Supplier<String> d = () -> "NdkRead(peer QP, Sgl=[" + sge + "], RemoteAddress=" + u64(remoteAddress) + ", RemoteToken="
                + u32(remoteToken) + ", Flags=0x00000000) of " + length + " byte(s) " + accessFields("read", remoteAddress, length);
        NdkQp qp = p.qp;
        WrOutcome o = complete(post(qp, NdkOperationType.READ, "NdkRead", d, 0,
                ctx -> qp.read(ctx, new NdkSge[]{sge}, remoteAddress, remoteToken, 0)));
        byte[] data = o.succeeded() ? p.scratch.read(sinkOffset, length) : new byte[0];
        p.scratch.acceptActual(sinkOffset, length);
        return new Access(o, data);
    }

    /**
     * The fields a report needs to draw a peer access (report.html reads {@code RemoteAddress=}, {@code AccessLength=}
     * and {@code Access=}; see {@code org.ndktck.tck.report.Counterexample}).
     *
     * @param direction     "read" or "write"
     * @param remoteAddress the access's absolute remote address (unsigned)
     * @param length        its length in bytes
     * @return {@code [Access=read, RemoteAddress=0x.., AccessLength=0x..]}
     */
    static String accessFields(String direction, long remoteAddress, int length) {
        return "[Access=" + direction + ", RemoteAddress=" + u64(remoteAddress) + ", AccessLength=0x"
                + Integer.toHexString(length).toUpperCase(java.util.Locale.ROOT) + "]";
    }

    /**
     * The target RDMA-reads {@code length} bytes of the peer's scratch buffer into a local SGE (NdkRead
     * on the target's QP), awaited: a local sink test (MR-FR-12). The bytes read start where
     * {@link #peerScratchBytes} reads them (across a page boundary of the scratch buffer).
     *
     * @param sink   the local SGE (an address in a target MR and its local token)
     * @param flags  NDK_OP_FLAG_* bits of the read
     * @return the access
     */
    public Access targetReadInto(NdkSge sink, int flags) {
        Side p = peerScratch();
        long remote = p.scratchVa + targetReadSource(sink.length());
        int token = p.scratchRemoteToken;
        Supplier<String> d = () -> "NdkRead(target QP, Sgl=[" + sink + "], RemoteAddress=" + u64(remote) + ", RemoteToken="
                + u32(token) + ", Flags=" + u32(flags) + ")";
        NdkQp qp = target.qp;
        WrOutcome o = complete(post(qp, NdkOperationType.READ, "NdkRead", d, flags,
                ctx -> qp.read(ctx, new NdkSge[]{sink}, remote, token, flags)));
        return new Access(o, new byte[0]);
    }

    /** @return the bytes of the peer's scratch buffer the target reads from with {@link #targetReadInto} */
    public byte[] peerScratchBytes(int length) {
        Side p = peerScratch();
        return p.scratch.read(targetReadSource(length), length);
    }

    /** @return the scratch offset a target read of {@code length} bytes starts at: across pages 0 and 1 when it fits */
    private long targetReadSource(int length) {
        long n = Integer.toUnsignedLong(length);
        return n <= pageSize ? pageSize - n / 2 : 0;
    }

    // ------------------------------------------------------------------ checks

    /**
     * Checks, now, every asynchronous call's callback accounting (GEN-CB-1 to GEN-CB-4, CL-1) and throws
     * the first breach. The GEN-CB-2 property calls it after a quiet period.
     */
    public void checkCallbacks() {
        for (AsyncOp<?> op : ops) {
            RuleViolation v = op.check();
            if (v != null) {
                throw v;
            }
        }
    }

    /**
     * {@link #checkCallbacks()} now and again once the quiet period ({@link Bounds#quietNanos()}) has
     * passed, without waiting for it: the second check is handed to the {@link QuietWatch}, which runs it at
     * the close of a later try of the property or when the property ends (issue 18: the quiet period costs
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
        QuietWatch.after(bounds.quietNanos(), () -> {
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

    /**
     * Checks the memory now: no guard frame touched and every painted byte as expected.
     *
     * @param ruleId the rule a breach breaks
     * @param what   what the kit did, for the message
     */
    public void checkMemory(String ruleId, String what) {
        checkMemory(ruleId, () -> what);
    }

    /**
     * As {@link #checkMemory(String, String)} with the description built only on a failure.
     *
     * @param ruleId the rule a breach breaks
     * @param what   what the kit did
     */
    public void checkMemory(String ruleId, Supplier<String> what) {
        List<HostMemory.GuardAccess> g = memory.guardAccesses();
        if (!g.isEmpty()) {
            throw Violations.of(ruleId, what.get(), "no access outside the buffers the kit handed over (guard frames untouched)",
                    g.size() + " guard-frame access(es), first: " + g.get(0));
        }
        for (HostBuffer b : buffers) {
            String diff = b.firstDifference();
            if (diff != null) {
                throw Violations.of(ruleId, what.get(), "no byte changed that the rules do not allow to change", diff);
            }
        }
    }

    /**
     * Tears the session down (deregister, close MRs, release LAMs, close QPs, CQs, PDs, the adapter, all
     * through the guarded invoker in one hand-off) and runs the end-of-try checks: outstanding completions,
     * callback accounting, late forbidden callbacks of earlier tries, provider thread deaths, and memory
     * (charged to the running property's first rule). Skips the tear-down when a call of this session
     * hung (the adapter is abandoned).
     *
     * @throws RuleViolation the first breach found (the others are suppressed into it)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Throwable> problems = new ArrayList<>();
        boolean hung = inv.hangs() != hangMark;
        if (!hung && adapter != null) {
            try {
                if (qpsReady) {
                    drain(target.cq);
                    drain(peer.cq);
                }
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
            try {
                for (AsyncOp<?> op : ops) {
                    NtStatus r = op.returnedStatus();
                    if (r != null && r.isPending() && op.callbacks() == 0 && !op.awaitFailed() && !failing) {
                        inv.stepWait(op.kind() + " completion", op::detail, bounds.completionNanos());
                        op.awaitPending(bounds);
                    }
                }
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
            try {
                inv.batch("session tear-down", () -> {
                    tearDown(problems);
                    return null;
                });
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
        }
        Set<AsyncOp<?>> mine = Collections.newSetFromMap(new IdentityHashMap<>());
        mine.addAll(ops);
        for (AsyncOp<?> op : ops) {
            RuleViolation v = op.check();
            if (v != null) {
                problems.add(v);
                break;
            }
        }
        RuleViolation late = LateCallbacks.takeForeign(mine);
        if (late != null) {
            problems.add(late);
        }
        RuleViolation quiet = QuietWatch.due();
        if (quiet != null) {
            problems.add(quiet);
        }
        for (ProviderThreads.Death death : ProviderThreads.since(deathMark)) {
            if (death.thread().startsWith("ndk-tck-caller-")) {
                continue;
            }
            problems.add(Violations.of("GEN-EXC-1", "a provider thread (" + death.thread() + ")",
                    "no exception from any provider code path, completions included", "the thread died with " + death.error(), death.error()));
            break;
        }
        // after a try that already failed, the kit never declared the changes its remaining steps would have
        // allowed (a write in flight, a receive), so a byte check would charge the property's rule for them
        if (!failing) {
            try {
                checkMemory(CurrentProperty.primaryRule("GEN-EXC-1"), "the try's calls (checked at the end of the try)");
            } catch (RuleViolation v) {
                problems.add(v);
            }
        }
        if (!problems.isEmpty()) {
            Throwable first = problems.get(0);
            for (int i = 1; i < problems.size(); i++) {
                first.addSuppressed(problems.get(i));
            }
            if (first instanceof RuntimeException re) {
                throw re;
            }
            throw (Error) first;
        }
    }

    private void tearDown(List<Throwable> problems) {
        for (MrState s : mrs) {
            if (s.closed) {
                continue;
            }
            try {
                if (s.registered) {
                    // a deregistration refused for lack of resources (MR-DEREG-2 "other status codes") is made again
                    for (int i = 0; i < Refusals.SETUP_ATTEMPTS && s.registered; i++) {
                        if (!Refusals.isAllowedRefusal(deregister(s.mr).status())) {
                            break;
                        }
                    }
                }
                closeMr(s.mr);
            } catch (RuntimeException | Error e) {
                problems.add(e);
                if (inv.hangs() != hangMark) {
                    return;
                }
            }
        }
        Set<NdkObject> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (NdkObject o : orphans) {
            if (!seen.add(o)) {
                continue;
            }
            try {
                if (o instanceof NdkMr m && state(m) == null) {
                    closeObject("NdkCloseMr", () -> "NdkCloseMr() of an MR the provider handed over irregularly", op -> m.close(op.closeCompletion(), op.context()));
                }
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
        }
        List<NdkLogicalAddressMapping> toRelease;
        synchronized (lams) {
            toRelease = new ArrayList<>(lams);
        }
        for (NdkLogicalAddressMapping lam : toRelease) {
            try {
                inv.run("NdkReleaseLam", () -> "NdkReleaseLam()", () -> adapter.releaseLam(lam));
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
        }
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
                if (inv.hangs() != hangMark) {
                    return;
                }
            }
        }
        try {
            inv.run("NdkCloseAdapter", () -> "NdkCloseAdapter()", adapter::close);
        } catch (RuntimeException | Error e) {
            problems.add(e);
        }
    }

    /** @return every rule ID the session can raise in passing, for documentation and tests */
    public static Set<String> rulesCheckedInPassing() {
        return new LinkedHashSet<>(List.of("GEN-TIME-1", "GEN-EXC-1", "GEN-CB-1", "GEN-CB-2", "GEN-CB-3", "GEN-CB-4", "GEN-LIFE-1",
                "CL-1", "CL-2", "MR-REG-9", "MR-DEREG-2", "MR-FRI-8", "MR-CREATE-2", "MR-FRI-2", "MR-REG-10", "OBJ-1",
                "LAM-4", "LAM-7", "CQ-1", "CQ-2", "CQ-3", "DEF-2", "RW-5", "INV-3", "MR-FR-8"));
    }
}
