package org.ndktck.faults;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * Faults in the fields of a CQ entry (NDK_RESULT, NDK_RESULT_EX), each the reference provider with one piece changed
 * (a {@link Hooks}), named after the rule the kit must FAIL.
 * <ul>
 *   <li>{@code fault:CQ-6/receive-bytes-first-sge-only}: the BytesTransferred of a successful receive whose SGL has two
 *       or more SGEs counts at most the Length of its first SGE (a receive WQE parser that reads the length of the first
 *       scatter entry only), though the message filled later SGEs too; the bytes themselves land where they belong.
 *       Source: the NDK_RESULT page (BytesTransferred is defined for receive completions), rule CQ-6.</li>
 * </ul>
 */
public final class CompletionEntryFaults implements NdkProviderSource {

    @Override
    public java.util.Collection<NdkProvider> providers() {
        return List.of(Variants.wrapped("fault:CQ-6/receive-bytes-first-sge-only", "a receive of two or more SGEs reports "
                + "BytesTransferred of at most its first SGE's Length, though the message filled later SGEs too", ReceiveBytesFirstSgeOnly::new));
    }

    /** Caps a multi-SGE receive's BytesTransferred at the Length of its first SGE. */
    static final class ReceiveBytesFirstSgeOnly implements Hooks {
        /** RequestContext of each posted receive (by identity) to its SGL. */
        private final Map<Object, NdkSge[]> receives = Collections.synchronizedMap(new IdentityHashMap<>());

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() == NdkCall.RECEIVE && w.context() != null && w.sgl() != null && w.sgl().length >= 2) {
                receives.put(w.context(), w.sgl());
            }
            return inner.apply(w);
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            return Hooks.mapResults(results, inner, e -> {
                boolean receive = e.type() == NdkOperationType.RECEIVE || e.type() == NdkOperationType.RECEIVE_AND_INVALIDATE;
                NdkSge[] sgl = receive && e.requestContext() != null ? receives.remove(e.requestContext()) : null;
                if (sgl == null || !e.status().isSuccess() || Integer.compareUnsigned(e.bytesTransferred(), sgl[0].length()) <= 0) {
                    return e;
                }
                return new NdkResultEx(e.status(), sgl[0].length(), e.qpContext(), e.requestContext(), e.type(), e.typeSpecificCompletionOutput());
            });
        }
    }
}
