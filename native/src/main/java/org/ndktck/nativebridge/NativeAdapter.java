package org.ndktck.nativebridge;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.util.Objects;
import java.util.concurrent.CountDownLatch;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The Java stand-in of a C NDK_ADAPTER: each SPI call becomes the call through NDK_ADAPTER_DISPATCH with
 * its arguments in native memory, and back. Nothing is decided here that the provider should decide: statuses,
 * objects and out parameters are what the C code returned or wrote.
 */
final class NativeAdapter extends NativeObject implements NdkAdapter {
    private final NativeFactory factory;
    private final Memory hostStruct;
    private final NdkAdapterInfo info;
    private final org.ndktck.spec.NdkRdmaTechnology technology;

    NativeAdapter(NativeFactory factory, HostMemory memory, long host, Memory hostStruct, Pointer ptr) {
        super(new AdapterState(factory, memory, host), ptr);
        this.factory = factory;
        this.hostStruct = hostStruct;
        this.info = readInfo();
        this.technology = readTechnology();
    }

    private org.ndktck.spec.NdkRdmaTechnology readTechnology() {
        Memory buf = new Memory(Layout.ADAPTER_INFO_SIZE);
        buf.clear();
        Memory size = new Memory(4);
        size.setInt(0, Layout.ADAPTER_INFO_SIZE);
        int status = call(Layout.ADAPTER_QUERY_INFO, ptr, buf, size);
        int value = status == 0 ? buf.getInt(Layout.ADAPTER_INFO_RDMA_TECHNOLOGY) : 0;
        for (org.ndktck.spec.NdkRdmaTechnology t : org.ndktck.spec.NdkRdmaTechnology.values()) {
            if (t.value() == value && t != org.ndktck.spec.NdkRdmaTechnology.MAX_TECHNOLOGY) {
                return t;
            }
        }
        return org.ndktck.spec.NdkRdmaTechnology.UNDEFINED;
    }

    private NdkAdapterInfo readInfo() {
        Memory buf = new Memory(Layout.ADAPTER_INFO_SIZE);
        buf.clear();
        Memory size = new Memory(4);
        size.setInt(0, Layout.ADAPTER_INFO_SIZE);
        int status = call(Layout.ADAPTER_QUERY_INFO, ptr, buf, size);
        if (status != 0) {
            throw new IllegalStateException("NdkQueryAdapterInfo returned " + NtStatus.of(status));
        }
        return new NdkAdapterInfo(new NdkVersion(buf.getShort(4) & 0xFFFF, buf.getShort(6) & 0xFFFF), buf.getInt(92),
                buf.getInt(32), buf.getLong(16), buf.getLong(24), buf.getInt(36), buf.getInt(40), buf.getInt(44),
                buf.getInt(48), buf.getInt(52), buf.getInt(56), buf.getInt(60), buf.getInt(64), buf.getInt(68),
                buf.getInt(76));
    }

    @Override
    public NdkAdapterInfo queryAdapterInfo() {
        return readInfo();
    }

    /**
     * NDK_ADAPTER_INFO.RdmaTechnology as the C provider reports it through NdkQueryAdapterInfo (the C enum, an
     * unsigned 32-bit value at offset 96): NdkiWarp (1), NdkInfiniBand (2), NdkRoCE (3), NdkRoCEv2 (4); 0 and any
     * value the SPI does not name are {@link org.ndktck.spec.NdkRdmaTechnology#UNDEFINED}. Read when the adapter opened.
     *
     * @return the transport the kit judges the transport-dependent rules by (TR-1)
     */
    @Override
    public org.ndktck.spec.NdkRdmaTechnology rdmaTechnology() {
        return technology;
    }

    @Override
    public int pageSize() {
        return factory.pageSize();
    }

    /** @return FRMRPageCount as the adapter reported it when opened */
    int frmrPageCount() {
        return info.frmrPageCount();
    }

    NativePd pd(Pointer p) {
        return state.object(p, q -> new NativePd(this, q));
    }

    NativeCq cq(Pointer p) {
        return state.object(p, q -> new NativeCq(this, q));
    }

    @SuppressWarnings("unchecked")
    static <T extends NdkObject> CreateResult<T> created(int status, Memory out, java.util.function.Function<Pointer, T> wrap) {
        Pointer p = out.getPointer(0);
        return new CreateResult<>(NtStatus.of(status), p == null ? null : wrap.apply(p));
    }

    @SuppressWarnings("unchecked")
    static <T extends NdkObject> long createHandle(AdapterState state, CreateCompletion<T> completion, Object context,
                                                   java.util.function.Function<Pointer, T> wrap) {
        Objects.requireNonNull(completion, "completion");
        return Bridge.register(state, new Bridge.CreatePending((CreateCompletion<NdkObject>) (CreateCompletion<?>) completion,
                context, p -> wrap.apply(p)));
    }

