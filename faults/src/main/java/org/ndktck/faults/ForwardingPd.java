package org.ndktck.faults;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;

/** A PD of a {@link ForwardingAdapter}: every call goes through the adapter's {@link Hooks}. */
public final class ForwardingPd extends ForwardingObject<NdkPd> implements NdkPd {

    ForwardingPd(NdkPd inner, ForwardingAdapter adapter) {
        super(inner, adapter);
    }

    @Override
    public CreateResult<NdkMr> createMr(boolean fastRegister, CreateCompletion<NdkMr> completion, Object createContext) {
        ForwardingAdapter.Wrap<NdkMr> wrap = mr -> new ForwardingMr(mr, this, fastRegister);
        return hooks.call(NdkCall.CREATE_MR, this, () -> hooks.createMr(this, fastRegister, completion, createContext,
                (c, x) -> ForwardingAdapter.wrapResult(inner.createMr(fastRegister,
                        ForwardingAdapter.wrapCompletion(c, wrap), x), wrap)));
    }

    @Override
    public CreateResult<NdkQp> createQp(NdkCq receiveCq, NdkCq initiatorCq, Object qpContext, int receiveQueueDepth,
                                        int initiatorQueueDepth, int maxReceiveRequestSge, int maxInitiatorRequestSge,
                                        int inlineDataSize, CreateCompletion<NdkQp> completion, Object createContext) {
        ForwardingAdapter.Wrap<NdkQp> wrap = qp -> new ForwardingQp(qp, adapter,
                receiveCq instanceof ForwardingCq r ? r : null, initiatorCq instanceof ForwardingCq i ? i : null, qpContext,
                maxInitiatorRequestSge, initiatorQueueDepth);
        NdkCq[] cqs = hooks.qpCqs(receiveCq, initiatorCq);
        return hooks.call(NdkCall.CREATE_QP, this, () -> hooks.create(NdkCall.CREATE_QP, this, completion, createContext,
                (c, x) -> ForwardingAdapter.wrapResult(inner.createQp(cqs[0], cqs[1], qpContext, receiveQueueDepth,
                        initiatorQueueDepth, maxReceiveRequestSge, maxInitiatorRequestSge, inlineDataSize,
                        ForwardingAdapter.wrapCompletion(c, wrap), x), wrap)));
    }

    @Override
    public int getPrivilegedMemoryRegionToken() {
        return hooks.call(NdkCall.GET_PRIVILEGED_TOKEN, this, inner::getPrivilegedMemoryRegionToken);
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return hooks.call(NdkCall.CLOSE_PD, this, () -> hooks.close(NdkCall.CLOSE_PD, this, completion, closeContext, inner::close));
    }
}
