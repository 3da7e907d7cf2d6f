package org.ndktck.nativebridge;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * The Java stand-in of a C NDK_QP (NDK_QP_DISPATCH). SGE lists and page arrays are copied into native memory
 * for the call; request contexts travel as handles.
 */
final class NativeQp extends NativeObject implements NdkQp {
    private final NativeAdapter adapter;

    NativeQp(NativeAdapter adapter, Pointer ptr) {
        super(adapter.state, ptr);
        this.adapter = adapter;
    }

    private Pointer ctx(Object requestContext) {
        return new Pointer(state.context(requestContext));
    }

    private static Memory sgl(NdkSge[] sgl) {
        Objects.requireNonNull(sgl, "sgl");
        Memory m = new Memory((long) Math.max(1, sgl.length) * Layout.SGE_SIZE);
        for (int i = 0; i < sgl.length; i++) {
            NdkSge s = sgl[i];
            if (s == null) {
                throw new NullPointerException("sgl[" + i + "]");
            }
            m.setLong((long) i * Layout.SGE_SIZE, s.address());
            m.setInt((long) i * Layout.SGE_SIZE + 8, s.length());
            m.setInt((long) i * Layout.SGE_SIZE + 12, s.memoryRegionToken());
        }
        return m;
    }

    @Override
    public NtStatus fastRegister(Object requestContext, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo,
                                 long length, long baseVirtualAddress, int flags) {
        Objects.requireNonNull(mr, "mr");
        Objects.requireNonNull(adapterPageArray, "adapterPageArray");
        // C has no array length: the provider may read AdapterPageCount entries. Entries the Java array lacks
        // (up to FRMRPageCount, beyond which no initialized MR accepts the count) read as 0, no LAM's address.
        long wanted = Math.min(Integer.toUnsignedLong(adapterPageCount), Integer.toUnsignedLong(adapter.frmrPageCount()));
        long entries = Math.max(1, Math.max(adapterPageArray.length, wanted));
        Memory pages = new Memory(8 * entries);
        pages.clear();
        if (adapterPageArray.length > 0) {
            pages.write(0, adapterPageArray, 0, adapterPageArray.length);
        }
        return NtStatus.of(call(Layout.QP_FAST_REGISTER, ptr, ctx(requestContext), pointerOf(mr), adapterPageCount, pages, fbo,
                length, baseVirtualAddress, flags));
    }

    @Override
    public NtStatus invalidate(Object requestContext, NdkMr mr, int flags) {
        Objects.requireNonNull(mr, "mr");
        return NtStatus.of(call(Layout.QP_INVALIDATE, ptr, ctx(requestContext), pointerOf(mr), flags));
    }

    @Override
    public NtStatus read(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        Memory s = sgl(sgl);
        return NtStatus.of(call(Layout.QP_READ, ptr, ctx(requestContext), s, sgl.length, remoteAddress, remoteToken, flags));
    }

    @Override
    public NtStatus write(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        Memory s = sgl(sgl);
        return NtStatus.of(call(Layout.QP_WRITE, ptr, ctx(requestContext), s, sgl.length, remoteAddress, remoteToken, flags));
    }

    @Override
    public NtStatus send(Object requestContext, NdkSge[] sgl, int flags) {
        Memory s = sgl(sgl);
        return NtStatus.of(call(Layout.QP_SEND, ptr, ctx(requestContext), s, sgl.length, flags));
    }

    @Override
    public NtStatus sendAndInvalidate(Object requestContext, NdkSge[] sgl, int remoteToken, int flags) {
        Memory s = sgl(sgl);
        return NtStatus.of(call(Layout.QP_SEND_AND_INVALIDATE, ptr, ctx(requestContext), s, sgl.length, remoteToken, flags));
    }

    @Override
    public NtStatus receive(Object requestContext, NdkSge[] sgl) {
        Memory s = sgl(sgl);
        return NtStatus.of(call(Layout.QP_RECEIVE, ptr, ctx(requestContext), s, sgl.length));
    }

    @Override
    public void flush() {
        fn(Layout.QP_FLUSH).invokeVoid(new Object[]{ptr});
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeThrough(Layout.QP_CLOSE, completion, closeContext);
    }
}
