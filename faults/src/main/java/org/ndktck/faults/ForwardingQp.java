package org.ndktck.faults;

import java.util.function.Supplier;

import org.ndktck.reference.Unwrappable;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * A QP of a {@link ForwardingAdapter}: every call goes through the adapter's {@link Hooks}. It remembers the
 * CQs and the QPContext it was created with, so a hook can put entries on its CQs ({@link ForwardingCq#inject}).
 */
public final class ForwardingQp implements NdkQp, Unwrappable {
    private final NdkQp inner;
    private final ForwardingAdapter adapter;
    private final Hooks hooks;
    private final ForwardingCq receiveCq;
    private final ForwardingCq initiatorCq;
    private final Object qpContext;

    ForwardingQp(NdkQp inner, ForwardingAdapter adapter, ForwardingCq receiveCq, ForwardingCq initiatorCq,
                 Object qpContext) {
        this.inner = inner;
        this.adapter = adapter;
        this.hooks = adapter.hooks();
        this.receiveCq = receiveCq;
        this.initiatorCq = initiatorCq;
        this.qpContext = qpContext;
    }

    @Override
    public NdkObject unwrap() {
        return inner;
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

    /** @return the adapter wrapper that made this QP */
    public ForwardingAdapter adapter() {
        return adapter;
    }

    @Override
    public NdkObjectHeader header() {
        return hooks.call(NdkCall.HEADER, () -> hooks.header(this, inner.header()));
    }

    private NtStatus post(NdkCall call, NdkOperationType type, Object ctx, Supplier<NtStatus> body) {
        return hooks.call(call, () -> hooks.post(call, this, type, ctx, body));
    }

    @Override
    public NtStatus fastRegister(Object requestContext, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo,
                                 long length, long baseVirtualAddress, int flags) {
        return post(NdkCall.FAST_REGISTER, NdkOperationType.FAST_REGISTER, requestContext,
                () -> inner.fastRegister(requestContext, mr, adapterPageCount, adapterPageArray, fbo, length,
                        baseVirtualAddress, flags));
    }

    @Override
    public NtStatus invalidate(Object requestContext, NdkMr mr, int flags) {
        return post(NdkCall.INVALIDATE, NdkOperationType.INVALIDATE, requestContext,
                () -> inner.invalidate(requestContext, mr, flags));
    }

    @Override
    public NtStatus read(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return post(NdkCall.READ, NdkOperationType.READ, requestContext,
                () -> inner.read(requestContext, sgl, remoteAddress, remoteToken, flags));
    }

    @Override
    public NtStatus write(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return post(NdkCall.WRITE, NdkOperationType.WRITE, requestContext,
                () -> inner.write(requestContext, sgl, remoteAddress, remoteToken, flags));
    }

    @Override
    public NtStatus send(Object requestContext, NdkSge[] sgl, int flags) {
        return post(NdkCall.SEND, NdkOperationType.SEND, requestContext, () -> inner.send(requestContext, sgl, flags));
    }

    @Override
    public NtStatus sendAndInvalidate(Object requestContext, NdkSge[] sgl, int remoteToken, int flags) {
        return post(NdkCall.SEND_AND_INVALIDATE, NdkOperationType.SEND, requestContext,
                () -> inner.sendAndInvalidate(requestContext, sgl, remoteToken, flags));
    }

    @Override
    public NtStatus receive(Object requestContext, NdkSge[] sgl) {
        return post(NdkCall.RECEIVE, NdkOperationType.RECEIVE, requestContext, () -> inner.receive(requestContext, sgl));
    }

    @Override
    public void flush() {
        hooks.call(NdkCall.FLUSH, () -> {
            inner.flush();
            return null;
        });
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return hooks.call(NdkCall.CLOSE_QP, () -> hooks.close(NdkCall.CLOSE_QP, this, completion, closeContext, inner::close));
    }

    @Override
    public String toString() {
        return "ForwardingQp(" + inner + ")";
    }
}
