package org.ndktck.faults;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * A QP of a {@link ForwardingAdapter}: every call goes through the adapter's {@link Hooks}; each work request
 * reaches {@link Hooks#post} as a {@link WorkRequest}. It remembers the CQs and the QPContext it was created
 * with, so a hook can put entries on its CQs ({@link ForwardingCq#inject}).
 */
public final class ForwardingQp extends ForwardingObject<NdkQp> implements NdkQp {
    private final ForwardingCq receiveCq;
    private final ForwardingCq initiatorCq;
    private final Object qpContext;
    private final int maxInitiatorRequestSge;
    private final int initiatorQueueDepth;

    ForwardingQp(NdkQp inner, ForwardingAdapter adapter, ForwardingCq receiveCq, ForwardingCq initiatorCq,
                 Object qpContext, int maxInitiatorRequestSge, int initiatorQueueDepth) {
        super(inner, adapter);
        this.receiveCq = receiveCq;
        this.initiatorCq = initiatorCq;
        this.qpContext = qpContext;
        this.maxInitiatorRequestSge = maxInitiatorRequestSge;
        this.initiatorQueueDepth = initiatorQueueDepth;
    }

    /** @return the InitiatorQueueDepth given at NdkCreateQp (ULONG in an int, unsigned) */
    public int initiatorQueueDepth() {
        return initiatorQueueDepth;
    }

    /** @return the MaxInitiatorRequestSge given at NdkCreateQp (ULONG in an int, unsigned) */
    public int maxInitiatorRequestSge() {
        return maxInitiatorRequestSge;
    }

    /** @return the wrapped receive CQ, or null when the consumer passed a CQ of another provider */
    public ForwardingCq receiveCq() {
        return receiveCq;
    }

    /** @return the wrapped initiator CQ, or null when the consumer passed a CQ of another provider */
    public ForwardingCq initiatorCq() {
        return initiatorCq;
    }

    /**
     * @param type the request's type
     * @return the CQ its entry goes to: the receive CQ for NdkReceive, else the initiator CQ (may be null)
     */
    public ForwardingCq cqFor(NdkOperationType type) {
        return type == NdkOperationType.RECEIVE ? receiveCq : initiatorCq;
    }

    /** @return the QPContext given at NdkCreateQp */
    public Object qpContext() {
        return qpContext;
    }

    private NtStatus post(WorkRequest request) {
        return hooks.call(request.call(), this, () -> hooks.post(this, request, this::postInner));
    }

    /** Posts {@code w} on the wrapped QP. */
    private NtStatus postInner(WorkRequest w) {
        return switch (w.call()) {
            case FAST_REGISTER -> {
                if (w.mr() instanceof ForwardingMr m) {
                    m.fastRegistered(w.baseVirtualAddress(), w.length());
                }
                yield inner.fastRegister(w.context(), w.mr(), w.adapterPageCount(), w.adapterPageArray(), w.fbo(), w.length(),
                        w.baseVirtualAddress(), w.flags());
            }
            case INVALIDATE -> inner.invalidate(w.context(), w.mr(), w.flags());
            case READ -> inner.read(w.context(), w.sgl(), w.remoteAddress(), w.remoteToken(), w.flags());
            case WRITE -> inner.write(w.context(), w.sgl(), w.remoteAddress(), w.remoteToken(), w.flags());
            case SEND -> inner.send(w.context(), w.sgl(), w.flags());
            case SEND_AND_INVALIDATE -> inner.sendAndInvalidate(w.context(), w.sgl(), w.remoteToken(), w.flags());
            case RECEIVE -> inner.receive(w.context(), w.sgl());
            default -> throw new IllegalArgumentException("not a work request: " + w.call());
        };
    }

    @Override
    public NtStatus fastRegister(Object requestContext, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo,
                                 long length, long baseVirtualAddress, int flags) {
        return post(new WorkRequest(NdkCall.FAST_REGISTER, requestContext, mr, adapterPageCount, adapterPageArray, fbo, length,
                baseVirtualAddress, null, 0, 0, flags));
    }

    @Override
    public NtStatus invalidate(Object requestContext, NdkMr mr, int flags) {
        return post(new WorkRequest(NdkCall.INVALIDATE, requestContext, mr, 0, null, 0, 0, 0, null, 0, 0, flags));
    }

    @Override
    public NtStatus read(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return post(new WorkRequest(NdkCall.READ, requestContext, null, 0, null, 0, 0, 0, sgl, remoteAddress, remoteToken, flags));
    }

    @Override
    public NtStatus write(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return post(new WorkRequest(NdkCall.WRITE, requestContext, null, 0, null, 0, 0, 0, sgl, remoteAddress, remoteToken, flags));
    }

    @Override
    public NtStatus send(Object requestContext, NdkSge[] sgl, int flags) {
        return post(new WorkRequest(NdkCall.SEND, requestContext, null, 0, null, 0, 0, 0, sgl, 0, 0, flags));
    }

    @Override
    public NtStatus sendAndInvalidate(Object requestContext, NdkSge[] sgl, int remoteToken, int flags) {
        return post(new WorkRequest(NdkCall.SEND_AND_INVALIDATE, requestContext, null, 0, null, 0, 0, 0, sgl, 0, remoteToken, flags));
    }

    @Override
    public NtStatus receive(Object requestContext, NdkSge[] sgl) {
        return post(new WorkRequest(NdkCall.RECEIVE, requestContext, null, 0, null, 0, 0, 0, sgl, 0, 0, 0));
    }

    @Override
    public void flush() {
        hooks.call(NdkCall.FLUSH, this, () -> {
            inner.flush();
            return null;
        });
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return hooks.call(NdkCall.CLOSE_QP, this, () -> hooks.close(NdkCall.CLOSE_QP, this, completion, closeContext, inner::close));
    }
}
