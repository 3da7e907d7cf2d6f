package org.ndktck.nativebridge;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;

/** The Java stand-in of a C NDK_PD (NDK_PD_DISPATCH). */
final class NativePd extends NativeObject implements NdkPd {
    private final NativeAdapter adapter;

    NativePd(NativeAdapter adapter, Pointer ptr) {
        super(adapter.state, ptr);
        this.adapter = adapter;
    }

    private NativeMr mr(Pointer p) {
        return state.object(p, q -> new NativeMr(adapter, q));
    }

    private NativeQp qp(Pointer p) {
        return state.object(p, q -> new NativeQp(adapter, q));
    }

    @Override
    public CreateResult<NdkMr> createMr(boolean fastRegister, CreateCompletion<NdkMr> completion, Object createContext) {
        long h = NativeAdapter.createHandle(state, completion, createContext, this::mr);
        Memory out = outPointer();
        int status = call(Layout.PD_CREATE_MR, ptr, (byte) (fastRegister ? 1 : 0), Bridge.CREATE_FN, new Pointer(h), out);
        return NativeAdapter.created(status, out, this::mr);
    }

    @Override
    public CreateResult<NdkQp> createQp(NdkCq receiveCq, NdkCq initiatorCq, Object qpContext, int receiveQueueDepth,
                                        int initiatorQueueDepth, int maxReceiveRequestSge, int maxInitiatorRequestSge,
                                        int inlineDataSize, CreateCompletion<NdkQp> completion, Object createContext) {
        Objects.requireNonNull(receiveCq, "receiveCq");
        Objects.requireNonNull(initiatorCq, "initiatorCq");
        long h = NativeAdapter.createHandle(state, completion, createContext, this::qp);
        Memory out = outPointer();
        int status = call(Layout.PD_CREATE_QP, ptr, pointerOf(receiveCq), pointerOf(initiatorCq),
                new Pointer(state.context(qpContext)), receiveQueueDepth, initiatorQueueDepth, maxReceiveRequestSge,
                maxInitiatorRequestSge, inlineDataSize, Bridge.CREATE_FN, new Pointer(h), out);
        return NativeAdapter.created(status, out, this::qp);
    }

    @Override
    public int getPrivilegedMemoryRegionToken() {
        return call(Layout.PD_PRIVILEGED_TOKEN, ptr);
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeThrough(Layout.PD_CLOSE, completion, closeContext);
    }
}
