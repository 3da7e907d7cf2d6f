package org.ndktck.reference;

import java.util.ArrayList;
import java.util.List;

import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NdkVersion;
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

    /** Processes one request that was queued on the adapter. */
    static void process(ReferenceAdapter adapter, WorkRequest wr) {
        if (wr.qp.state == QpState.FLUSHED || !wr.qp.isOpen()) {
            cancel(wr);
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
        if (wr.type == WorkRequestType.FAST_REGISTER && wr.region != null) {
            wr.region.mr.invalidated(wr.region, RetireEvent.CLOSE);
        }
        complete(wr, status, 0, wr.type.operationType(), 0);
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
            Object holder = adapter.tokenHolder(wr.sgl[0].memoryRegionToken());
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

    private static boolean readLocalInvalidateSupported(ReferenceAdapter adapter) {
        return adapter.ndkVersion().atLeast(NdkVersion.V1_2)
                && adapter.hasAdapterFlag(NdkAdapterFlags.RDMA_READ_LOCAL_INVALIDATE_SUPPORTED);
    }

    /** The target of a Read or Write: checks of {@link Pieces#REMOTE_ACCESS}, then the bytes as a span. */
    private static Object remoteSpan(ReferenceAdapter adapter, ReferenceQp target, WorkRequest wr, long total) {
        Object holder = adapter.tokenHolder(wr.remoteToken);
        TokenOwner owner = ownerOf(holder);
        Region region = holder instanceof Region r ? r : null;
        boolean samePd = region != null ? region.pd == target.pd : holder == target.pd;
        LamMapping lam = owner == TokenOwner.PRIVILEGED ? adapter.lamHolding(wr.remoteAddress, total) : null;
        boolean inBounds = region != null ? adapter.policy.get(Pieces.BOUNDS).permits(region, wr.remoteAddress, total)
                : lam != null;
        RemoteAccessRequest request = new RemoteAccessRequest(adapter, wr.type, wr.remoteToken, wr.remoteAddress,
                total, owner, region, samePd, inBounds);
        NtStatus status = adapter.policy.evaluate(Pieces.REMOTE_ACCESS, request);
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        boolean read = wr.type == WorkRequestType.READ;
        if (region == null) {
            // only a variant without PRIV-2 gets here: the privileged token reaches LAM logical addresses
            return lam == null ? NtStatus.STATUS_ACCESS_VIOLATION
                    : new Span(lam.pages, wr.remoteAddress - lam.base, total);
        }
        long position = region.position(wr.remoteAddress);
        if (!region.pages.backs(position, total)) {
            return read ? NtStatus.STATUS_REMOTE_RESOURCES : NtStatus.STATUS_ACCESS_VIOLATION;
        }
        return new Span(region.pages, position, total);
    }

    /** One local SGE: checks of {@link Pieces#LOCAL_ACCESS}, then its bytes as a span. */
    private static Object localSpan(ReferenceAdapter adapter, ReferenceQp qp, NdkSge sge, boolean sink,
                                    WorkRequestType type) {
        Object holder = adapter.tokenHolder(sge.memoryRegionToken());
        TokenOwner owner = ownerOf(holder);
        long address = sge.address();
        long length = sge.unsignedLength();
        Region region = holder instanceof Region r ? r : null;
        boolean samePd = region != null ? region.pd == qp.pd : holder == qp.pd;
        LamMapping lam = owner == TokenOwner.PRIVILEGED ? adapter.lamHolding(address, length) : null;
        boolean inBounds = region != null && adapter.policy.get(Pieces.BOUNDS).permits(region, address, length);
        LocalAccessRequest request = new LocalAccessRequest(adapter, type, sge, sink, owner, region, samePd,
                lam != null, inBounds);
        NtStatus status = adapter.policy.evaluate(Pieces.LOCAL_ACCESS, request);
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        if (region != null) {
            long position = region.position(address);
            return region.pages.backs(position, length) ? new Span(region.pages, position, length)
                    : NtStatus.STATUS_ACCESS_VIOLATION;
        }
        if (lam != null) {
            long position = address - lam.base;
            return lam.pages.backs(position, length) ? new Span(lam.pages, position, length)
                    : NtStatus.STATUS_ACCESS_VIOLATION;
        }
        return NtStatus.STATUS_ACCESS_VIOLATION;
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
        boolean samePd = region != null ? region.pd == pd : holder == pd;
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
        while (!wr.done && !peer.receives.isEmpty()) {
            WorkRequest receive = peer.receives.poll();
            if (!match(adapter, wr, receive)) {
                peer.receives.addFirst(receive);
                return;
            }
        }
        if (!wr.done) {
            peer.inboundSends.add(wr);
        }
    }

    private static void receive(ReferenceAdapter adapter, WorkRequest wr) {
        ReferenceQp qp = wr.qp;
        while (!wr.done && !qp.inboundSends.isEmpty()) {
            match(adapter, qp.inboundSends.poll(), wr);
        }
        if (!wr.done) {
            qp.receives.add(wr);
        }
    }

    /**
     * Delivers a send into a receive. Checks the send's sources, the receive's sinks, the size and (for
     * SendAndInvalidate) the token to invalidate, then copies.
     *
     * @return false when the send failed on its own sources and the receive was not used
     */
    private static boolean match(ReferenceAdapter adapter, WorkRequest send, WorkRequest receive) {
        List<Span> sources = new ArrayList<>();
        long total;
        if (send.inlineData != null) {
            total = send.inlineData.length;
        } else {
            total = send.totalBytes();
            for (NdkSge sge : send.sgl) {
                Object r = localSpan(adapter, send.qp, sge, false, send.type);
                if (r instanceof NtStatus status) {
                    fail(send, status);
                    return false;
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
                return true;
            }
            sinks.add((Span) r);
        }
        if (Long.compareUnsigned(total, receive.totalBytes()) > 0) {
            fail(receive, NtStatus.STATUS_BUFFER_TOO_SMALL);
            fail(send, NtStatus.STATUS_REMOTE_RESOURCES);
            return true;
        }
        Region invalidate = null;
        if (send.type == WorkRequestType.SEND_AND_INVALIDATE) {
            Object holder = adapter.tokenHolder(send.remoteToken);
            RemoteInvalidateRequest request = invalidateRequest(adapter, WorkRequestType.SEND_AND_INVALIDATE,
                    send.remoteToken, holder, receive.qp.pd);
            NtStatus status = adapter.policy.evaluate(Pieces.REMOTE_INVALIDATE, request);
            if (!status.equals(NtStatus.STATUS_SUCCESS)) {
                fail(receive, status);
                fail(send, status);
                return true;
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
        return true;
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
        if (Long.compareUnsigned(total, Integer.MAX_VALUE - 8) > 0) {
            return null;
        }
        RegionBounds bounds = adapter.policy.get(Pieces.BOUNDS);
        List<Span> spans = new ArrayList<>();
        for (NdkSge sge : sgl) {
            long address = sge.address();
            long length = sge.unsignedLength();
            Span span = null;
            if (adapter.tokenHolder(sge.memoryRegionToken()) instanceof Region r && r.live() && r.pd == qp.pd
                    && bounds.permits(r, address, length)) {
                span = new Span(r.pages, r.position(address), length);
            }
            LamMapping lam = span == null ? adapter.lamHolding(address, length) : null;
            if (lam != null) {
                span = new Span(lam.pages, address - lam.base, length);
            }
            if (span == null) {
                span = adapter.findRegion(qp.pd, address, length);
            }
            if (span == null || !span.map().backs(span.position(), length)) {
                return null;
            }
            spans.add(span);
        }
        return DataMover.gather(adapter.memory, spans, (int) total);
    }
}
