package org.ndktck.faults;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * Faults for the transport behaviour the kit relies on (rules TR-1 to TR-3, issue 14): the reference provider
 * with its QPs wrapped ({@link Hooks}), named {@code fault:RULE-ID/variant}. TR-2 and TR-3 bind the kit
 * itself (consumer obligations), so only TR-1 has a fault.
 */
public final class TransportFaults {
    private TransportFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        return List.of(Variants.wrapped("fault:TR-1/no-receive-fails",
                "a send whose peer has no receive posted is not delivered: it completes at once with STATUS_IO_TIMEOUT (as if its retries ran out)",
                NoReceiveFails::new));
    }

    /**
     * Counts, per QP, the receives posted on it (accepted inline) and the sends its peer posted to it; a send that
     * finds no receive left at the peer is swallowed, and an entry with STATUS_IO_TIMEOUT is put on the sender's
     * initiator CQ.
     */
    private static final class NoReceiveFails implements Hooks {
        private final Map<NdkQp, NdkQp> peerOf = Collections.synchronizedMap(new IdentityHashMap<>());
        private final Map<NdkQp, AtomicInteger> receivesLeft = Collections.synchronizedMap(new IdentityHashMap<>());

        @Override
        public void connected(NdkQp a, NdkQp b) {
            peerOf.put(a, b);
            peerOf.put(b, a);
        }

        private AtomicInteger left(NdkQp qp) {
            return receivesLeft.computeIfAbsent(qp, q -> new AtomicInteger());
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            boolean send = request.call() == NdkCall.SEND || request.call() == NdkCall.SEND_AND_INVALIDATE;
            NdkQp peer = send ? peerOf.get(qp) : null;
            if (peer != null && left(peer).getAndDecrement() <= 0) {
                left(peer).incrementAndGet();
                ForwardingCq cq = qp.cqFor(request.type());
                if (cq != null) {
                    cq.inject(new NdkResultEx(NtStatus.STATUS_IO_TIMEOUT, 0, qp.qpContext(), request.context(), request.type(), 0));
                    return NtStatus.STATUS_SUCCESS;
                }
            }
            NtStatus st = inner.apply(request);
            if (request.call() == NdkCall.RECEIVE && NtStatus.STATUS_SUCCESS.equals(st)) {
                left(qp).incrementAndGet();
            }
            return st;
        }
    }
}
