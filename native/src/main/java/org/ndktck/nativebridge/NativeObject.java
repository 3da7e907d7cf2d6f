package org.ndktck.nativebridge;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;

import java.util.Objects;

/**
 * What the Java stand-ins of C objects share: the C pointer (an NDK object: NDK_OBJECT_HEADER, then its
 * Dispatch table), the adapter state, calls through the dispatch table and the close (NDK_FN_CLOSE_OBJECT).
 */
abstract class NativeObject implements NdkObject {
    final AdapterState state;
    final Pointer ptr;
    private volatile NdkObjectHeader header;

    NativeObject(AdapterState state, Pointer ptr) {
        this.state = state;
        this.ptr = ptr;
    }

    /** Reads NDK_OBJECT_HEADER (Version, ObjectType) once; an ObjectType outside the enum reads as UNDEFINED. */
    @Override
    public NdkObjectHeader header() {
        NdkObjectHeader h = header;
        if (h == null) {
            int major = ptr.getShort(Layout.HEADER_MAJOR) & 0xFFFF;
            int minor = ptr.getShort(Layout.HEADER_MINOR) & 0xFFFF;
            int type = ptr.getInt(Layout.HEADER_OBJECT_TYPE);
            NdkObjectType t = NdkObjectType.UNDEFINED;
            for (NdkObjectType x : NdkObjectType.values()) {
                if (x.value() == type) {
                    t = x;
                }
            }
            h = new NdkObjectHeader(new NdkVersion(major, minor), t);
            header = h;
        }
        return h;
    }

    Function fn(int index) {
        return Bridge.dispatch(ptr, index);
    }

    int call(int index, Object... args) {
        int result = fn(index).invokeInt(args);
        HostRelay relay = state.factory.library.relay;
        if (relay != null) {
            relay.check(result, ptr, HostRelay.member(this, index));
        }
        return result;
    }

    /** NDK_FN_CLOSE_OBJECT through member {@code index}. */
    NtStatus closeThrough(int index, CloseCompletion completion, Object closeContext) {
        Objects.requireNonNull(completion, "completion");
        long h = Bridge.register(state, new Bridge.ClosePending(completion, closeContext));
        return NtStatus.of(call(index, ptr, Bridge.CLOSE_FN, new Pointer(h)));
    }

    /** @return the C pointer of a Java stand-in of this adapter's objects, or NULL for anything else */
    Pointer pointerOf(NdkObject o) {
        if (o instanceof NativeObject n && !n.state.closed) {
            return n.ptr;
        }
        return null;
    }

    static Memory outPointer() {
        Memory out = new Memory(8);
        out.setPointer(0, null);
        return out;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@0x" + Long.toHexString(Pointer.nativeValue(ptr));
    }
}
