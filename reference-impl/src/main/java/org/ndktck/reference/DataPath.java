package org.ndktck.reference;

import java.util.ArrayList;
import java.util.List;

import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * Processing of work requests, under the adapter's lock: fast registration and invalidation take effect, and
 * Read, Write, Send/Receive move bytes between the page frames of two connected QPs. Every check runs before
 * the first byte moves; any failure completes the request with an error status and changes nothing
 * (design section 4, AMB-18).
 */
final class DataPath {
    private DataPath() {
    }

    /**
     * Processes one request that was queued on the adapter and has not completed. A flush or close of its QP
     * cancels every request of the QP, queued ones included, and a request posted on a flushed QP is cancelled
     * when posted, so no request of a flushed or closing QP gets here.
     */
    static void process(ReferenceAdapter adapter, WorkRequest wr) {
        if (wr.lateFailure != null) {
            fail(wr, wr.lateFailure);
            return;
        }
        switch (wr.type) {
            case FAST_REGISTER -> fastRegister(wr);
            case INVALIDATE -> invalidate(wr);
            case READ, WRITE -> rdma(adapter, wr);
            case SEND, SEND_AND_INVALIDATE -> send(adapter, wr);
            case RECEIVE -> receive(adapter, wr);
        }
    }

    // ------------------------------------------------------------------ completions

    /** Completes a request: one CQ entry, unless it succeeded with SILENT_SUCCESS (RW-5). */
    static void complete(WorkRequest wr, NtStatus status, long bytes, NdkOperationType type, long typeSpecific) {
        if (wr.done) {
            return;
        }
        wr.done = true;
        boolean success = status.equals(NtStatus.STATUS_SUCCESS);
        if (success && wr.type != WorkRequestType.RECEIVE && wr.has(NdkOpFlags.SILENT_SUCCESS)) {
            return;
        }
        ReferenceCq cq = wr.type == WorkRequestType.RECEIVE ? wr.qp.receiveCq : wr.qp.initiatorCq;
        cq.add(new NdkResultEx(status, (int) bytes, wr.qp.qpContext, wr.context, type, typeSpecific));
    }

    /** Completes a request with an error status. */
    static void fail(WorkRequest wr, NtStatus status) {
        if (wr.done) {
            return;
        }
        if (wr.type == WorkRequestType.FAST_REGISTER) {
            failedFastRegistrationRetired(wr.region);
        }
        complete(wr, status, 0, wr.type.operationType(), 0);
    }

    /**
     * A fast registration that failed (it was cancelled by a flush or close) never takes effect: its pending
     * registration is retired and its MR counts as invalidated, so it may be fast-registered again.
     */
    private static void failedFastRegistrationRetired(Region region) {
        if (region != null) {
            region.mr.invalidated(region, RetireEvent.CLOSE);
        }
    }

    /** Completes a flushed request with STATUS_CANCELLED; a cancelled fast registration never takes effect. */
    static void cancel(WorkRequest wr) {
        fail(wr, NtStatus.STATUS_CANCELLED);
    }

    private static void succeed(WorkRequest wr) {
        complete(wr, NtStatus.STATUS_SUCCESS, 0, wr.type.operationType(), 0);
    }

    // ------------------------------------------------------------------ fast register, invalidate

    private static void fastRegister(WorkRequest wr) {
        Region r = wr.region;
        if (r.state != Region.State.PENDING || !r.mr.isOpen()) {
            fail(wr, NtStatus.STATUS_CANCELLED);
            return;
        }
        r.mr.fastRegistrationTookEffect(r);
        succeed(wr);
    }

    private static void invalidate(WorkRequest wr) {
        Region r = wr.region;
        if (r == null || !r.live()) {
            fail(wr, NtStatus.STATUS_INVALID_PARAMETER);
            return;
        }
        r.mr.invalidated(r, RetireEvent.INVALIDATE);
        succeed(wr);
    }

    // ------------------------------------------------------------------ read, write

