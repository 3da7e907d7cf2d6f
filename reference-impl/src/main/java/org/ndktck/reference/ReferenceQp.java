package org.ndktck.reference;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * A QP of the model: posts work requests after their inline checks, holds DEFER requests until the next
 * request without DEFER or an inline failure (DEF-1 to DEF-4), keeps posted receives and the peer's sends
 * that wait for one, and flushes on NdkFlush and on close (FL-1, CL-5).
 */
final class ReferenceQp extends ReferenceObject implements NdkQp {

    /**
     * The sizes given to NdkCreateQp (ULONGs in ints, unsigned).
     *
     * @param receiveQueueDepth   ReceiveQueueDepth
     * @param initiatorQueueDepth InitiatorQueueDepth
     * @param maxReceiveSge       MaxReceiveRequestSge
     * @param maxInitiatorSge     MaxInitiatorRequestSge
     * @param inlineDataSize      InlineDataSize, bytes
     */
    record Limits(int receiveQueueDepth, int initiatorQueueDepth, int maxReceiveSge, int maxInitiatorSge,
                  int inlineDataSize) {
    }

    final ReferencePd pd;
    final ReferenceCq receiveCq;
    final ReferenceCq initiatorCq;
    final Object qpContext;
    final Limits limits;
    QpState state = QpState.UNCONNECTED;
    ReferenceQp peer;
    /** DEFER requests not yet handed to the adapter. */
    private final ArrayDeque<WorkRequest> held = new ArrayDeque<>();
    /** Posted receives waiting for a send. */
    final ArrayDeque<WorkRequest> receives = new ArrayDeque<>();
    /** The peer's sends waiting for a receive of this QP. */
    final ArrayDeque<WorkRequest> inboundSends = new ArrayDeque<>();

    ReferenceQp(ReferencePd pd, ReferenceCq receiveCq, ReferenceCq initiatorCq, Object qpContext, Limits limits) {
        super(pd.adapter, NdkObjectType.QP);
        this.pd = pd;
        this.receiveCq = receiveCq;
        this.initiatorCq = initiatorCq;
        this.qpContext = qpContext;
        this.limits = limits;
    }

    @Override
    List<ReferenceObject> antecedents() {
        return List.of(pd, receiveCq, initiatorCq);
    }

    /** Under the lock. */
    void connect(ReferenceQp other) {
        peer = other;
        state = QpState.CONNECTED;
    }

    private boolean connected() {
        return peer != null;
    }

    // ------------------------------------------------------------------ posting

    /** Under the lock: an initiator request failed inline; first hand held DEFER requests on (DEF-4). */
    private NtStatus failInline(NtStatus status) {
        if (!held.isEmpty()) {
            adapter.submit(takeHeld());
        }
        return status;
    }

    /** @return the held DEFER requests, in post order; none are held any more */
    private List<WorkRequest> takeHeld() {
        List<WorkRequest> batch = new ArrayList<>(held);
        forget(held);
        return batch;
    }

    /**
     * Under the lock: drops requests from a queue once each was handed on or completed. Keeping them would
     * change nothing the consumer sees: the adapter skips a request that is done, a held request handed on twice
     * is processed once, and a flushed or closed QP matches no more sends.
     */
    private static void forget(ArrayDeque<WorkRequest> queue) {
        queue.clear();
    }

    /** Under the lock: an initiator request passed its inline checks. */
    private void post(WorkRequest wr) {
        if (state == QpState.FLUSHED) {
            DataPath.cancel(wr);
            return;
        }
        if (wr.deferred()) {
            held.add(wr);
            return;
        }
        List<WorkRequest> batch = takeHeld();
        batch.add(wr);
        adapter.submit(batch);
    }

