package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * Faults where a request flag (NDK_OP_FLAG_SILENT_SUCCESS, NDK_OP_FLAG_READ_FENCE) meets another flag or another kind
 * of request than the ones a per-rule scenario pairs it with; each is the reference provider with one piece changed (a
 * {@link Hooks}), named after the rule the kit must FAIL.
 * <ul>
 *   <li>{@code fault:RW-5/silent-error-after-defer-dropped}: a request with SILENT_SUCCESS posted right after a request
 *       with DEFER on the same QP loses its error entry when it fails (the doorbell path that ends a deferred run applies
 *       the silent bit to the error case too); alone, or after a request without DEFER, it fails with its entry. Source:
 *       the NdkWrite, NdkRead and NdkSend pages (a request that fails generates an entry even with SILENT_SUCCESS).</li>
 *   <li>{@code fault:INV-5/silent-send-and-invalidate-plain}: an NdkSendAndInvalidate with SILENT_SUCCESS goes out as a
 *       plain send (the silent fast path builds a Send WQE), so the receiver completes a plain receive and the named
 *       token stays valid. Source: the NdkSendAndInvalidate page (the receiver's adapter invalidates the token).</li>
 *   <li>{@code fault:RW-6/fence-ignored-for-send}: an NdkRead with DEFER on a connected QP is held back until the next
 *       request of its QP without DEFER; that request waits for the held reads when it is an NdkWrite, NdkRead, NdkFastRegister or
 *       NdkInvalidate, but an NdkSend or NdkSendAndInvalidate goes first, READ_FENCE or not, so a fenced send of the
 *       read's sink carries the bytes the sink held before the read. Held reads are submitted before a flush or close of
 *       their QP; one whose late submission fails completes with an error entry. Source: the NdkSend page (READ_FENCE:
 *       every earlier read completes before the request is processed).</li>
 *   <li>{@code fault:RW-6/fence-waits-only-for-its-own-memory}: on a connected QP every NdkRead is handed to the adapter
 *       only at the next NdkGetCqResults(Ex) of any CQ (or a flush or close of its QP, or an NdkFastRegister, NdkInvalidate,
 *       NdkDeregisterMr or NdkCloseMr), as an adapter that processes reads late does; a request with READ_FENCE waits
 *       for those reads only when one of them has the token of the fenced request's first SGE, so a fenced NdkWrite or
 *       NdkSend whose first SGE lies in another registration goes before them. One whose late submission fails
 *       completes with an error entry. Source: the NdkWrite and NdkSend pages (READ_FENCE: every earlier read).</li>
 * </ul>
 */
public final class RequestFlagFaults implements NdkProviderSource {

    @Override
    public Collection<NdkProvider> providers() {
        return List.of(
                Variants.wrapped("fault:RW-5/silent-error-after-defer-dropped", "a SILENT_SUCCESS request posted right after a DEFER "
                        + "request of its QP gets no entry when it fails", SilentErrorAfterDeferDropped::new),
                Variants.wrapped("fault:INV-5/silent-send-and-invalidate-plain", "an NdkSendAndInvalidate with SILENT_SUCCESS is "
                        + "sent as a plain NdkSend: the receiver invalidates nothing", SilentSendAndInvalidatePlain::new),
                Variants.wrapped("fault:RW-6/fence-ignored-for-send", "an NdkSend with READ_FENCE goes before the NdkReads of its QP "
                        + "held back with DEFER (fenced writes wait for them)", FenceIgnoredForSend::new),
                Variants.wrapped("fault:RW-6/fence-waits-only-for-its-own-memory", "reads run at the next CQ poll; a request "
                        + "with READ_FENCE waits for them only when one used the token of its first SGE", FenceWaitsOnlyForItsOwnMemory::new));
    }

    /** Drops the error entry of a SILENT_SUCCESS request that came right after a DEFER request of its QP. */
    static final class SilentErrorAfterDeferDropped implements Hooks {
        private final Set<Object> unreported = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() != NdkCall.RECEIVE) {
                boolean[] lastDeferred = qp.state(() -> new boolean[1]);
                synchronized (lastDeferred) {
                    if (lastDeferred[0] && (w.flags() & NdkOpFlags.SILENT_SUCCESS) != 0 && w.context() != null) {
                        unreported.add(w.context());
                    }
                    lastDeferred[0] = (w.flags() & NdkOpFlags.DEFER) != 0;
                }
            }
            return inner.apply(w);
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            return Hooks.mapResults(results, inner, e -> !e.status().isSuccess() && e.requestContext() != null
                    && unreported.remove(e.requestContext()) ? null : e);
        }
    }

    /** Posts a SILENT_SUCCESS NdkSendAndInvalidate as an NdkSend with the same SGL and flags. */
    static final class SilentSendAndInvalidatePlain implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() == NdkCall.SEND_AND_INVALIDATE && (w.flags() & NdkOpFlags.SILENT_SUCCESS) != 0) {
                return inner.apply(new WorkRequest(NdkCall.SEND, w.context(), null, 0, null, 0, 0, 0, w.sgl(), 0, 0, w.flags()));
            }
            return inner.apply(w);
        }
    }

    /** Holds DEFER reads of connected QPs until the next request without DEFER; a send of that QP goes before them. */
    static final class FenceIgnoredForSend implements Hooks {
        private final Map<ForwardingQp, List<Runnable>> held = new IdentityHashMap<>();
        private final Set<NdkQp> connected = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

        @Override
        public void connected(NdkQp a, NdkQp b) {
            connected.add(a);
            connected.add(b);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() == NdkCall.READ && (w.flags() & NdkOpFlags.DEFER) != 0 && connected.contains(qp)) {
                synchronized (this) {
                    held.computeIfAbsent(qp, k -> new ArrayList<>()).add(() -> {
                        NtStatus late = inner.apply(w.withFlags(w.flags() & ~NdkOpFlags.DEFER));
                        if (!NtStatus.STATUS_SUCCESS.equals(late)) {
                            // the consumer was told STATUS_SUCCESS: a failure now can only reach it as an error entry
                            qp.initiatorCq().inject(new NdkResultEx(late, 0, qp.qpContext(), w.context(), w.type(), 0));
                        }
                    });
                }
                return NtStatus.STATUS_SUCCESS;
            }
            if ((w.flags() & NdkOpFlags.DEFER) != 0 || w.call() == NdkCall.RECEIVE) {
                return inner.apply(w);
            }
            boolean send = w.call() == NdkCall.SEND || w.call() == NdkCall.SEND_AND_INVALIDATE;
            if (!send) {
                submit(qp);
            }
            NtStatus r = inner.apply(w);
            submit(qp);
            return r;
        }

        private void submit(ForwardingQp qp) {
            List<Runnable> mine;
            synchronized (this) {
                mine = held.remove(qp);
            }
            if (mine != null) {
                mine.forEach(Runnable::run);
            }
        }

        @Override
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            if (call == NdkCall.FLUSH && target instanceof ForwardingQp qp) {
                submit(qp);
            }
            return body.get();
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            if (object instanceof ForwardingQp qp) {
                submit(qp);
            }
            return inner.invoke(completion, context);
        }
    }

    /** Holds reads of connected QPs until the next CQ poll; a fenced request waits only for reads with its first SGE's token. */
    static final class FenceWaitsOnlyForItsOwnMemory implements Hooks {
        private final Set<NdkQp> connected = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        private final List<WorkRequest> heldReads = new ArrayList<>();
        private final List<Runnable> held = new ArrayList<>();

        @Override
        public void connected(NdkQp a, NdkQp b) {
            connected.add(a);
            connected.add(b);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            boolean submitFirst;
            synchronized (this) {
                if (w.call() == NdkCall.READ && w.sgl() != null && w.sgl().length > 0 && connected.contains(qp)) {
                    heldReads.add(w);
                    held.add(() -> {
                        NtStatus late = inner.apply(w.withFlags(w.flags() & ~NdkOpFlags.DEFER));
                        if (!NtStatus.STATUS_SUCCESS.equals(late)) {
                            qp.initiatorCq().inject(new NdkResultEx(late, 0, qp.qpContext(), w.context(), w.type(), 0));
                        }
                    });
                    return NtStatus.STATUS_SUCCESS;
                }
                if ((w.flags() & NdkOpFlags.READ_FENCE) != 0 && w.sgl() != null && w.sgl().length > 0) {
                    int token = w.sgl()[0].memoryRegionToken();
                    submitFirst = heldReads.stream().anyMatch(r -> r.sgl()[0].memoryRegionToken() == token);
                } else {
                    submitFirst = w.call() == NdkCall.FAST_REGISTER || w.call() == NdkCall.INVALIDATE;
                }
            }
            if (submitFirst) {
                submitAll();
            }
            return inner.apply(w);
        }

        private void submitAll() {
            List<Runnable> mine;
            synchronized (this) {
                mine = new ArrayList<>(held);
                held.clear();
                heldReads.clear();
            }
            mine.forEach(Runnable::run);
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            submitAll();
            return inner.applyAsInt(results);
        }

        @Override
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            if (call == NdkCall.FLUSH || call == NdkCall.CLOSE_QP || call == NdkCall.DEREGISTER_MR || call == NdkCall.CLOSE_MR) {
                submitAll();
            }
            return body.get();
        }

        @Override
        public void adapterClosing() {
            submitAll();
        }
    }
}