    private static void rdma(ReferenceAdapter adapter, WorkRequest wr) {
        ReferenceQp qp = wr.qp;
        ReferenceQp peer = qp.peer;
        if (peer == null || peer.state != QpState.CONNECTED) {
            fail(wr, NtStatus.STATUS_CONNECTION_INVALID);
            return;
        }
        boolean read = wr.type == WorkRequestType.READ;
        long total = wr.inlineData != null ? wr.inlineData.length : wr.totalBytes();
        List<Span> local = new ArrayList<>();
        if (wr.inlineData == null) {
            for (NdkSge sge : wr.sgl) {
                Object r = localSpan(adapter, qp, sge, read, wr.type);
                if (r instanceof NtStatus status) {
                    fail(wr, status);
                    return;
                }
                local.add((Span) r);
            }
        }
        Object target = remoteSpan(adapter, peer, wr, total);
        if (target instanceof NtStatus status) {
            fail(wr, status);
            return;
        }
        Span remote = (Span) target;
        Region invalidateAfterRead = null;
        if (read && wr.has(NdkOpFlags.RDMA_READ_LOCAL_INVALIDATE) && readLocalInvalidateSupported(adapter)) {
            if (wr.sgl.length == 0) {
                fail(wr, NtStatus.STATUS_INVALID_PARAMETER);
                return;
            }
            Object holder = adapter.tokens.tokenHolder(wr.sgl[0].memoryRegionToken(), qp.pd);
            RemoteInvalidateRequest request = invalidateRequest(adapter, WorkRequestType.READ,
                    wr.sgl[0].memoryRegionToken(), holder, qp.pd);
            NtStatus status = adapter.policy.evaluate(Pieces.REMOTE_INVALIDATE, request);
            if (!status.equals(NtStatus.STATUS_SUCCESS)) {
                fail(wr, status);
                return;
            }
            invalidateAfterRead = holder instanceof Region r ? r : null;
        }
        if (read) {
            DataMover.copy(adapter.memory, List.of(remote), local);
        } else if (wr.inlineData != null) {
            DataMover.copyIn(adapter.memory, wr.inlineData, List.of(remote));
        } else {
            DataMover.copy(adapter.memory, local, List.of(remote));
        }
        if (invalidateAfterRead != null) {
            invalidateAfterRead.mr.invalidated(invalidateAfterRead, RetireEvent.READ_LOCAL_INVALIDATE);
        }
        succeed(wr);
    }

    /** RW-4: the adapter honours RDMA_READ_LOCAL_INVALIDATE (it sets the flag exactly at NDKPI 1.2). */
    private static boolean readLocalInvalidateSupported(ReferenceAdapter adapter) {
        return adapter.hasAdapterFlag(NdkAdapterFlags.RDMA_READ_LOCAL_INVALIDATE_SUPPORTED);
    }

    /** The target of a Read or Write: checks of {@link Pieces#REMOTE_ACCESS}, then the bytes as a span. */
    /**
     * For the {@code read-bounds-at-post} piece: whether a Read just posted would, if processed now, fail with
     * STATUS_REMOTE_RESOURCES because it reaches past the end of the live registration its token names. Region
     * bounds never change and a retired token is never reused, so such a Read can only fail when processed too.
     */
    static boolean readPastRemoteEnd(ReferenceAdapter adapter, ReferenceQp target, WorkRequest wr, long total) {
        return NtStatus.STATUS_REMOTE_RESOURCES.equals(remoteSpan(adapter, target, wr, total));
    }

