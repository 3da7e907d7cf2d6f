package org.ndktck.nativebridge;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * The Java stand-in of a C NDK_CQ (NDK_CQ_DISPATCH). Context handles in the entries become the consumer's
 * objects again; a handle the bridge never gave out stays visible as an {@link AdapterState.ForeignContext}.
 * An operation type outside NDK_OPERATION_TYPE reads as null.
 */
final class NativeCq extends NativeObject implements NdkCq {
    NativeCq(NativeAdapter adapter, Pointer ptr) {
        super(adapter.state, ptr);
    }

    @Override
    public int getCqResults(NdkResult[] results) {
        Objects.requireNonNull(results, "results");
        Memory buf = new Memory((long) Math.max(1, results.length) * Layout.RESULT_SIZE);
        int n = call(Layout.CQ_GET_RESULTS, ptr, buf, results.length);
        int k = (int) Math.min(Integer.toUnsignedLong(n), results.length);
        for (int i = 0; i < k; i++) {
            long at = (long) i * Layout.RESULT_SIZE;
            results[i] = new NdkResult(NtStatus.of(buf.getInt(at)), buf.getInt(at + 4),
                    state.contextOf(buf.getLong(at + 8)), state.contextOf(buf.getLong(at + 16)));
        }
        return k;
    }

    @Override
    public int getCqResultsEx(NdkResultEx[] results) {
        Objects.requireNonNull(results, "results");
        Memory buf = new Memory((long) Math.max(1, results.length) * Layout.RESULT_EX_SIZE);
        int n = call(Layout.CQ_GET_RESULTS_EX, ptr, buf, results.length);
        int k = (int) Math.min(Integer.toUnsignedLong(n), results.length);
        for (int i = 0; i < k; i++) {
            long at = (long) i * Layout.RESULT_EX_SIZE;
            int type = buf.getInt(at + 24);
            NdkOperationType t = null;
            for (NdkOperationType x : NdkOperationType.values()) {
                if (x.value() == type) {
                    t = x;
                }
            }
            results[i] = new NdkResultEx(NtStatus.of(buf.getInt(at)), buf.getInt(at + 4),
                    state.contextOf(buf.getLong(at + 8)), state.contextOf(buf.getLong(at + 16)), t, buf.getLong(at + 32));
        }
        return k;
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeThrough(Layout.CQ_CLOSE, completion, closeContext);
    }
}
