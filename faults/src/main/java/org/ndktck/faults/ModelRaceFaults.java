package org.ndktck.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Races that only the linearizability check of the kit's model finds ({@code ConcurrentModelProperties}): each
 * provider is correct when one thread at a time calls it, and the concurrent properties that script their threads
 * (registrations at once, deregistrations while other MRs are accessed, writes on QPs sharing one CQ) pass it too.
 * Each breaks a rule only when two calls of different kinds meet on one adapter, as the pages allow them to (every
 * MR, work-request and CQ function at up to DISPATCH_LEVEL, from any processor). Windows are widened as in
 * {@link ConcurrencyFaults#window()}.
 *
 * <ul>
 *   <li>{@code fault:MR-DEREG-3/deferred-read-revocation}: NdkDeregisterMr revokes write access at once and returns
 *       STATUS_SUCCESS, but queues the rest of the revocation to the deregistering thread (as a DPC queued to the
 *       processor that made the call), which runs it the next time it enters the provider (or at NdkCloseMr); until
 *       then a peer NdkRead through the old remote token still brings the region's bytes.</li>
 *   <li>{@code fault:CQ-6/receive-ring-race}: receive entries are moved into a software ring of the receive CQ by
 *       the thread that posts an NdkSend on the connected QP (holding only that QP's lock) and by polls (holding the
 *       CQ's lock); two sends on different QPs whose peers share one receive CQ, at once, store into one slot and
 *       one receive entry is lost.</li>
 *   <li>{@code fault:MR-REG-4/token-table-grow-race}: NdkRegisterMr grows the adapter's token table by copying it,
 *       without keeping readers out; a peer NdkRead or NdkWrite that looks up its token during the copy finds
 *       nothing and completes in error, although its MR is registered.</li>
 * </ul>
 */
public final class ModelRaceFaults {
    private ModelRaceFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:MR-DEREG-3/deferred-read-revocation",
                "NdkDeregisterMr blocks writes through the old token at once and returns STATUS_SUCCESS, but the rest of the "
                        + "revocation runs only when the deregistering thread next calls the provider (or at NdkCloseMr): a "
                        + "read through the old token from another thread in between still brings the bytes (correct from one thread)",
                DeferredRevocation::new));
        out.add(Variants.wrapped("fault:CQ-6/receive-ring-race",
                "receive entries are moved into a software ring by the thread posting a send on the connected QP under that "
                        + "QP's lock only; two sends at once into QPs sharing one receive CQ store into one slot and a receive "
                        + "entry is lost (correct from one thread)", ReceiveRing::new));
        out.add(Variants.wrapped("fault:MR-REG-4/token-table-grow-race",
                "NdkRegisterMr grows the token table by copying it while peer reads and writes keep looking tokens up; one "
                        + "that looks up during the copy completes in error although its MR is registered (correct from one thread)",
                TableGrow::new));
        return out;
    }

    /** Deregistrations whose revocation of reads waits for the deregistering thread's next call. */
    static final class DeferredRevocation implements Hooks {
        private static final RequestCompletion IGNORED = (c, s) -> {
        };
        private final ThreadLocal<List<ForwardingMr>> mine = ThreadLocal.withInitial(ArrayList::new);
        private final Map<ForwardingMr, Runnable> pending = new ConcurrentHashMap<>();
        /** Reference remote tokens whose writes are blocked already. */
        private final Map<Integer, Boolean> writeBlocked = new ConcurrentHashMap<>();
        /** Normal MRs whose NdkRegisterMr succeeded and that were not deregistered since. */
        private final Map<ForwardingMr, Boolean> registered = new ConcurrentHashMap<>();

        private void runPending(ForwardingMr mr) {
            Runnable r = pending.remove(mr);
            if (r != null) {
                r.run();
            }
        }

        @Override
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            List<ForwardingMr> queued = mine.get();
            if (!queued.isEmpty()) {
                List<ForwardingMr> now = new ArrayList<>(queued);
                queued.clear();
                now.forEach(this::runPending);
            }
            return body.get();
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call == NdkCall.REGISTER_MR && target instanceof ForwardingMr m && !m.fastRegister()) {
                RequestCompletion noting = (c, st) -> {
                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                        registered.put(m, true);
                    }
                    completion.complete(c, st);
                };
                NtStatus st = inner.invoke(noting, context);
                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                    registered.put(m, true);
                }
                return st;
            }
            // only the deregistration of a registered normal MR is deferred; every other request passes on
            if (call != NdkCall.DEREGISTER_MR || !(target instanceof ForwardingMr mr) || registered.remove(mr) == null) {
                return inner.invoke(completion, context);
            }
            int token = mr.inner().getRemoteToken();
            writeBlocked.put(token, true);
            pending.put(mr, () -> {
                inner.invoke(IGNORED, null);
                writeBlocked.remove(token);
            });
            mine.get().add(mr);
            return NtStatus.STATUS_SUCCESS;
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, org.ndktck.spec.CloseCompletion completion, Object context, CloseCall inner) {
            if (object instanceof ForwardingMr mr) {
                runPending(mr);
            }
            return inner.invoke(completion, context);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() == NdkCall.WRITE && writeBlocked.containsKey(w.remoteToken())) {
                return inner.apply(w.withRemoteToken(0)); // never a reference token: the write fails
            }
            return inner.apply(w);
        }

        @Override
        public void adapterClosing() {
            new ArrayList<>(pending.keySet()).forEach(this::runPending);
        }
    }

    /** A software ring per CQ, filled by sends on the connected QP without the CQ's lock. */
    static final class ReceiveRing implements Hooks {
        static final class Ring {
            final NdkResultEx[] slots = new NdkResultEx[256];
            volatile int head;
            volatile int tail;
        }

        private final Map<NdkQp, ForwardingQp> peerOf = new ConcurrentHashMap<>();

        private static Ring ring(ForwardingCq cq) {
            return cq.state(Ring::new);
        }

        private static void harvest(Ring r, ToIntFunction<NdkResultEx[]> from) {
            NdkResultEx[] one = new NdkResultEx[1];
            while (r.tail - r.head < r.slots.length - 1) {
                one[0] = null;
                if (from.applyAsInt(one) <= 0 || one[0] == null) {
                    return;
                }
                int t = r.tail;
                ConcurrencyFaults.window();
                r.slots[t & (r.slots.length - 1)] = one[0];
                r.tail = t + 1;
            }
        }

        @Override
        public void connected(NdkQp a, NdkQp b) {
            if (a instanceof ForwardingQp fa && b instanceof ForwardingQp fb) {
                peerOf.put(fa, fb);
                peerOf.put(fb, fa);
            }
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            NtStatus st = inner.apply(w);
            if ((w.call() == NdkCall.SEND || w.call() == NdkCall.SEND_AND_INVALIDATE) && NtStatus.STATUS_SUCCESS.equals(st)) {
                ForwardingQp peer = peerOf.get(qp);
                ForwardingCq cq = peer == null ? null : peer.receiveCq();
                if (cq != null) {
                    synchronized (qp) { // the sending QP's lock, not the CQ's: the defect
                        harvest(ring(cq), cq.inner()::getCqResultsEx);
                    }
                }
            }
            return st;
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            Ring r = ring(cq);
            synchronized (r) {
                harvest(r, inner);
                int h = r.head;
                int n = Math.min(results.length, r.tail - h);
                for (int i = 0; i < n; i++) {
                    int at = (h + i) & (r.slots.length - 1);
                    results[i] = r.slots[at];
                    r.slots[at] = null;
                }
                r.head = h + n;
                return n;
            }
        }
    }

    /** A token table that registrations grow by copying while lookups go on. */
    static final class TableGrow implements Hooks {
        private final AtomicInteger copying = new AtomicInteger();

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call != NdkCall.REGISTER_MR) {
                return inner.invoke(completion, context);
            }
            copying.incrementAndGet();
            try {
                ConcurrencyFaults.window();
                ConcurrencyFaults.window();
            } finally {
                copying.decrementAndGet();
            }
            return inner.invoke(completion, context);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.isReadOrWrite() && copying.get() > 0) {
                return inner.apply(w.withRemoteToken(0)); // the lookup found no entry: the access fails
            }
            return inner.apply(w);
        }
    }
}
