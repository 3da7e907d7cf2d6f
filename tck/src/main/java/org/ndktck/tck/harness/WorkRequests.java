package org.ndktck.tck.harness;

import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * Posting work requests (NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate,
 * NdkReceive) on the session's QPs or on QPs a property owns: each post is recorded with {@link Completions}
 * so its CQ entry is matched, and must return STATUS_SUCCESS or an error, never STATUS_PENDING (MR-FR-8,
 * INV-3, RW-5). A post refused for lack of resources ("other status codes") judges nothing.
 */
public final class WorkRequests {
    private final Invoker inv;
    private final AdapterObjects objects;
    private final Completions completions;
    /** What a post refused inline for lack of resources does: DISCARD by default. */
    private final Refusals.OnRefusal onRefusal;

    WorkRequests(Invoker inv, AdapterObjects objects, Completions completions) {
        this(inv, objects, completions, Refusals.OnRefusal.DISCARD);
    }

    private WorkRequests(Invoker inv, AdapterObjects objects, Completions completions, Refusals.OnRefusal onRefusal) {
        this.inv = inv;
        this.objects = objects;
        this.completions = completions;
        this.onRefusal = onRefusal;
    }

    /**
     * The same posting, with another answer to a post the provider refuses inline for lack of resources:
     * {@link Refusals.OnRefusal#KEEP} returns the refused request (its {@code returned} is
     * STATUS_INSUFFICIENT_RESOURCES) for a property that judges only the requests accepted;
     * {@link Refusals.OnRefusal#RETRY} posts it again on a session QP (on a QP a property owns it discards, as DISCARD).
     *
     * @param what DISCARD, RETRY or KEEP
     * @return posting with that answer
     */
    public WorkRequests withRefusals(Refusals.OnRefusal what) {
        return new WorkRequests(inv, objects, completions, java.util.Objects.requireNonNull(what, "what"));
    }

    /**
     * Posts a work request on a session QP (target, peer or the unconnected QP).
     *
     * @param qp     the QP
     * @param type   the operation type the CQ entry must carry
     * @param kind   the NDK function
     * @param detail the call in hex
     * @param flags  NDK_OP_FLAG_* bits (SILENT_SUCCESS decides whether an entry must follow success)
     * @param call   makes the call with the request context
     * @return the posted request
     */
    WorkRequest post(NdkQp qp, NdkOperationType type, String kind, Supplier<String> detail, int flags,
                     Function<Object, NtStatus> call) {
        return post(qp, type, kind, detail, flags, call, onRefusal);
    }

    /**
     * As {@link #post(NdkQp, NdkOperationType, String, Supplier, int, Function)}, with {@code policy} for a post
     * refused inline for lack of resources (RETRY: posted again up to Refusals.SETUP_ATTEMPTS times in all).
     */
    WorkRequest post(NdkQp qp, NdkOperationType type, String kind, Supplier<String> detail, int flags,
                     Function<Object, NtStatus> call, Refusals.OnRefusal policy) {
        Side side = objects.sideOf(qp);
        NdkCq otherCq = WorkRequest.isReceive(type) ? side.cq : side.receiveCq;
        WorkRequest wr = postOnce(type, kind, detail, flags, call, side.cqFor(type), otherCq, objects.qpContextOf(qp));
        for (int i = 1; i < policy.attempts() && Refusals.isAllowedRefusal(wr.returned); i++) {
            wr = postOnce(type, kind, detail, flags, call, side.cqFor(type), otherCq, objects.qpContextOf(qp));
        }
        return judged(wr, policy);
    }

    /**
     * Posts a work request and records it (its CQ entry is matched and checked when a CQ is drained). The
     * post must return STATUS_SUCCESS or an error: work requests never pend.
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
            return post(q.qp(), type, kind, detail, flags, call);
        }
        NdkCq own = q.cqFor(type);
        return judged(postOnce(type, kind, detail, flags, call, own, own == q.cq() ? q.receiveCq() : q.cq(), q.qpContext()), onRefusal);
    }

    /** The work-request pages allow "other status codes": a post refused for lack of resources judges nothing, unless KEEP. */
    private static WorkRequest judged(WorkRequest wr, Refusals.OnRefusal policy) {
        if (policy != Refusals.OnRefusal.KEEP) {
            Refusals.discardIfRefused(wr.returned);
        }
        return wr;
    }

    private WorkRequest postOnce(NdkOperationType type, String kind, Supplier<String> detail, int flags, Function<Object, NtStatus> call,
                             NdkCq cq, NdkCq otherCq, Object qpContext) {
        WorkRequest wr = new WorkRequest(type, kind, detail, cq, otherCq, qpContext, (flags & NdkOpFlags.SILENT_SUCCESS) != 0);
        completions.expect(wr);
        NtStatus r = inv.call(kind, detail, () -> call.apply(wr.context));
        if (r == null) {
            throw Violations.of(WorkRequest.wrRule(type), detail.get(), "an NTSTATUS", "the provider returned null");
        }
        wr.returned = r;
        if (r.isPending()) {
            throw Violations.of(WorkRequest.wrRule(type), detail.get(),
                    "STATUS_SUCCESS (then a CQ entry) or an error: work requests complete through the CQ, not a callback",
                    "returned STATUS_PENDING");
        }
        return wr;
    }

