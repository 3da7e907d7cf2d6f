package org.ndktck.faults;

import org.ndktck.reference.Unwrappable;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/** An MR of a {@link ForwardingAdapter}: every call goes through the adapter's {@link Hooks}. */
public final class ForwardingMr implements NdkMr, Unwrappable {
    private final NdkMr inner;
    private final ForwardingAdapter adapter;
    private final Hooks hooks;
    private final boolean fastRegister;

    ForwardingMr(NdkMr inner, ForwardingAdapter adapter, boolean fastRegister) {
        this.inner = inner;
        this.adapter = adapter;
        this.hooks = adapter.hooks();
        this.fastRegister = fastRegister;
    }

    @Override
    public NdkObject unwrap() {
        return inner;
    }

    /** @return the adapter wrapper that made this MR */
    public ForwardingAdapter adapter() {
        return adapter;
    }

    /** @return true for an MR created with FastRegister = TRUE */
    public boolean fastRegister() {
        return fastRegister;
    }

    @Override
    public NdkObjectHeader header() {
        return hooks.call(NdkCall.HEADER, () -> hooks.header(this, inner.header()));
    }

    @Override
    public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object requestContext) {
        return hooks.call(NdkCall.REGISTER_MR, () -> hooks.request(NdkCall.REGISTER_MR, completion, requestContext,
                (c, x) -> inner.register(hooks.mdl(NdkCall.REGISTER_MR, mdl), length, flags, c, x)));
    }

    @Override
    public NtStatus deregister(RequestCompletion completion, Object requestContext) {
        return hooks.call(NdkCall.DEREGISTER_MR, () -> hooks.request(NdkCall.DEREGISTER_MR, completion, requestContext,
                inner::deregister));
    }

    @Override
    public NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                           Object requestContext) {
        return hooks.call(NdkCall.INITIALIZE_FAST_REGISTER_MR, () -> hooks.request(NdkCall.INITIALIZE_FAST_REGISTER_MR,
                completion, requestContext, (c, x) -> inner.initializeFastRegister(adapterPageCount, remoteAccess, c, x)));
    }

    @Override
    public int getLocalToken() {
        return hooks.call(NdkCall.GET_LOCAL_TOKEN, () -> hooks.token(NdkCall.GET_LOCAL_TOKEN, this, inner.getLocalToken()));
    }

    @Override
    public int getRemoteToken() {
        return hooks.call(NdkCall.GET_REMOTE_TOKEN, () -> hooks.token(NdkCall.GET_REMOTE_TOKEN, this, inner.getRemoteToken()));
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return hooks.call(NdkCall.CLOSE_MR, () -> hooks.close(NdkCall.CLOSE_MR, this, completion, closeContext, inner::close));
    }

    @Override
    public String toString() {
        return "ForwardingMr(" + inner + ")";
    }
}
