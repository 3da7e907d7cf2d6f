package org.ndktck.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * Faults of the DEFER checks and of the DEF-2 check held through the quiet period: the reference's objects
 * wrapped, one {@link Hooks} each, named {@code fault:RULE-ID/variant}.
 */
public final class DeferFaults {
    private DeferFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:DEF-4/held-replayed-after-inline-failure",
                "a request with DEFER that fails inline hands the held DEFER requests on (as it must) but keeps them, so the "
                        + "QP's next request without DEFER processes them again (a second CQ entry each)", HeldReplayed::new));
        out.add(Variants.wrapped("fault:DEF-3/deferred-lost-after-inline-failure",
                "after a request with DEFER failed inline on a QP, the QP's later DEFER requests are accepted but their CQ "
                        + "entries never come", DeferredLost::new));
        out.add(Variants.wrapped("fault:DEF-2/late-entry-after-inline-failure",
                "a work request that fails inline gets a CQ entry with its error status 3 ms later, from another thread",
                LateEntry::new));
        return out;
    }

    private static boolean initiator(WorkRequest w) {
        return w.call() != NdkCall.RECEIVE;
    }

    private static boolean deferred(WorkRequest w) {
        return (w.flags() & NdkOpFlags.DEFER) != 0;
    }

    /** Per QP: the DEFER requests accepted since the last hand-on, and those to process again. */
    private static final class Held {
        final List<WorkRequest> pending = new ArrayList<>();
        final List<WorkRequest> replay = new ArrayList<>();
    }

    static final class HeldReplayed implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (!initiator(w)) {
                return inner.apply(w);
            }
            Held held = qp.state(Held::new);
            List<WorkRequest> again = List.of();
            synchronized (held) {
                if (!deferred(w) && !held.replay.isEmpty()) {
                    again = new ArrayList<>(held.replay);
                    held.replay.clear();
                }
            }
            for (WorkRequest r : again) {
                inner.apply(r.withFlags(r.flags() & ~NdkOpFlags.DEFER));
            }
            NtStatus s = inner.apply(w);
            synchronized (held) {
                boolean ok = NtStatus.STATUS_SUCCESS.equals(s);
                if (deferred(w) && ok) {
                    held.pending.add(w);
                } else if (deferred(w)) {
                    // the failure handed the held requests on; the fault forgets to drop them
                    held.replay.addAll(held.pending);
                    held.pending.clear();
                } else if (ok) {
                    held.pending.clear();
                }
            }
            return s;
        }
    }

    static final class DeferredLost implements Hooks {
        private final Set<Object> lost = ConcurrentHashMap.newKeySet();

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            NtStatus s = inner.apply(w);
            if (initiator(w) && deferred(w)) {
                boolean[] failed = qp.state(() -> new boolean[1]);
                synchronized (failed) {
                    if (!NtStatus.STATUS_SUCCESS.equals(s)) {
                        failed[0] = true;
                    } else if (failed[0]) {
                        lost.add(w.context());
                    }
                }
            }
            return s;
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            return Hooks.mapResults(results, inner, e -> e != null && lost.contains(e.requestContext()) ? null : e);
        }
    }

    private static final ScheduledExecutorService LATE = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ndk-fault-late-entry");
        t.setDaemon(true);
        return t;
    });

    static final class LateEntry implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            NtStatus s = inner.apply(request);
            ForwardingCq cq = qp.cqFor(request.type());
            if (s != null && s.isError() && cq != null && initiator(request)) {
                NdkResultEx e = new NdkResultEx(s, 0, qp.qpContext(), request.context(), request.type(), 0);
                LATE.schedule(() -> cq.inject(e), 3, TimeUnit.MILLISECONDS);
            }
            return s;
        }
    }
}