    // ------------------------------------------------------------------ on the session's QPs

    /**
     * NdkFastRegister on a QP of the target PD, awaited: after STATUS_SUCCESS the CQ entry is awaited and
     * checked (MR-FR-8, CQ-2).
     *
     * @param qp                 the target's QP or the unconnected QP
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
        return completions.complete(postFastRegister(qp, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags));
    }

    /**
     * Posts NdkFastRegister without waiting for its CQ entry.
     *
     * @return the posted request (see {@link #fastRegister(NdkQp, NdkMr, int, long[], int, long, long, int)} for the parameters)
     */
    public WorkRequest postFastRegister(NdkQp qp, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo, long length,
                                        long baseVirtualAddress, int flags) {
        Supplier<String> d = () -> "NdkFastRegister(AdapterPageCount=" + u32(adapterPageCount) + ", AdapterPageArray="
                + Hex.pages(adapterPageArray, adapterPageCount) + ", FBO=" + u32(fbo) + ", Length=" + u64(length)
                + ", BaseVirtualAddress=" + u64(baseVirtualAddress) + ", Flags=" + Hex.opFlags(flags) + ")"
                + (objects.isUnconnected(qp) ? " on an unconnected QP" : "");
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
        objects.qps();
        NdkQp qp = objects.target().qp;
        Supplier<String> d = () -> "NdkInvalidate(Flags=" + Hex.opFlags(flags) + ")";
        return completions.complete(post(qp, NdkOperationType.INVALIDATE, "NdkInvalidate", d, flags, ctx -> qp.invalidate(ctx, mr, flags)));
    }

    // ------------------------------------------------------------------ on any QP, not awaited

    private static String sgl(NdkSge[] sgl) {
        return Arrays.toString(sgl);
    }

    /** NdkSend on {@code q}. */
    public WorkRequest send(QpRef q, NdkSge[] sgl, int flags) {
        Supplier<String> d = () -> "NdkSend(" + q.name() + " QP, Sgl=" + sgl(sgl) + ", Flags=" + Hex.opFlags(flags) + ")";
        return post(q, NdkOperationType.SEND, "NdkSend", d, flags, ctx -> q.qp().send(ctx, sgl, flags));
    }

    /** NdkSendAndInvalidate on {@code q}. */
    public WorkRequest sendAndInvalidate(QpRef q, NdkSge[] sgl, int remoteToken, int flags) {
        Supplier<String> d = () -> "NdkSendAndInvalidate(" + q.name() + " QP, Sgl=" + sgl(sgl) + ", RemoteToken=" + u32(remoteToken)
                + ", Flags=" + Hex.opFlags(flags) + ")";
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
                + ", RemoteToken=" + u32(remoteToken) + ", Flags=" + Hex.opFlags(flags) + ")";
        return post(q, NdkOperationType.READ, "NdkRead", d, flags, ctx -> q.qp().read(ctx, sgl, remoteAddress, remoteToken, flags));
    }

    /** NdkWrite on {@code q}. */
    public WorkRequest write(QpRef q, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        Supplier<String> d = () -> "NdkWrite(" + q.name() + " QP, Sgl=" + sgl(sgl) + ", RemoteAddress=" + u64(remoteAddress)
                + ", RemoteToken=" + u32(remoteToken) + ", Flags=" + Hex.opFlags(flags) + ")";
        return post(q, NdkOperationType.WRITE, "NdkWrite", d, flags, ctx -> q.qp().write(ctx, sgl, remoteAddress, remoteToken, flags));
    }

    /** NdkFastRegister on {@code q}. */
    public WorkRequest fastRegister(QpRef q, NdkMr mr, int pageCount, long[] pages, int fbo, long length, long base, int flags) {
        Supplier<String> d = () -> "NdkFastRegister(" + q.name() + " QP, AdapterPageCount=" + u32(pageCount) + ", AdapterPageArray="
                + Hex.pages(pages, pageCount) + ", FBO=" + u32(fbo) + ", Length=" + u64(length) + ", BaseVirtualAddress=" + u64(base)
                + ", Flags=" + Hex.opFlags(flags) + ")";
        return post(q, NdkOperationType.FAST_REGISTER, "NdkFastRegister", d, flags,
                ctx -> q.qp().fastRegister(ctx, mr, pageCount, pages, fbo, length, base, flags));
    }

    /** NdkInvalidate on {@code q}. */
    public WorkRequest invalidate(QpRef q, NdkMr mr, int flags) {
        Supplier<String> d = () -> "NdkInvalidate(" + q.name() + " QP, Flags=" + Hex.opFlags(flags) + ")";
        return post(q, NdkOperationType.INVALIDATE, "NdkInvalidate", d, flags, ctx -> q.qp().invalidate(ctx, mr, flags));
    }
}
