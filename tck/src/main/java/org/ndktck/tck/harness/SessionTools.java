package org.ndktck.tck.harness;

import net.jqwik.api.Assume;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * More of what a property can do in one {@link NdkSession}, for the properties of deregistration,
 * tokens, LAMs, SGEs, work requests, CQs, DEFER and close (catalog sections MR-DEREG to CL):
 * <ul>
 *   <li>work requests of every kind (Send, SendAndInvalidate, Receive, Read, Write, FastRegister,
 *       Invalidate) on any QP with any SGEs, matched to their CQ entries by the session (CQ-2, DEF-2);</li>
 *   <li>asynchronous calls that are started but not awaited ({@link #startRegister}, {@link #startClose}),
 *       so a property can act while a request is pending (CL-4), with the session's callback accounting
 *       (GEN-CB-1, GEN-CB-2, CL-1);</li>
 *   <li>objects the property owns (PDs, MRs, QPs) and closes itself; what it leaves open is closed by
 *       {@link #close()}, children before parents;</li>
 *   <li>NdkBuildLam without the session's success requirement, and LAMs the property releases itself
 *       (LAM-REL-1);</li>
 *   <li>registered buffers on either side ({@link #registered}) and fast-registered regions on the
 *       target ({@link #fastRegistered}).</li>
 * </ul>
 * Open it after the session and close it before: {@code try (NdkSession s = NdkSession.open();
 * SessionTools t = SessionTools.of(s)) { ... }}.
 *
 * <p>Values: addresses and lengths are unsigned 64-bit values in longs; flags, counts, FBO and tokens
 * ULONG / UINT32 values in ints; messages print them in hex.
 */
public final class SessionTools implements AutoCloseable {

    /**
     * A QP and where its completions go: the CQ its requests complete on and the QPContext its entries carry.
     *
     * @param qp        the QP
     * @param cq        the CQ of both its queues
     * @param qpContext the QPContext given at NdkCreateQp
     * @param name      for messages ("target", "peer", "unconnected", or the property's name for it)
     * @param session   true for a QP the session owns (its requests are posted through the session)
     */
    public record QpRef(NdkQp qp, NdkCq cq, NdkCq receiveCq, Object qpContext, String name, boolean session) {
        /** @return the CQ an entry of this type belongs on: the receive CQ for receives, the initiator CQ otherwise */
        public NdkCq cqFor(NdkOperationType type) {
            return NdkSession.isReceive(type) ? receiveCq : cq;
        }
    }

    /**
     * A registered buffer: {@code pages} pages of a guarded {@link HostBuffer}, one MDL at {@code va}, an
     * MR registered over [{@code va}, {@code va + length}) with {@code flags}.
     *
     * @param side        target or peer
     * @param buffer      the buffer; region byte k is buffer byte (va mod PAGE_SIZE) + k
     * @param mdl         the MDL
     * @param va          MmGetMdlVirtualAddress, the region's base (unsigned)
     * @param length      Length in bytes
     * @param flags       NDK_MR_FLAG_* bits
     * @param mr          the MR (the session deregisters and closes it)
     * @param localToken  NdkGetLocalTokenFromMr
     * @param remoteToken NdkGetRemoteTokenFromMr
     */
    public record Registered(NdkSession.Side side, HostBuffer buffer, Mdl mdl, long va, long length, int flags, NdkMr mr,
                             int localToken, int remoteToken) {
        /** @return buffer offset of region byte 0 */
        public long bufferOffset() {
            return va & (buffer.size() / buffer.pages() - 1);
        }

        /**
         * @param k region offset
         * @param n bytes
         * @return an SGE {va + k, n, local token}
         */
        public NdkSge sge(long k, int n) {
            return new NdkSge(va + k, n, localToken);
        }

        /** @return the region as a peer sees it */
        public Region region() {
            return new Region(buffer, bufferOffset(), va, length, remoteToken);
        }
    }

    /**
     * A fast-registered region of the target: a buffer, its LAM, an initialized MR and the registration.
     *
     * @param buffer   the buffer; region byte k is buffer byte fbo + k
     * @param mdl      the MDL the LAM was built over
     * @param lam      the LAM (released by the session)
     * @param mr       the MR (closed by the session)
     * @param pages    AdapterPageCount
     * @param fbo      FBO
     * @param length   Length
     * @param base     BaseVirtualAddress
     * @param flags    NDK_OP_FLAG_* bits of the fast registration
     * @param token    the remote token read after NdkFastRegister returned
     * @param local    the local token read after it completed
     */
    public record FastRegion(HostBuffer buffer, Mdl mdl, NdkSession.Lam lam, NdkMr mr, int pages, int fbo, long length,
                             long base, int flags, int token, int local) {
        /** @return the region as a peer sees it */
        public Region region() {
            return new Region(buffer, Integer.toUnsignedLong(fbo), base, length, token);
        }

        /** @return an SGE {base + k, n, local token} */
        public NdkSge sge(long k, int n) {
            return new NdkSge(base + k, n, local);
        }
    }

    private final NdkSession s;
    private final Invoker inv;
    private final Map<Object, Boolean> owned = new IdentityHashMap<>();
    private final Deque<NdkObject> ownedOrder = new ArrayDeque<>();
    private final List<NdkLogicalAddressMapping> lams = new ArrayList<>();
    private final int hangMark;
    private long nextVa;
    private boolean closed;

    private SessionTools(NdkSession s) {
        this.s = s;
        this.inv = s.invoker();
        this.hangMark = inv.hangs();
        this.nextVa = 0x0000_2000_0000_0000L;
    }

    /**
     * @param s an open session
     * @return tools over it; close them before the session
     */
    public static SessionTools of(NdkSession s) {
        return new SessionTools(s);
    }

    /** @return the session */
    public NdkSession session() {
        return s;
    }

    /** @return a fresh, page-aligned virtual address with 2^32 bytes of room, distinct in this session */
    public long freshVa() {
        long va = nextVa;
        nextVa += 1L << 32;
        return va;
    }

    /**
     * @param b bytes
     * @return each byte complemented: data that differs from {@code b} in every byte
     */
    public static byte[] complement(byte[] b) {
        return Probes.complement(b);
    }

    // ------------------------------------------------------------------ QPs

    /** @return the target's connected QP (created on first use) */
    public QpRef target() {
        s.qps();
        NdkSession.Side t = s.target();
        return new QpRef(t.qp(), t.cq(), t.receiveCq(), t.qpContext(), "target", true);
    }

    /** @return the peer's connected QP */
    public QpRef peer() {
        s.qps();
        NdkSession.Side p = s.peer();
        return new QpRef(p.qp(), p.cq(), p.receiveCq(), p.qpContext(), "peer", true);
    }

    /** @return a QP of the target PD that is never connected (its requests would complete on the target's CQs) */
    public QpRef unconnected() {
        NdkQp qp = s.unconnectedQp();
        return new QpRef(qp, s.target().cq(), s.target().receiveCq(), null, "unconnected", true);
    }

    // ------------------------------------------------------------------ work requests

    /**
     * Posts a work request and records it with the session (its CQ entry is matched and checked when a CQ
     * is drained). The post must return STATUS_SUCCESS or an error: work requests never pend.
     *
     * @param q      the QP
     * @param type   the operation type the CQ entry must carry (RECEIVE_AND_INVALIDATE for a receive that
     *               will meet a SendAndInvalidate)
     * @param kind   the NDK function
     * @param detail the call in hex
     * @param flags  NDK_OP_FLAG_* bits (SILENT_SUCCESS decides whether an entry must follow success)
     * @param call   makes the call with the request context
     * @return the posted request
     */
    public WorkRequest post(QpRef q, NdkOperationType type, String kind, Supplier<String> detail, int flags,
                            Function<Object, NtStatus> call) {
        if (q.session() && (type != NdkOperationType.RECEIVE_AND_INVALIDATE || q.qpContext() == null)) {
            return s.post(q.qp(), type, kind, detail, flags, call, onRefusal);
        }
        NdkCq own = q.cqFor(type);
        WorkRequest wr = new WorkRequest(type, kind, detail, own, own == q.cq() ? q.receiveCq() : q.cq(), q.qpContext(),
                (flags & NdkOpFlags.SILENT_SUCCESS) != 0);
        s.posted.put(wr.context, wr);
        NtStatus r = inv.call(kind, detail, () -> call.apply(wr.context));
        if (r == null) {
            throw Violations.of(NdkSession.wrRule(type), detail.get(), "an NTSTATUS", "the provider returned null");
        }
        wr.returned = r;
        if (r.isPending()) {
            throw Violations.of(NdkSession.wrRule(type), detail.get(),
                    "STATUS_SUCCESS (then a CQ entry) or an error: work requests complete through the CQ, not a callback",
                    "returned STATUS_PENDING");
        }
        // as NdkSession.post: a post refused for lack of resources ("other status codes") judges nothing
        if (onRefusal != Refusals.OnRefusal.KEEP) {
            Refusals.discardIfRefused(r, null);
        }
        return wr;
    }

    /** What this object's posts do with a post refused inline for lack of resources; the try is discarded by default. */
    private Refusals.OnRefusal onRefusal = Refusals.OnRefusal.DISCARD;

    /**
     * Sets what the posts made through this object ({@link #post} and the calls built on it) do when the
     * provider refuses one inline for lack of resources: {@link Refusals.OnRefusal#KEEP} returns the refused
     * request (its {@code returned()} is STATUS_INSUFFICIENT_RESOURCES) for a property that judges only the
     * requests accepted. A post on another QP than the session's is never posted again
     * ({@link Refusals.OnRefusal#RETRY} discards there as DISCARD does).
     *
     * @param what DISCARD (the default), RETRY or KEEP
     */
    public void onRefusedPost(Refusals.OnRefusal what) {
        this.onRefusal = java.util.Objects.requireNonNull(what, "what");
    }

    private static String sgl(NdkSge[] sgl) {
        return Arrays.toString(sgl);
    }

    /** NdkSend on {@code q}. */
    public WorkRequest send(QpRef q, NdkSge[] sgl, int flags) {
        Supplier<String> d = () -> "NdkSend(" + q.name() + " QP, Sgl=" + sgl(sgl) + ", Flags=" + u32(flags) + ")";
        return post(q, NdkOperationType.SEND, "NdkSend", d, flags, ctx -> q.qp().send(ctx, sgl, flags));
    }

    /** NdkSendAndInvalidate on {@code q}. */
    public WorkRequest sendAndInvalidate(QpRef q, NdkSge[] sgl, int remoteToken, int flags) {
        Supplier<String> d = () -> "NdkSendAndInvalidate(" + q.name() + " QP, Sgl=" + sgl(sgl) + ", RemoteToken=" + u32(remoteToken)
                + ", Flags=" + u32(flags) + ")";
        return post(q, NdkOperationType.SEND, "NdkSendAndInvalidate", d, flags, ctx -> q.qp().sendAndInvalidate(ctx, sgl, remoteToken, flags));
    }

    /**
     * NdkReceive on {@code q}.
     *
     * @param type RECEIVE, or RECEIVE_AND_INVALIDATE when the matching send is a SendAndInvalidate
     */
    public WorkRequest receive(QpRef q, NdkSge[] sgl, NdkOperationType type) {
        Supplier<String> d = () -> "NdkReceive(" + q.name() + " QP, Sgl=" + sgl(sgl) + ")";
        return post(q, type, "NdkReceive", d, 0, ctx -> q.qp().receive(ctx, sgl));
    }

    /** NdkRead on {@code q}. */
    public WorkRequest read(QpRef q, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        Supplier<String> d = () -> "NdkRead(" + q.name() + " QP, Sgl=" + sgl(sgl) + ", RemoteAddress=" + u64(remoteAddress)
                + ", RemoteToken=" + u32(remoteToken) + ", Flags=" + u32(flags) + ")";
        return post(q, NdkOperationType.READ, "NdkRead", d, flags, ctx -> q.qp().read(ctx, sgl, remoteAddress, remoteToken, flags));
    }

    /** NdkWrite on {@code q}. */
    public WorkRequest write(QpRef q, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        Supplier<String> d = () -> "NdkWrite(" + q.name() + " QP, Sgl=" + sgl(sgl) + ", RemoteAddress=" + u64(remoteAddress)
                + ", RemoteToken=" + u32(remoteToken) + ", Flags=" + u32(flags) + ")";
        return post(q, NdkOperationType.WRITE, "NdkWrite", d, flags, ctx -> q.qp().write(ctx, sgl, remoteAddress, remoteToken, flags));
    }

    /** NdkFastRegister on {@code q}. */
    public WorkRequest fastRegister(QpRef q, NdkMr mr, int pageCount, long[] pages, int fbo, long length, long base, int flags) {
        Supplier<String> d = () -> "NdkFastRegister(" + q.name() + " QP, AdapterPageCount=" + u32(pageCount) + ", AdapterPageArray="
                + Hex.pages(pages, pageCount) + ", FBO=" + u32(fbo) + ", Length=" + u64(length) + ", BaseVirtualAddress=" + u64(base)
                + ", Flags=" + u32(flags) + ")";
        return post(q, NdkOperationType.FAST_REGISTER, "NdkFastRegister", d, flags,
                ctx -> q.qp().fastRegister(ctx, mr, pageCount, pages, fbo, length, base, flags));
    }

    /** NdkInvalidate on {@code q}. */
    public WorkRequest invalidate(QpRef q, NdkMr mr, int flags) {
        Supplier<String> d = () -> "NdkInvalidate(" + q.name() + " QP, Flags=" + u32(flags) + ")";
        return post(q, NdkOperationType.INVALIDATE, "NdkInvalidate", d, flags, ctx -> q.qp().invalidate(ctx, mr, flags));
    }

    /**
     * Awaits a request's end (its CQ entry after STATUS_SUCCESS unless it is silent).
     *
     * @param wr a posted request
     * @return the outcome
     */
    public NdkSession.WrOutcome complete(WorkRequest wr) {
        return s.complete(wr);
    }

    /**
     * Awaits the CQ entry of a request even when SILENT_SUCCESS was set (a silent request that fails still
     * produces its entry, RW-5).
     *
     * @param wr a request whose post returned STATUS_SUCCESS
     * @return the entry's status
     */
    public NtStatus awaitEntry(WorkRequest wr) {
        s.awaitEntry(wr);
        return wr.entry.status();
    }

    /**
     * Polls a request's CQ until its entry arrives (even for a silent request), charging a missing entry
     * to {@code rule}.
     *
     * @param wr       a request whose post returned STATUS_SUCCESS
     * @param rule     the rule a missing entry breaks
     * @param expected what the rule requires, for the message
     * @return the entry's status
     */
    public NtStatus awaitEntry(WorkRequest wr, String rule, String expected) {
        long start = System.nanoTime();
        int round = 0;
        while (wr.entry == null) {
            s.drainFor(wr);
            if (wr.entry != null) {
                Bounds.completionArrived(start);
                break;
            }
            if (s.bounds().completionExpired(start)) {
                throw Violations.of(rule, wr.detail(), expected + " within " + s.bounds().describeCompletionBound(),
                        "no CQ entry with RequestContext " + wr.context);
            }
            round++;
            if (round < 64) {
                Thread.yield();
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(Math.min(1_000_000L, 10_000L * (round - 63)));
            }
        }
        return wr.entry.status();
    }

    /**
     * NdkGetCqResults, raw (no checks): the property judges the count and hands the entries to
     * {@link #accept(NdkCq, NdkResult)}.
     *
     * @param cq      the CQ
     * @param results the array to fill
     * @return what the provider returned
     */
    public int getCqResults(NdkCq cq, NdkResult[] results) {
        return inv.call("NdkGetCqResults", () -> "NdkGetCqResults(nResults=" + results.length + ")", () -> cq.getCqResults(results));
    }

    /** NdkGetCqResultsEx, raw (see {@link #getCqResults}). */
    public int getCqResultsEx(NdkCq cq, NdkResultEx[] results) {
        return inv.call("NdkGetCqResultsEx", () -> "NdkGetCqResultsEx(nResults=" + results.length + ")", () -> cq.getCqResultsEx(results));
    }

    /**
     * Hands an entry the property removed itself to the session, which matches it to its request and
     * checks it (CQ-2, DEF-2, the operation type).
     *
     * @param cq the CQ it came from
     * @param e  the entry
     */
    public void accept(NdkCq cq, NdkResultEx e) {
        s.accept(cq, e);
    }

    /** As {@link #accept(NdkCq, NdkResultEx)} for an entry without the operation type. */
    public void accept(NdkCq cq, NdkResult e) {
        s.accept(cq, e == null ? null : new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(), null, 0));
    }

    // ------------------------------------------------------------------ memory

    /**
     * Allocates a buffer on a side, describes it with one MDL at a fresh VA plus {@code offset}, and
     * registers it (the registration must succeed: MR-REG-10).
     *
     * @param side   target or peer (the peer's PD exists after {@link NdkSession#qps()})
     * @param pages  data pages
     * @param offset byte offset of the region in the first page, 0 ≤ offset &lt; PAGE_SIZE
     * @param length Length, 1 ≤ length ≤ pages × PAGE_SIZE − offset
     * @param flags  NDK_MR_FLAG_* bits
     * @return the registered buffer
     */
    public Registered registered(NdkSession.Side side, int pages, int offset, long length, int flags) {
        HostBuffer b = s.allocate(pages);
        long va = freshVa() + offset;
        Mdl mdl = b.mdl(va, 0, (int) length);
        return registerOver(side, b, mdl, length, flags);
    }

    /**
     * Registers an MDL the caller built over a buffer (for example one whose VA is unrelated to its frames).
     *
     * @return the registered buffer
     */
    public Registered registerOver(NdkSession.Side side, HostBuffer b, Mdl mdl, long length, int flags) {
        NdkMr mr = s.createMr(side, false);
        s.registerValid(mr, mdl, length, flags);
        int local = s.localToken(mr);
        int remote = s.remoteToken(mr);
        return new Registered(side, b, mdl, mdl.virtualAddress(), length, flags, mr, local, remote);
    }

    /** @return NDK_MR_FLAG_RDMA_READ_SINK when the adapter needs it on read sinks, else 0 (MR-REG-6, AMB-19) */
    public int readSinkFlag() {
        return s.readSinkNotRequired() ? 0 : NdkMrFlags.RDMA_READ_SINK;
    }

    /** @return NDK_OP_FLAG_RDMA_READ_SINK when the adapter needs it on read sinks, else 0 */
    public int readSinkOpFlag() {
        return s.readSinkNotRequired() ? 0 : NdkOpFlags.RDMA_READ_SINK;
    }

    /**
     * Fast-registers a target buffer (pages, FBO, Length pages × PAGE_SIZE − FBO) on the target's QP; every
     * step must succeed.
     *
     * @param pages        pages of the buffer, its LAM, the initialization and the request
     * @param fbo          FBO, 0 ≤ fbo &lt; PAGE_SIZE
     * @param flags        NDK_OP_FLAG_* bits of the request
     * @param remoteAccess RemoteAccess of the initialization
     * @return the region
     */
    public FastRegion fastRegistered(int pages, int fbo, int flags, boolean remoteAccess) {
        s.qps();
        int p = s.pageSize();
        HostBuffer b = s.allocate(pages);
        long length = (long) pages * p - fbo;
        Mdl mdl = b.mdl(freshVa() + fbo, 0, (int) length);
        NdkSession.Lam lam = s.buildLam(mdl, length);
        NdkMr mr = s.fastRegisterMr(pages, remoteAccess);
        long base = freshVa() + (1L << 20) + fbo;
        return fastRegisterAgain(b, mdl, lam, mr, pages, fbo, length, base, flags);
    }

    /**
     * Fast-registers an MR (initialized, not fast-registered now) over a LAM again; must succeed.
     *
     * @return the new region
     */
    public FastRegion fastRegisterAgain(HostBuffer b, Mdl mdl, NdkSession.Lam lam, NdkMr mr, int pages, int fbo, long length,
                                        long base, int flags) {
        NdkSession.WrOutcome o = s.fastRegister(s.target().qp(), mr, pages, lam.pages(), fbo, length, base, flags);
        int token = s.remoteToken(mr);
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS for a valid fast registration within the initialized page count",
                    o.describe());
        }
        int local = s.localToken(mr);
        return new FastRegion(b, mdl, lam, mr, pages, fbo, length, base, flags, token, local);
    }

    // ------------------------------------------------------------------ asynchronous calls, not awaited

    /**
     * Starts NdkRegisterMr and returns at once (not awaited): the op has its returned status.
     *
     * @param mr     a normal MR
     * @param mdl    the chain
     * @param length Length (unsigned)
     * @param flags  NDK_MR_FLAG_* bits
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startRegister(NdkMr mr, Mdl mdl, long length, int flags) {
        return startRegister(mr, mdl, length, flags, null);
    }

    /**
     * As {@link #startRegister(NdkMr, Mdl, long, int)}, running kit code inside the request's completion
     * callback (on the provider's thread, before the callback returns).
     *
     * @param inside kit code to run inside the completion callback, or null
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startRegister(NdkMr mr, Mdl mdl, long length, int flags, java.util.function.Consumer<AsyncOp<NdkMr>> inside) {
        Supplier<String> d = () -> "NdkRegisterMr(Mdl=" + mdl + ", Length=" + u64(length) + ", Flags=" + u32(flags) + ")";
        AsyncOp<NdkMr> op = s.newOp(AsyncOp.Flavor.REQUEST, "NdkRegisterMr", d);
        if (inside != null) {
            op.runInsideCallback(inside);
        }
        NtStatus r = inv.call("NdkRegisterMr", d, () -> mr.register(mdl, length, flags, op.requestCompletion(), op.context()));
        op.returned(r == null ? NtStatus.of(-1) : r);
        return op;
    }

    /**
     * Starts NdkDeregisterMr and returns at once (not awaited): the op has its returned status.
     *
     * @param mr a registered normal MR
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startDeregister(NdkMr mr) {
        Supplier<String> d = () -> "NdkDeregisterMr()";
        AsyncOp<NdkMr> op = s.newOp(AsyncOp.Flavor.REQUEST, "NdkDeregisterMr", d);
        NtStatus r = inv.call("NdkDeregisterMr", d, () -> mr.deregister(op.requestCompletion(), op.context()));
        op.returned(r == null ? NtStatus.of(-1) : r);
        return op;
    }

    /**
     * Starts NdkInitializeFastRegisterMr and returns at once.
     *
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startInitialize(NdkMr mr, int adapterPageCount, boolean remoteAccess) {
        return startInitialize(mr, adapterPageCount, remoteAccess, null);
    }

    /**
     * As {@link #startInitialize(NdkMr, int, boolean)}, running kit code inside the request's completion
     * callback (on the provider's thread, before the callback returns).
     *
     * @param inside kit code to run inside the completion callback, or null
     * @return the op; finish it with {@link #finish}
     */
    public AsyncOp<NdkMr> startInitialize(NdkMr mr, int adapterPageCount, boolean remoteAccess,
                                          java.util.function.Consumer<AsyncOp<NdkMr>> inside) {
        Supplier<String> d = () -> "NdkInitializeFastRegisterMr(AdapterPageCount=" + u32(adapterPageCount) + ", RemoteAccess="
                + (remoteAccess ? "TRUE" : "FALSE") + ")";
        AsyncOp<NdkMr> op = s.newOp(AsyncOp.Flavor.REQUEST, "NdkInitializeFastRegisterMr", d);
        if (inside != null) {
            op.runInsideCallback(inside);
        }
        NtStatus r = inv.call("NdkInitializeFastRegisterMr", d, () -> mr.initializeFastRegister(adapterPageCount, remoteAccess,
                op.requestCompletion(), op.context()));
        op.returned(r == null ? NtStatus.of(-1) : r);
        return op;
    }

    /**
     * Awaits a started request to its end (a completion after STATUS_PENDING) and checks its status table.
     *
     * @param op        a started op
     * @param tableRule the status-table rule of the call (MR-REG-9, MR-FRI-8, ...)
     * @param allowed   the table, for messages
     * @return the outcome
     */
    public NdkSession.Outcome finish(AsyncOp<?> op, String tableRule, String allowed) {
        return s.finish(op, op.returnedStatus(), tableRule, allowed);
    }

    /**
     * Starts a close (NdkCloseMr/Pd/Qp/Cq) and returns at once; CL-2 (SUCCESS or PENDING only) is checked now.
     *
     * @param object an object the property owns (or a session MR the property takes over)
     * @param inside kit code to run inside the close callback, or null
     * @return the op
     */
    public AsyncOp<NdkMr> startClose(NdkObject object, java.util.function.Consumer<AsyncOp<NdkMr>> inside) {
        return startClose(object, inside, null);
    }

    /**
     * As {@link #startClose(NdkObject, java.util.function.Consumer)}, handing the op to {@code before} just
     * before the provider is called (so other code can watch a close whose callback may come before the
     * call returns).
     *
     * @param object an object the property owns
     * @param inside kit code to run inside the close callback, or null
     * @param before receives the op before the call, or null
     * @return the op
     */
    public AsyncOp<NdkMr> startClose(NdkObject object, java.util.function.Consumer<AsyncOp<NdkMr>> inside,
                                     java.util.function.Consumer<AsyncOp<NdkMr>> before) {
        String kind = closeKind(object);
        Supplier<String> d = () -> kind + "()";
        AsyncOp<NdkMr> op = s.newOp(AsyncOp.Flavor.CLOSE, kind, d);
        if (inside != null) {
            op.runInsideCallback(inside);
        }
        if (before != null) {
            before.accept(op);
        }
        if (owned.containsKey(object)) {
            owned.put(object, Boolean.TRUE);
        }
        NtStatus r = inv.call(kind, d, () -> closeCall(object, op));
        op.returned(r == null ? NtStatus.of(-1) : r);
        if (r == null || !(r.equals(NtStatus.STATUS_SUCCESS) || r.isPending())) {
            throw Violations.of("CL-2", d.get(), "STATUS_SUCCESS or STATUS_PENDING (a close never fails)", "returned " + r);
        }
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
            inv.stepWait(op.kind() + " completion", op::detail, s.bounds().completionNanos());
            op.awaitPending(s.bounds());
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
        AsyncOp<NdkMr> op = startClose(object, null);
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

    // ------------------------------------------------------------------ owned objects

    private <T extends NdkObject> T own(T o) {
        owned.put(o, Boolean.FALSE);
        ownedOrder.push(o);
        return o;
    }

    private <T extends NdkObject> T required(NdkSession.Created<T> c) {
        Refusals.discardIfRefused(c.status(), c.call());
        if (!c.succeeded()) {
            throw new KitSetupError(c.call(), c.describe());
        }
        return own(c.object());
    }

    /** @return a new PD of the adapter, owned by the property */
    public NdkPd createPd() {
        return required(s.create("NdkCreatePd", () -> "NdkCreatePd()", op -> s.adapter().createPd(op.createCompletion(), op.context())));
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
        NdkSession.Created<NdkMr> c = createMrCall(pd, fastRegister);
        return Refusals.isAllowedRefusal(c.status()) ? null : required(c);
    }

    private NdkSession.Created<NdkMr> createMrCall(NdkPd pd, boolean fastRegister) {
        NdkSession.Created<NdkMr> c = s.create("NdkCreateMr", () -> "NdkCreateMr(FastRegister=" + (fastRegister ? "TRUE" : "FALSE") + ")",
                op -> pd.createMr(fastRegister, op.createCompletion(), op.context()));
        if (c.succeeded()) {
            s.checkMrHeader(c.call(), c.object());
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
        return required(s.create("NdkCreateCq", () -> "NdkCreateCq(QueueDepth=" + u32(depth) + ")",
                op -> s.adapter().createCq(depth, op.createCompletion(), op.context())));
    }

    /**
     * NdkCreateQp on any PD, owned by the property.
     *
     * @param pd             the PD
     * @param cq             the CQ of both queues (a session CQ, so the session drains it)
     * @param qpContext      its QPContext
     * @param name           for messages
     * @param inlineDataSize InlineDataSize in bytes
     * @return the QP
     */
    public QpRef createQp(NdkPd pd, NdkCq cq, Object qpContext, String name, int inlineDataSize) {
        return createQp(pd, cq, qpContext, name, inlineDataSize, 2);
    }

    /**
     * As {@link #createQp(NdkPd, NdkCq, Object, String, int)} with up to {@code wantSge} SGEs a request.
     *
     * @param wantSge MaxInitiatorRequestSge and MaxReceiveRequestSge wanted; capped by the adapter's limits, at least 1
     * @return the QP
     */
    public QpRef createQp(NdkPd pd, NdkCq cq, Object qpContext, String name, int inlineDataSize, int wantSge) {
        int depth = 16;
        int sge = (int) Math.max(1, Math.min(wantSge, Integer.toUnsignedLong(s.info().maxInitiatorRequestSge())));
        int rsge = (int) Math.max(1, Math.min(wantSge, Integer.toUnsignedLong(s.info().maxReceiveRequestSge())));
        NdkQp qp = required(s.create("NdkCreateQp", () -> "NdkCreateQp(InlineDataSize=" + u32(inlineDataSize) + ") for " + name,
                op -> pd.createQp(cq, cq, qpContext, depth, depth, rsge, sge, inlineDataSize, op.createCompletion(), op.context())));
        return new QpRef(qp, cq, cq, qpContext, name, false);
    }

    /**
     * Two QPs the property owns, one on the target PD and one on the peer PD, on the sides' CQs, connected.
     *
     * @param inlineDataSize InlineDataSize of both
     * @return {target-side QP, peer-side QP}
     */
    public QpRef[] connectedPair(int inlineDataSize) {
        return connectedPair(inlineDataSize, 2);
    }

    /**
     * As {@link #connectedPair(int)} with QPs of up to {@code wantSge} SGEs a request (capped by the adapter).
     *
     * @return {target-side QP, peer-side QP}
     */
    public QpRef[] connectedPair(int inlineDataSize, int wantSge) {
        s.qps();
        QpRef a = createQp(s.target().pd(), s.target().cq(), new RequestContext("QPContext of an extra target QP"), "extra target",
                inlineDataSize, wantSge);
        QpRef b = createQp(s.peer().pd(), s.peer().cq(), new RequestContext("QPContext of an extra peer QP"), "extra peer",
                inlineDataSize, wantSge);
        NtStatus st = inv.call("connectLoopback", () -> "connectLoopback(extra target QP, extra peer QP)", () -> s.adapter().connectLoopback(a.qp(), b.qp()));
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
    public NdkSession.Outcome buildLam(Mdl mdl, long length, NdkLogicalAddressMapping lam) {
        int offered = lam.lamSize();
        Supplier<String> d = () -> "NdkBuildLam(Mdl=" + mdl + ", Length=" + u64(length) + ", *pLAMSize=" + u32(offered) + ")";
        AsyncOp<NdkMr> op = s.newOp(AsyncOp.Flavor.REQUEST, "NdkBuildLam", d);
        NtStatus r = inv.call("NdkBuildLam", d, () -> s.adapter().buildLam(mdl, length, op.requestCompletion(), op.context(), lam));
        NdkSession.Outcome o = s.finish(op, r, "LAM-7",
                "STATUS_SUCCESS, STATUS_PENDING, STATUS_BUFFER_TOO_SMALL, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another error code");
        if (o.succeeded()) {
            lams.add(lam);
        }
        return o;
    }

    /**
     * NdkReleaseLam of a mapping built with {@link #buildLam}.
     *
     * @param lam the mapping
     */
    public void releaseLam(NdkLogicalAddressMapping lam) {
        lams.remove(lam);
        inv.run("NdkReleaseLam", () -> "NdkReleaseLam()", () -> s.adapter().releaseLam(lam));
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
        if (inv.hangs() != hangMark || s.adapter() == null) {
            return;
        }
        RuntimeException first = null;
        for (NdkLogicalAddressMapping lam : new ArrayList<>(lams)) {
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

    /** Marks an object the property closed by other means (so {@link #close()} leaves it alone). */
    public void forget(NdkObject o) {
        owned.put(o, Boolean.TRUE);
    }

}