    @Override
    public NtStatus fastRegister(Object requestContext, NdkMr mr, int adapterPageCount, long[] adapterPageArray,
                                 int fbo, long length, long baseVirtualAddress, int flags) {
        Objects.requireNonNull(mr, "mr");
        Objects.requireNonNull(adapterPageArray, "adapterPageArray");
        ReferenceMr m = adapter.resolve(mr, ReferenceMr.class);
        adapter.lock.lock();
        try {
            if (adapter.isClosed() || !isOpen()) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            if (m == null) {
                return failInline(NtStatus.STATUS_INVALID_PARAMETER);
            }
            // The one pass over the consumer's array: frames for the new registration plus the two facts the
            // checks MR-FR-17 and MR-FR-2 read. The array is not copied; nothing keeps it after the call.
            int pagesUsed = (int) Math.min(Integer.toUnsignedLong(adapterPageCount), adapterPageArray.length);
            TranslatedPages translated = TranslatedPages.of(adapter, adapterPageArray, pagesUsed);
            FastRegisterRequest request = new FastRegisterRequest(adapter, connected(), m.view(pd), adapterPageCount,
                    adapterPageArray, adapterPageArray.length, fbo, length, baseVirtualAddress, flags,
                    translated.firstMisalignedPage(), translated.firstUnmappedPage());
            NtStatus status = adapter.policy.evaluate(Pieces.FAST_REGISTER, request);
            if (!status.equals(NtStatus.STATUS_SUCCESS)) {
                return failInline(status);
            }
            Region r = m.postFastRegistration(translated.frames(), fbo, length, baseVirtualAddress, flags);
            if (r == null) {
                return failInline(NtStatus.STATUS_INSUFFICIENT_RESOURCES);
            }
            post(new WorkRequest(WorkRequestType.FAST_REGISTER, this, requestContext, flags, null, 0, 0, r, null));
            return NtStatus.STATUS_SUCCESS;
        } finally {
            adapter.lock.unlock();
        }
    }

    @Override
    public NtStatus invalidate(Object requestContext, NdkMr mr, int flags) {
        Objects.requireNonNull(mr, "mr");
        ReferenceMr m = adapter.resolve(mr, ReferenceMr.class);
        adapter.lock.lock();
        try {
            if (adapter.isClosed() || !isOpen()) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            if (m == null) {
                return failInline(NtStatus.STATUS_INVALID_PARAMETER);
            }
            InvalidateRequest request = new InvalidateRequest(adapter, connected(), m.view(pd), flags);
            NtStatus status = adapter.policy.evaluate(Pieces.INVALIDATE, request);
            if (!status.equals(NtStatus.STATUS_SUCCESS)) {
                return failInline(status);
            }
            Region target = m.region;
            m.state = MrState.INVALIDATED;
            post(new WorkRequest(WorkRequestType.INVALIDATE, this, requestContext, flags, null, 0, 0, target, null));
            return NtStatus.STATUS_SUCCESS;
        } finally {
            adapter.lock.unlock();
        }
    }

    @Override
    public NtStatus read(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return postData(WorkRequestType.READ, requestContext, sgl, remoteAddress, remoteToken, flags);
    }

    @Override
    public NtStatus write(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return postData(WorkRequestType.WRITE, requestContext, sgl, remoteAddress, remoteToken, flags);
    }

    @Override
    public NtStatus send(Object requestContext, NdkSge[] sgl, int flags) {
        return postData(WorkRequestType.SEND, requestContext, sgl, 0, 0, flags);
    }

    @Override
    public NtStatus sendAndInvalidate(Object requestContext, NdkSge[] sgl, int remoteToken, int flags) {
        return postData(WorkRequestType.SEND_AND_INVALIDATE, requestContext, sgl, 0, remoteToken, flags);
    }

    @Override
    public NtStatus receive(Object requestContext, NdkSge[] sgl) {
        return postData(WorkRequestType.RECEIVE, requestContext, sgl, 0, 0, 0);
    }