    private static Object remoteSpan(ReferenceAdapter adapter, ReferenceQp target, WorkRequest wr, long total) {
        Object holder = adapter.tokens.tokenHolder(wr.remoteToken, target.pd);
        if (!(holder instanceof Region region)) {
            return remoteWithoutRegistration(adapter, target, wr, total, holder);
        }
        boolean inBounds = adapter.policy.get(Pieces.BOUNDS).permits(region, wr.remoteAddress, total);
        RemoteAccessRequest request = new RemoteAccessRequest(adapter, wr.type, wr.remoteToken, wr.remoteAddress,
                total, TokenOwner.REGISTRATION, region, region.pd == target.pd, inBounds);
        NtStatus status = adapter.policy.evaluate(Pieces.REMOTE_ACCESS, request);
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        return backedSpan(adapter, region.pages, region.position(wr.remoteAddress), total);
    }

    /**
     * A Read or Write whose remote token names no registration: the privileged token (PRIV-2 refuses it) or no
     * token at all (RW-TOKEN refuses it). Only a variant without those checks gets past them: the privileged
     * token then reaches LAM logical addresses.
     */
    private static Object remoteWithoutRegistration(ReferenceAdapter adapter, ReferenceQp target, WorkRequest wr,
                                                    long total, Object holder) {
        TokenOwner owner = ownerOf(holder);
        LamMapping lam = owner == TokenOwner.PRIVILEGED ? adapter.lams.lamHolding(wr.remoteAddress, total) : null;
        RemoteAccessRequest request = new RemoteAccessRequest(adapter, wr.type, wr.remoteToken, wr.remoteAddress,
                total, owner, null, holder == target.pd, lam != null);
        NtStatus status = adapter.policy.evaluate(Pieces.REMOTE_ACCESS, request);
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        return lam == null ? NtStatus.STATUS_ACCESS_VIOLATION : new Span(lam.pages, wr.remoteAddress - lam.base, total);
    }

    /**
     * The span of {@code length} bytes at {@code position} of {@code pages}; when some of them lie past the last page
     * frame, piece {@code frame-reach} decides (the reference: STATUS_ACCESS_VIOLATION).
     */
    private static Object backedSpan(ReferenceAdapter adapter, PageMap pages, long position, long length) {
        if (pages.backs(position, length)) {
            return new Span(pages, position, length);
        }
        PageMap wider = pages.reaching(position, length, adapter.policy.get(Pieces.FRAME_REACH));
        return wider == null ? NtStatus.STATUS_ACCESS_VIOLATION : new Span(wider, position, length);
    }

    /** One local SGE: checks of {@link Pieces#LOCAL_ACCESS}, then its bytes as a span. */
    private static Object localSpan(ReferenceAdapter adapter, ReferenceQp qp, NdkSge sge, boolean sink,
                                    WorkRequestType type) {
        Object holder = adapter.tokens.tokenHolder(sge.memoryRegionToken(), qp.pd);
        TokenOwner owner = ownerOf(holder);
        long address = sge.address();
        long length = sge.unsignedLength();
        Region region = holder instanceof Region r ? r : null;
        boolean samePd = region != null ? region.pd == qp.pd : holder == qp.pd;
        LamMapping lam = owner == TokenOwner.PRIVILEGED ? adapter.lams.lamHolding(address, length) : null;
        boolean inBounds = region != null && adapter.policy.get(Pieces.BOUNDS).permits(region, address, length);
        LocalAccessRequest request = new LocalAccessRequest(adapter, type, sge, sink, owner, region, samePd,
                lam != null, inBounds);
        NtStatus status = adapter.policy.evaluate(Pieces.LOCAL_ACCESS, request);
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        if (region != null) {
            return backedSpan(adapter, region.pages, region.position(address), length);
        }
        return lam != null ? backedSpan(adapter, lam.pages, address - lam.base, length) : NtStatus.STATUS_ACCESS_VIOLATION;
    }

    private static TokenOwner ownerOf(Object holder) {
        if (holder instanceof Region) {
            return TokenOwner.REGISTRATION;
        }
        if (holder instanceof ReferencePd) {
            return TokenOwner.PRIVILEGED;
        }
        return TokenOwner.NONE;
    }

