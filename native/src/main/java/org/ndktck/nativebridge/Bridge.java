package org.ndktck.nativebridge;

import com.sun.jna.Callback;
import com.sun.jna.CallbackReference;
import com.sun.jna.Function;
import com.sun.jna.Pointer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The C side's way back into Java: the three NDKPI completion callbacks and the two host services
 * (ReadFrame, WriteFrame), each one JNA callback shared by every adapter, and the handles that stand for Java
 * objects in C (a request's context, a QP's context, the host of an adapter).
 *
 * <p>A completion's {@code Context} is a handle to a {@link Pending} call: which SPI completion to call, with
 * which consumer context. Every call the provider makes is forwarded, also a second one or one after an
 * inline return, so the kit judges the provider (GEN-CB-1, GEN-CB-2); a handle the bridge never gave out is
 * dropped (the kit then sees no completion). Completions may come on any thread: JNA attaches a C thread to
 * the JVM for the call. No exception ever goes back into C.
 */
final class Bridge {
    private Bridge() {
    }

    /** NDK_FN_REQUEST_COMPLETION. */
    interface RequestCallback extends Callback {
        void invoke(Pointer context, int status);
    }

    /** NDK_FN_CREATE_COMPLETION. */
    interface CreateCallback extends Callback {
        void invoke(Pointer context, int status, Pointer object);
    }

    /** NDK_FN_CLOSE_COMPLETION. */
    interface CloseCallback extends Callback {
        void invoke(Pointer context);
    }

    /** NDK_TCK_FN_READ_FRAME / NDK_TCK_FN_WRITE_FRAME. */
    interface FrameCallback extends Callback {
        int invoke(Pointer hostContext, long pfn, int offset, Pointer buffer, int length);
    }

    /** A call that may complete through a callback. */
    sealed interface Pending permits RequestPending, CreatePending, ClosePending {
    }

    /**
     * @param completion the consumer's completion
     * @param context    the consumer's request context
     * @param before     runs before the completion (copies a LAM out of native memory), or null
     * @param keepAlive  native memory the provider may still read until it completes (an MDL), or null
     */
    record RequestPending(RequestCompletion completion, Object context, java.util.function.IntConsumer before,
                          Object keepAlive) implements Pending {
    }

    /**
     * @param completion the consumer's completion
     * @param context    the consumer's create context
     * @param wrap       makes the SPI object for the pointer the provider hands back
     */
    record CreatePending(CreateCompletion<NdkObject> completion, Object context,
                         java.util.function.Function<Pointer, NdkObject> wrap) implements Pending {
    }

    /**
     * @param completion the consumer's completion
     * @param context    the consumer's close context
     */
    record ClosePending(CloseCompletion completion, Object context) implements Pending {
    }

    private static final AtomicLong NEXT = new AtomicLong(0x1000);
    private static final ConcurrentHashMap<Long, Pending> PENDING = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Long, HostMemory> HOSTS = new ConcurrentHashMap<>();

    static final RequestCallback REQUEST = (context, status) -> {
        try {
            if (PENDING.get(Pointer.nativeValue(context)) instanceof RequestPending p) {
                if (p.before() != null) {
                    p.before().accept(status);
                }
                p.completion().complete(p.context(), NtStatus.of(status));
            }
        } catch (Throwable ignored) {
            // never back into C; the kit has recorded what it saw
        }
    };

    static final CreateCallback CREATE = (context, status, object) -> {
        try {
            if (PENDING.get(Pointer.nativeValue(context)) instanceof CreatePending p) {
                p.completion().complete(p.context(), NtStatus.of(status), object == null ? null : p.wrap().apply(object));
            }
        } catch (Throwable ignored) {
            // never back into C
        }
    };

    static final CloseCallback CLOSE = context -> {
        try {
            if (PENDING.get(Pointer.nativeValue(context)) instanceof ClosePending p) {
                p.completion().complete(p.context());
            }
        } catch (Throwable ignored) {
            // never back into C
        }
    };

    static final FrameCallback READ_FRAME = (host, pfn, offset, buffer, length) -> frame(host, pfn, offset, buffer, length, false);
    static final FrameCallback WRITE_FRAME = (host, pfn, offset, buffer, length) -> frame(host, pfn, offset, buffer, length, true);

    static final Pointer REQUEST_FN = CallbackReference.getFunctionPointer(REQUEST);
    static final Pointer CREATE_FN = CallbackReference.getFunctionPointer(CREATE);
    static final Pointer CLOSE_FN = CallbackReference.getFunctionPointer(CLOSE);
    static final Pointer READ_FRAME_FN = CallbackReference.getFunctionPointer(READ_FRAME);
    static final Pointer WRITE_FRAME_FN = CallbackReference.getFunctionPointer(WRITE_FRAME);

    private static int frame(Pointer host, long pfn, int offset, Pointer buffer, int length, boolean write) {
        try {
            HostMemory memory = HOSTS.get(Pointer.nativeValue(host));
            if (memory == null || buffer == null || offset < 0 || length < 0 || offset > memory.pageSize() - length) {
                return NtStatus.STATUS_INVALID_PARAMETER.code();
            }
            byte[] bytes = new byte[length];
            if (write) {
                buffer.read(0, bytes, 0, length);
                memory.write(pfn, offset, bytes, 0, length);
            } else {
                memory.read(pfn, offset, bytes, 0, length);
                buffer.write(0, bytes, 0, length);
            }
            return NtStatus.STATUS_SUCCESS.code();
        } catch (Throwable e) {
            return NtStatus.STATUS_INVALID_PARAMETER.code();
        }
    }

    /** @return a fresh handle, never 0 */
    static long handle() {
        return NEXT.getAndIncrement();
    }

    /** Registers a pending call under a fresh handle, owned by {@code owner} (dropped when it closes). */
    static long register(AdapterState owner, Pending pending) {
        long h = handle();
        PENDING.put(h, pending);
        owner.pendings.add(h);
        return h;
    }

    /** Forgets pending calls (at NdkCloseAdapter, once every callback has returned). */
    static void forget(Iterable<Long> handles) {
        for (Long h : handles) {
            PENDING.remove(h);
        }
    }

    /** Registers host memory under a fresh handle: the HostContext of an adapter. */
    static long host(HostMemory memory) {
        long h = handle();
        HOSTS.put(h, memory);
        return h;
    }

    /** Forgets a host (after NdkCloseAdapter returned). */
    static void forgetHost(long h) {
        HOSTS.remove(h);
    }

    /** A function of a dispatch table, cached by its address. */
    private static final ConcurrentHashMap<Long, Function> FUNCTIONS = new ConcurrentHashMap<>();

    /**
     * @param object an NDK object (Header, then Dispatch)
     * @param index  the member's index in its dispatch table
     * @return the function the member points at
     * @throws IllegalStateException when the object has no dispatch table or the member is NULL
     */
    static Function dispatch(Pointer object, int index) {
        Pointer table = object.getPointer(Layout.OBJECT_DISPATCH);
        if (table == null) {
            throw new IllegalStateException("the native object at 0x" + Long.toHexString(Pointer.nativeValue(object)) + " has no Dispatch table");
        }
        Pointer fn = table.getPointer((long) index * Layout.POINTER);
        if (fn == null) {
            throw new IllegalStateException("dispatch member " + index + " of the native object is NULL");
        }
        return FUNCTIONS.computeIfAbsent(Pointer.nativeValue(fn), k -> Function.getFunction(fn));
    }
}