    private NtStatus postData(WorkRequestType type, Object requestContext, NdkSge[] sgl, long remoteAddress,
                              int remoteToken, int flags) {
        Objects.requireNonNull(sgl, "sgl");
        NdkSge[] copy = sgl.clone();
        int nullEntry = Arrays.asList(copy).indexOf(null);
        if (nullEntry != -1) {
            throw new NullPointerException("sgl[" + nullEntry + "]");
        }
        boolean receive = type == WorkRequestType.RECEIVE;
        adapter.lock.lock();
        try {
            if (adapter.isClosed() || !isOpen()) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            long total = WorkRequest.sumLengths(copy);
            PostRequest request = new PostRequest(adapter, type, connected(), copy.length,
                    receive ? limits.maxReceiveSge() : limits.maxInitiatorSge(), total, limits.inlineDataSize(), flags);
            NtStatus status = adapter.policy.evaluate(Pieces.POST, request);
            if (!status.equals(NtStatus.STATUS_SUCCESS)) {
                return receive ? status : failInline(status);
            }
            byte[] inline = null;
            if (!receive && type != WorkRequestType.READ && (flags & NdkOpFlags.INLINE) != 0) {
                inline = DataPath.captureInline(adapter, this, copy, total);
                if (inline == null) {
                    return failInline(NtStatus.STATUS_INVALID_PARAMETER);
                }
            }
            WorkRequest wr = new WorkRequest(type, this, requestContext, flags, copy, remoteAddress, remoteToken,
                    null, inline);
            if (!receive) {
                post(wr);
            } else if (state == QpState.FLUSHED) {
                DataPath.cancel(wr);
            } else {
                adapter.submit(List.of(wr));
            }
            return NtStatus.STATUS_SUCCESS;
        } finally {
            adapter.lock.unlock();
        }
    }

    // ------------------------------------------------------------------ flush and close

    @Override
    public void flush() {
        adapter.lock.lock();
        try {
            if (life == Life.CLOSED) {
                return;
            }
            cancelEverything();
            if (state != QpState.CLOSED) {
                state = QpState.FLUSHED;
            }
        } finally {
            adapter.lock.unlock();
        }
    }

    /**
     * Under the lock: completes every request of this QP that has not completed with STATUS_CANCELLED, in
     * post order, and fails the peer's sends that wait for a receive here.
     */
    private void cancelEverything() {
        if (peer != null) {
            // the sends waiting at the peer all come from this QP, its only peer
            for (WorkRequest wr : peer.inboundSends) {
                DataPath.cancel(wr);
            }
            forget(peer.inboundSends);
        }
        for (WorkRequest wr : adapter.ready) {
            if (wr.qp == this && !wr.done) {
                DataPath.cancel(wr);
            }
        }
        for (WorkRequest wr : held) {
            DataPath.cancel(wr);
        }
        forget(held);
        for (WorkRequest wr : receives) {
            DataPath.cancel(wr);
        }
        forget(receives);
        for (WorkRequest wr : inboundSends) {
            DataPath.fail(wr, NtStatus.STATUS_CONNECTION_INVALID);
        }
        forget(inboundSends);
    }

    /**
     * Under the lock: the transport aborts the connection (INV-6: a peer's SendAndInvalidate named an invalid
     * token). Both QPs complete what they hold with STATUS_CANCELLED and stay flushed, so every later request on
     * either completes with STATUS_CANCELLED too.
     */
    void abortConnection() {
        ReferenceQp other = peer;
        abortHere();
        if (other != null) {
            other.abortHere();
        }
    }

    private void abortHere() {
        if (life == Life.CLOSED || state == QpState.CLOSED) {
            return;
        }
        cancelEverything();
        state = QpState.FLUSHED;
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeObject(completion, closeContext);
    }

    @Override
    void onCloseStarted() {
        cancelEverything();
        state = QpState.CLOSED;
        if (peer != null) {
            ReferenceQp other = peer;
            peer = null;
            other.peer = null;
            if (other.state == QpState.CONNECTED) {
                other.state = QpState.UNCONNECTED;
            }
        }
    }

    @Override
    public String toString() {
        return "ReferenceQp{" + state + ", context=" + qpContext + ", held=" + held.size() + ", receives="
                + receives.size() + ", " + life + "}";
    }
}