    private static RemoteInvalidateRequest invalidateRequest(ReferenceAdapter adapter, WorkRequestType type,
                                                             int token, Object holder, ReferencePd pd) {
        Region region = holder instanceof Region r ? r : null;
        // INV-1/remote refuses every token that names no registration, whatever its PD
        boolean samePd = region != null && region.pd == pd;
        return new RemoteInvalidateRequest(adapter, type, token, ownerOf(holder), region, samePd);
    }

    // ------------------------------------------------------------------ send, receive

    private static void send(ReferenceAdapter adapter, WorkRequest wr) {
        ReferenceQp peer = wr.qp.peer;
        if (peer == null || peer.state != QpState.CONNECTED) {
            fail(wr, NtStatus.STATUS_CONNECTION_INVALID);
            return;
        }
        // the adapter reads the sources when it processes the send, before any receive is known
        if (wr.inlineData == null) {
            for (NdkSge sge : wr.sgl) {
                if (localSpan(adapter, wr.qp, sge, false, wr.type) instanceof NtStatus status) {
                    fail(wr, status);
                    return;
                }
            }
        }
        // its sources were just checked, so the first receive completes it (with the receive, or alone)
        if (!peer.receives.isEmpty()) {
            match(adapter, wr, peer.receives.poll());
        } else if (adapter.rdmaTechnology() == org.ndktck.spec.NdkRdmaTechnology.IWARP) {
            // iWARP has no receiver-not-ready retry: an untagged message with no buffer ends the connection (TR-1)
            fail(wr, NtStatus.STATUS_CONNECTION_ABORTED);
            wr.qp.abortConnection();
        } else {
            peer.inboundSends.add(wr);
        }
    }

    private static void receive(ReferenceAdapter adapter, WorkRequest wr) {
        if (!matchWaitingSends(adapter, wr)) {
            wr.qp.receives.add(wr);
        }
    }

    /**
     * A receive meets the peer's sends that arrived before it, in order, until one fills it.
     *
     * @return true when the receive completed
     */
    private static boolean matchWaitingSends(ReferenceAdapter adapter, WorkRequest receive) {
        ReferenceQp qp = receive.qp;
        while (!receive.done && !qp.inboundSends.isEmpty()) {
            match(adapter, qp.inboundSends.poll(), receive);
        }
        return receive.done;
    }

    /**
     * Delivers a send into a receive. Checks the send's sources, the receive's sinks, the size and (for
     * SendAndInvalidate) the token to invalidate, then copies. When the send fails on its own sources the
     * receive stays unused.
     */
    private static void match(ReferenceAdapter adapter, WorkRequest send, WorkRequest receive) {
        List<Span> sources = new ArrayList<>();
        long total;
        if (send.inlineData != null) {
            total = send.inlineData.length;
        } else {
            total = send.totalBytes();
            for (NdkSge sge : send.sgl) {
                Object r = localSpan(adapter, send.qp, sge, false, send.type);
                if (r instanceof NtStatus status) {
                    sourcesGone(send, status);
                    return;
                }
                sources.add((Span) r);
            }
        }
        List<Span> sinks = new ArrayList<>();
        for (NdkSge sge : receive.sgl) {
            Object r = localSpan(adapter, receive.qp, sge, true, WorkRequestType.RECEIVE);
            if (r instanceof NtStatus status) {
                fail(receive, status);
                fail(send, NtStatus.STATUS_ACCESS_VIOLATION);
                return;
            }
            sinks.add((Span) r);
        }
        if (Long.compareUnsigned(total, receive.totalBytes()) > 0) {
            receiveTooSmall(send, receive);
            return;
        }
        Region invalidate = null;
        if (send.type == WorkRequestType.SEND_AND_INVALIDATE) {
            Object holder = adapter.tokens.tokenHolder(send.remoteToken, receive.qp.pd);
            RemoteInvalidateRequest request = invalidateRequest(adapter, WorkRequestType.SEND_AND_INVALIDATE,
                    send.remoteToken, holder, receive.qp.pd);
            NtStatus status = adapter.policy.evaluate(Pieces.REMOTE_INVALIDATE, request);
            if (!status.equals(NtStatus.STATUS_SUCCESS)) {
                invalidationRefused(send, receive, status);
                if (adapter.policy.get(Pieces.INVALID_TOKEN_ABORT).aborts(request)) {
                    receive.qp.abortConnection();
                }
                return;
            }
            invalidate = holder instanceof Region r ? r : null;
        }
        if (send.inlineData != null) {
            DataMover.copyIn(adapter.memory, send.inlineData, sinks);
        } else {
            DataMover.copy(adapter.memory, sources, sinks);
        }
        if (invalidate != null) {
            invalidate.mr.invalidated(invalidate, RetireEvent.REMOTE_INVALIDATE);
            complete(receive, NtStatus.STATUS_SUCCESS, total, NdkOperationType.RECEIVE_AND_INVALIDATE,
                    Integer.toUnsignedLong(send.remoteToken));
        } else {
            complete(receive, NtStatus.STATUS_SUCCESS, total, NdkOperationType.RECEIVE, 0);
        }
        succeed(send);
    }

