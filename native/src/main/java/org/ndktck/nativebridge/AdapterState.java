package org.ndktck.nativebridge;

import com.sun.jna.Pointer;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.NdkObject;

/**
 * What the bridge keeps per open native adapter: its host memory handle, the Java objects that stand for its
 * C objects (one per pointer, so the kit always gets the same object back), the consumer contexts handed to
 * C as handles, and the pending calls to forget when it closes.
 */
final class AdapterState {
    final NativeFactory factory;
    final HostMemory memory;
    final long hostHandle;
    final Queue<Long> pendings = new ConcurrentLinkedQueue<>();
    private final Map<Long, Object> contexts = new ConcurrentHashMap<>();
    private final Map<Long, NdkObject> objects = new ConcurrentHashMap<>();
    volatile boolean closed;

    AdapterState(NativeFactory factory, HostMemory memory, long hostHandle) {
        this.factory = factory;
        this.memory = memory;
        this.hostHandle = hostHandle;
    }

    /** @return the handle that stands for {@code context} in C (0 for null; a fresh one for every call) */
    long context(Object context) {
        if (context == null) {
            return 0;
        }
        long h = Bridge.handle();
        contexts.put(h, context);
        return h;
    }

    /** @return the Java context behind a handle the provider gave back; a handle never given is a {@link ForeignContext} */
    Object contextOf(long handle) {
        if (handle == 0) {
            return null;
        }
        Object o = contexts.get(handle);
        return o != null ? o : new ForeignContext(handle);
    }

    /** @return the one Java object for a C object pointer, made by {@code make} the first time */
    @SuppressWarnings("unchecked")
    <T extends NdkObject> T object(Pointer p, Function<Pointer, T> make) {
        return (T) objects.computeIfAbsent(Pointer.nativeValue(p), k -> make.apply(p));
    }

    /**
     * A context value the provider put in a CQ entry that the bridge never handed to it (a provider bug the kit
     * reports, CQ-2).
     *
     * @param handle the pointer-sized value found
     */
    record ForeignContext(long handle) {
        @Override
        public String toString() {
            return String.format("native context 0x%X never given to the provider", handle);
        }
    }
}
