package org.ndktck.nativebridge;

import com.sun.jna.Pointer;

import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/** The Java stand-in of a C NDK_MR (NDK_MR_DISPATCH). */
final class NativeMr extends NativeObject implements NdkMr {
    NativeMr(NativeAdapter adapter, Pointer ptr) {
        super(adapter.state, ptr);
    }

    private Pointer request(RequestCompletion completion, Object requestContext, Object keepAlive) {
        Objects.requireNonNull(completion, "completion");
        return new Pointer(Bridge.register(state, new Bridge.RequestPending(completion, requestContext, null, keepAlive)));
    }

    @Override
    public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object requestContext) {
        Objects.requireNonNull(mdl, "mdl");
        NativeMdl native_ = new NativeMdl(mdl);
        Pointer h = request(completion, requestContext, native_);
        return NtStatus.of(call(Layout.MR_REGISTER, ptr, native_.first, length, flags, Bridge.REQUEST_FN, h));
    }

    @Override
    public NtStatus deregister(RequestCompletion completion, Object requestContext) {
        Pointer h = request(completion, requestContext, null);
        return NtStatus.of(call(Layout.MR_DEREGISTER, ptr, Bridge.REQUEST_FN, h));
    }

    @Override
    public NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                           Object requestContext) {
        Pointer h = request(completion, requestContext, null);
        return NtStatus.of(call(Layout.MR_INITIALIZE_FAST_REGISTER, ptr, adapterPageCount, (byte) (remoteAccess ? 1 : 0),
                Bridge.REQUEST_FN, h));
    }

    @Override
    public int getLocalToken() {
        return call(Layout.MR_LOCAL_TOKEN, ptr);
    }

    @Override
    public int getRemoteToken() {
        return call(Layout.MR_REMOTE_TOKEN, ptr);
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeThrough(Layout.MR_CLOSE, completion, closeContext);
    }
}