    /** A send that waited for a receive lost its sources meanwhile (deregistered, invalidated, closed). */
    private static void sourcesGone(WorkRequest send, NtStatus status) {
        fail(send, status);
    }

    /** The message is longer than the receive's buffers. */
    private static void receiveTooSmall(WorkRequest send, WorkRequest receive) {
        fail(receive, NtStatus.STATUS_BUFFER_TOO_SMALL);
        fail(send, NtStatus.STATUS_REMOTE_RESOURCES);
    }

    /**
     * SendAndInvalidate named a token the receiver may not invalidate: the receive and the send fail; the caller
     * then aborts the connection (INV-6, piece {@code invalid-token-abort}).
     */
    private static void invalidationRefused(WorkRequest send, WorkRequest receive, NtStatus status) {
        fail(receive, status);
        fail(send, status);
    }

    // ------------------------------------------------------------------ INLINE

    /**
     * Copies the bytes of an INLINE request when it is posted (SGE-3: the token is ignored). Each SGE is found
     * by its address: inside the registration its token names (when live, of this PD), inside a live LAM, or
     * inside any live registration of the QP's PD.
     *
     * @return the bytes, or null when some SGE lies in no memory the adapter can reach
     */
    static byte[] captureInline(ReferenceAdapter adapter, ReferenceQp qp, NdkSge[] sgl, long total) {
        if (tooLargeToCapture(total)) {
            return null;
        }
        RegionBounds bounds = adapter.policy.get(Pieces.BOUNDS);
        List<Span> spans = new ArrayList<>();
        for (NdkSge sge : sgl) {
            long address = sge.address();
            long length = sge.unsignedLength();
            Span span = null;
            if (adapter.tokens.tokenHolder(sge.memoryRegionToken(), qp.pd) instanceof Region r && r.live() && r.pd == qp.pd
                    && bounds.permits(r, address, length)) {
                span = new Span(r.pages, r.position(address), length);
            }
            if (span == null) {
                span = adapter.tokens.findRegion(qp.pd, address, length);
            }
            if (span == null) {
                span = inlineFromLam(adapter, address, length);
            }
            if (span == null || !span.map().backs(span.position(), length)) {
                return null;
            }
            spans.add(span);
        }
        return DataMover.gather(adapter.memory, spans, (int) total);
    }

    /** The INLINE total cannot be held in one Java array. */
    private static boolean tooLargeToCapture(long total) {
        return Long.compareUnsigned(total, Integer.MAX_VALUE - 8) > 0;
    }

    /** An INLINE SGE whose address is a LAM logical address: the model reads the LAM's pages. */
    private static Span inlineFromLam(ReferenceAdapter adapter, long address, long length) {
        LamMapping lam = adapter.lams.lamHolding(address, length);
        return lam == null ? null : new Span(lam.pages, address - lam.base, length);
    }
}
