package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.CloseCompletion;

/**
 * Faults where a request meets a flush: correct on a QP that is never flushed, or flushed once with nothing posted
 * after, so only a sequence that posts on a QP after NdkFlush (a rarely reached phase) shows them.
 *
 * <ul>
 *   <li>{@code fault:FL-1/receive-after-flush-never-cancelled}: an NdkReceive posted on a QP that was already flushed is
 *       put in a side list that no later NdkFlush looks at, so it stays pending through the next flush (FL-1); the QP's
 *       close still cancels it.</li>
 *   <li>{@code fault:RW-5/silent-cancel-unreported}: a request with SILENT_SUCCESS that completes with STATUS_CANCELLED
 *       (the provider cancels requests posted on a flushed QP) loses its CQ entry, as if SILENT_SUCCESS suppressed
 *       every status that is not an error of the request itself (RW-5: only a success is silent).</li>
 *   <li>{@code fault:DEF-3/flush-drops-deferred}: a request posted with DEFER that is still held back when its QP is
 *       flushed is thrown away: its CANCELLED entry never comes, though its post returned STATUS_SUCCESS and the
 *       consumer ended the chain (DEF-3; a C provider that empties its held list at NdkFlush instead of cancelling it
 *       behaves so).</li>
 * </ul>
 */
final class FlushFaults {
    private FlushFaults() {
    }

    static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:FL-1/receive-after-flush-never-cancelled",
                "an NdkReceive posted after an NdkFlush is not cancelled by a later NdkFlush of its QP", ReceiveAfterFlush::new));
        out.add(Variants.wrapped("fault:RW-5/silent-cancel-unreported",
                "a request with SILENT_SUCCESS that completes with STATUS_CANCELLED gets no CQ entry",
                () -> new SilentCancel(NdkOpFlags.SILENT_SUCCESS)));
        out.add(Variants.wrapped("fault:DEF-3/flush-drops-deferred",
                "a request posted with DEFER that NdkFlush cancels gets no CQ entry", () -> new SilentCancel(NdkOpFlags.DEFER)));
        return out;
    }

    /** Receives posted on a flushed QP wait in a side list; a later flush skips them, a close cancels them. */
    static final class ReceiveAfterFlush implements Hooks {
        private final Set<NdkObject> flushed = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Map<ForwardingQp, List<Object>> held = new IdentityHashMap<>();

        @Override
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            T r = body.get();
            if (call == NdkCall.FLUSH) {
                synchronized (this) {
                    flushed.add(target);
                }
            }
            return r;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.RECEIVE) {
                synchronized (this) {
                    if (flushed.contains(qp)) {
                        held.computeIfAbsent(qp, k -> new ArrayList<>()).add(request.context());
                        return NtStatus.STATUS_SUCCESS;
                    }
                }
            }
            return inner.apply(request);
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            if (call == NdkCall.CLOSE_QP && object instanceof ForwardingQp qp) {
                List<Object> mine;
                synchronized (this) {
                    mine = held.remove(qp);
                }
                if (mine != null) {
                    for (Object c : mine) {
                        qp.receiveCq().inject(new NdkResultEx(NtStatus.STATUS_CANCELLED, 0, qp.qpContext(), c, NdkOperationType.RECEIVE, 0));
                    }
                }
            }
            return inner.invoke(completion, context);
        }
    }

    /** Drops the CANCELLED entries of requests posted with a flag (SILENT_SUCCESS, or DEFER). */
    static final class SilentCancel implements Hooks {
        private final Set<Object> silent = Collections.newSetFromMap(new IdentityHashMap<>());
        private final int flag;

        /** @param flag the NDK_OP_FLAG_* value whose requests lose their CANCELLED entries */
        SilentCancel(int flag) {
            this.flag = flag;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if ((request.flags() & flag) != 0 && request.context() != null) {
                synchronized (silent) {
                    silent.add(request.context());
                }
            }
            return inner.apply(request);
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            while (true) {
                int n = inner.applyAsInt(results);
                int kept = 0;
                for (int i = 0; i < n; i++) {
                    NdkResultEx e = results[i];
                    boolean drop;
                    synchronized (silent) {
                        drop = NtStatus.STATUS_CANCELLED.equals(e.status()) && silent.contains(e.requestContext());
                    }
                    if (!drop) {
                        results[kept++] = e;
                    }
                }
                for (int i = kept; i < n; i++) {
                    results[i] = null;
                }
                if (kept > 0 || n == 0) {
                    return kept; // 0 only when the wrapped CQ is empty
                }
            }
        }
    }
}
