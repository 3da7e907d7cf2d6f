package org.ndktck.faults;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * Faults of the limit checks: the reference's objects wrapped, one {@link Hooks} each, named
 * {@code fault:RULE-ID/variant} after the rule the kit must FAIL for them.
 */
public final class LimitFaults {
    private LimitFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:RW-5/full-cq-loses-newest",
                "a CQ created with a QueueDepth below 64 gets a ring of exactly that size whose full check is off by one "
                        + "(full looks empty): it holds only QueueDepth - 1 entries, so when QueueDepth entries wait in it at "
                        + "once the newest is lost (larger CQs get a rounded-up ring and work)", FullLosesNewest::new));
        out.add(Variants.wrapped("fault:LIM-1/small-send-queue-drops-filling-request",
                "a QP created with an InitiatorQueueDepth below " + SMALL_QUEUE + " gets a send ring of exactly that size whose "
                        + "full check is off by one: the initiator request that would fill it (QueueDepth - 1 requests posted "
                        + "whose CQ entries are not yet removed) is answered STATUS_SUCCESS and silently dropped, never "
                        + "completing (QPs of " + SMALL_QUEUE + " or more get a rounded-up ring and work)", SmallQueueDropsFillingRequest::new));
        out.add(FaultDefaults.withDefaults(Variants.wrapped("fault:COV-4/last-sge-dropped-at-adapter-limit",
                "the adapter reports 32 SGEs a request (maxSge=32 by default); a WQE holds " + INLINE_SGES + " SGEs and the rest "
                        + "in an extension block whose length is computed one short, so an NdkWrite, NdkRead or NdkSend with "
                        + "exactly its QP's MaxInitiatorRequestSge SGEs, when that is above " + INLINE_SGES + ", loses its last SGE "
                        + "and still completes with success", LastSgeDroppedAtLimit::new), Map.of("maxSge", "32")));
        out.add(Variants.wrapped("fault:LIM-2/slot-leaked-on-close",
                "the adapter's MR table has " + MR_SLOTS + " slots and NdkCloseMr never returns a slot to its free list, so "
                        + "after " + MR_SLOTS + " NdkCreateMr calls on one adapter every create fails with "
                        + "STATUS_INSUFFICIENT_RESOURCES, however few MRs are live", SlotLeakedOnClose::new));
        out.add(FaultDefaults.withDefaults(Variants.wrapped("fault:COV-2/frmr-middle-page-shifted",
                "FRMRPageCount is 256 by default; a fast registration of exactly FRMRPageCount pages fills both halves of "
                        + "a two-level page list, and the first entry of the second half is copied from the last entry of the "
                        + "first, so page FRMRPageCount / 2 maps to the frame of the page before it (first and last pages "
                        + "are right; smaller registrations are right)", FrmrMiddlePageShifted::new), Map.of("frmrPageCount", "256")));
        return out;
    }

    /** InitiatorQueueDepth below which {@code fault:LIM-1/small-send-queue-drops-filling-request} sizes a send ring exactly (and wrongly). */
    static final int SMALL_QUEUE = 16;
    /** SGEs a WQE of {@code fault:COV-4/last-sge-dropped-at-adapter-limit} holds before its extension block. */
    static final int INLINE_SGES = 16;
    /** MR slots of {@code fault:LIM-2/slot-leaked-on-close}. */
    static final int MR_SLOTS = 128;

    /** Counts the initiator requests of each small QP whose entries are not yet removed; drops the one that fills the ring. */
    static final class SmallQueueDropsFillingRequest implements Hooks {
        /** RequestContext of each outstanding initiator request → its QP. */
        private final Map<Object, ForwardingQp> outstanding = new ConcurrentHashMap<>();

        @Override
        public synchronized NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            int depth = qp.initiatorQueueDepth();
            if (w.call() == NdkCall.RECEIVE || depth <= 0 || depth >= SMALL_QUEUE || w.context() == null) {
                return inner.apply(w);
            }
            long held = outstanding.values().stream().filter(q -> q == qp).count();
            if (held >= depth - 1) {
                return NtStatus.STATUS_SUCCESS; // the slot that would make the ring look empty: never handed to the device
            }
            NtStatus st = inner.apply(w);
            if (NtStatus.STATUS_SUCCESS.equals(st) && (w.flags() & NdkOpFlags.SILENT_SUCCESS) == 0) {
                outstanding.put(w.context(), qp);
            }
            return st;
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            int n = inner.applyAsInt(results);
            for (int i = 0; i < n; i++) {
                if (results[i] != null && results[i].requestContext() != null) {
                    outstanding.remove(results[i].requestContext());
                }
            }
            return n;
        }
    }

    /** Drops the last SGE of an initiator data request that fills its QP's MaxInitiatorRequestSge above {@link #INLINE_SGES}. */
    static final class LastSgeDroppedAtLimit implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            NdkSge[] sgl = w.sgl();
            if (sgl != null && w.call() != NdkCall.RECEIVE && (w.flags() & NdkOpFlags.INLINE) == 0 && sgl.length > INLINE_SGES
                    && sgl.length == qp.maxInitiatorRequestSge()) {
                return inner.apply(w.withSgl(Arrays.copyOf(sgl, sgl.length - 1)));
            }
            return inner.apply(w);
        }
    }

    /** Counts every NdkCreateMr of the adapter and never gives a slot back. */
    static final class SlotLeakedOnClose implements Hooks {
        private final AtomicInteger used = new AtomicInteger();

        @Override
        public CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx,
                                            CreateCall<NdkMr> inner) {
            if (used.get() >= MR_SLOTS) {
                return CreateResult.failed(NtStatus.STATUS_INSUFFICIENT_RESOURCES);
            }
            used.incrementAndGet();
            return inner.invoke(c, ctx);
        }
    }

    /** Maps page FRMRPageCount / 2 of a fast registration of exactly FRMRPageCount pages to the frame of the page before. */
    static final class FrmrMiddlePageShifted implements Hooks {
        private ForwardingAdapter adapter;
        private volatile long frmr;

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() != NdkCall.FAST_REGISTER || w.adapterPageArray() == null) {
                return inner.apply(w);
            }
            if (frmr == 0 && adapter != null) {
                frmr = adapter.queryAdapterInfo().unsignedFrmrPageCount();
            }
            long[] pages = w.adapterPageArray();
            if (frmr >= 4 && Integer.toUnsignedLong(w.adapterPageCount()) == frmr && pages.length >= frmr) {
                long[] shifted = pages.clone();
                int mid = (int) (frmr / 2);
                shifted[mid] = shifted[mid - 1];
                return inner.apply(w.withAdapterPageArray(shifted));
            }
            return inner.apply(w);
        }
    }

    /** QueueDepth below which {@code fault:RW-5/full-cq-loses-newest} sizes a ring exactly (and wrongly). */
    static final int EXACT_BELOW = 64;

    static final class FullLosesNewest implements Hooks {
        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            int depth = cq.queueDepth();
            if (depth <= 0 || depth >= EXACT_BELOW) {
                return inner.applyAsInt(results);
            }
            Deque<NdkResultEx> waiting = cq.state(ArrayDeque::new);
            synchronized (waiting) {
                // everything the wrapped CQ holds now is "in the ring"; the entry that fills it is lost
                for (NdkResultEx[] more = new NdkResultEx[depth]; ; ) {
                    int n = inner.applyAsInt(more);
                    for (int i = 0; i < n; i++) {
                        if (waiting.size() < depth - 1) {
                            waiting.add(more[i]);
                        }
                    }
                    if (n < more.length) {
                        break;
                    }
                }
                int out = 0;
                while (out < results.length && !waiting.isEmpty()) {
                    results[out++] = waiting.poll();
                }
                return out;
            }
        }
    }
}