    @Override
    public CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> completion, Object createContext) {
        long h = createHandle(state, completion, createContext, this::pd);
        Memory out = outPointer();
        int status = call(Layout.ADAPTER_CREATE_PD, ptr, Bridge.CREATE_FN, new Pointer(h), out);
        return created(status, out, this::pd);
    }

    @Override
    public CreateResult<NdkCq> createCq(int queueDepth, CreateCompletion<NdkCq> completion, Object createContext) {
        long h = createHandle(state, completion, createContext, this::cq);
        Memory out = outPointer();
        int status = call(Layout.ADAPTER_CREATE_CQ, ptr, queueDepth, null, null, null, Bridge.CREATE_FN, new Pointer(h), out);
        return created(status, out, this::cq);
    }

    @Override
    public NtStatus buildLam(Mdl mdl, long length, RequestCompletion completion, Object requestContext,
                             NdkLogicalAddressMapping lam) {
        Objects.requireNonNull(mdl, "mdl");
        Objects.requireNonNull(lam, "lam");
        NativeMdl native_ = new NativeMdl(mdl);
        long offered = Integer.toUnsignedLong(lam.lamSize());
        // the buffer the consumer offers; never more than the chain can fill (each frame once, plus one)
        long usable = NdkLogicalAddressMapping.bytesFor(native_.frameCount + 1);
        Memory buffer = new Memory(Math.max(Layout.LAM_PAGES + 8, Math.min(offered, usable)));
        buffer.clear();
        Memory lamSize = new Memory(4);
        lamSize.setInt(0, lam.lamSize());
        Memory fbo = new Memory(4);
        fbo.setInt(0, 0);
        LamCopy copy = new LamCopy(lam, buffer, lamSize, fbo);
        Pointer callback = null;
        Pointer context = null;
        if (completion != null) {
            long h = Bridge.register(state, new Bridge.RequestPending(completion, requestContext, copy::finished, native_));
            callback = Bridge.REQUEST_FN;
            context = new Pointer(h);
        }
        int status = call(Layout.ADAPTER_BUILD_LAM, ptr, native_.first, length, callback, context, buffer, lamSize, fbo);
        if (status != NtStatus.STATUS_PENDING.code()) {
            copy.finished(status);
        }
        return NtStatus.of(status);
    }

    /** Copies what NdkBuildLam wrote into the consumer's {@link NdkLogicalAddressMapping}, once it finished. */
    private record LamCopy(NdkLogicalAddressMapping lam, Memory buffer, Memory lamSize, Memory fbo) {
        void finished(int status) {
            if (status == NtStatus.STATUS_BUFFER_TOO_SMALL.code()) {
                lam.setLamSize(lamSize.getInt(0));
            } else if (status == 0) {
                int count = buffer.getInt(Layout.LAM_PAGE_COUNT);
                long room = (buffer.size() - Layout.LAM_PAGES) / 8;
                int readable = (int) Math.min(Integer.toUnsignedLong(count), room);
                long[] pages = new long[readable];
                buffer.read(Layout.LAM_PAGES, pages, 0, readable);
                lam.setPages(readable, pages);
                lam.setFbo(fbo.getInt(0));
                lam.setLamSize(lamSize.getInt(0));
                lam.setAdapterContext(new NativeLam(buffer));
            }
        }
    }

    /** The native NDK_LOGICAL_ADDRESS_MAPPING of a built LAM, kept as the consumer's AdapterContext for NdkReleaseLam. */
    record NativeLam(Memory buffer) {
    }

    @Override
    public void releaseLam(NdkLogicalAddressMapping lam) {
        Objects.requireNonNull(lam, "lam");
        Memory buffer;
        if (lam.adapterContext() instanceof NativeLam n) {
            buffer = n.buffer();
        } else {
            buffer = new Memory(Layout.LAM_PAGES + 8);
            buffer.clear();
        }
        fn(Layout.ADAPTER_RELEASE_LAM).invokeVoid(new Object[]{ptr, buffer});
    }

    @Override
    public NtStatus connectLoopback(NdkQp a, NdkQp b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        return NtStatus.of(call(Layout.ADAPTER_CONNECT_LOOPBACK, pointerOf(a), pointerOf(b)));
    }

    /** NdkCloseAdapter; waits for its completion when it returns STATUS_PENDING, then forgets the adapter's handles. */
    @Override
    public void close() {
        if (state.closed) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        long h = Bridge.register(state, new Bridge.ClosePending(c -> done.countDown(), null));
        int status = call(Layout.ADAPTER_CLOSE, ptr, Bridge.CLOSE_FN, new Pointer(h));
        boolean interrupted = false;
        while (status == NtStatus.STATUS_PENDING.code() && done.getCount() > 0) {
            try {
                done.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        state.closed = true;
        Bridge.forget(state.pendings);
        Bridge.forgetHost(state.hostHandle);
    }
}
