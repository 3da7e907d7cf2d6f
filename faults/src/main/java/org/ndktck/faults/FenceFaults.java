package org.ndktck.faults;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NtStatus;

/**
 * Faults of an ordering flag whose effect shows only when requests are held back with DEFER: a provider that processes
 * every request at once orders them right, so only a request with READ_FENCE behind a deferred read shows them.
 *
 * <ul>
 *   <li>{@code fault:RW-6/deferred-read-passes-fence}: an NdkRead with DEFER is held back and submitted only after the
 *       next request without DEFER (on its QP or any other of the adapter) has been submitted, even when that request carries READ_FENCE: a fenced
 *       NdkWrite of the read's sink then carries the bytes the sink held before the read (RW-6). Held reads are
 *       submitted before a flush or close of the QP, so nothing is lost; a held read whose late submission fails
 *       completes with an error entry.</li>
 * </ul>
 */
final class FenceFaults {
    private FenceFaults() {
    }

    static List<NdkProvider> providers() {
        return List.of(Variants.wrapped("fault:RW-6/deferred-read-passes-fence",
                "an NdkRead held back with DEFER is submitted after the next request, even one with READ_FENCE", DeferredReadPassesFence::new));
    }

    /** Holds DEFER reads per QP until the next request without DEFER has been submitted. */
    static final class DeferredReadPassesFence implements Hooks {
        private final Map<ForwardingQp, List<Runnable>> held = new IdentityHashMap<>();

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.READ && (request.flags() & NdkOpFlags.DEFER) != 0) {
                synchronized (this) {
                    held.computeIfAbsent(qp, k -> new ArrayList<>()).add(() -> {
                        NtStatus late = inner.apply(request.withFlags(request.flags() & ~NdkOpFlags.DEFER));
                        if (!NtStatus.STATUS_SUCCESS.equals(late)) {
                            // the consumer was told STATUS_SUCCESS: a failure now can only reach it as an error entry
                            qp.initiatorCq().inject(new NdkResultEx(late, 0, qp.qpContext(), request.context(), NdkOperationType.READ, 0));
                        }
                    });
                }
                return NtStatus.STATUS_SUCCESS;
            }
            NtStatus r = inner.apply(request);
            if ((request.flags() & NdkOpFlags.DEFER) == 0) {
                submitAll(); // any request without DEFER ends what is held, on every QP of the adapter
            }
            return r;
        }

        private void submitAll() {
            List<ForwardingQp> qps;
            synchronized (this) {
                qps = new ArrayList<>(held.keySet());
            }
            qps.forEach(this::submit);
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
}
