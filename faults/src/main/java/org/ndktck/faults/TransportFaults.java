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
 * Faults for the transport behaviour the kit relies on (rules TR-1 to TR-3): the reference provider
 * with its QPs wrapped ({@link Hooks}), named {@code fault:RULE-ID/variant}. TR-2 and TR-3 bind the kit
 * itself (consumer obligations), so only TR-1 and TR-4 have faults.
 */
public final class TransportFaults {
    private TransportFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        return List.of(Variants.wrapped("fault:TR-1/no-receive-fails",
                "a send whose peer has no receive posted is not delivered: it completes at once with STATUS_IO_TIMEOUT (as if its retries ran out)",
                NoReceiveFails::new),
                Variants.wrapped("fault:TR-4/long-send-truncated",
                        "a send longer than the peer's posted receive is cut to the receive's length and both complete with STATUS_SUCCESS",
                        LongSendTruncated::new));
    }

    /**
     * Remembers, per QP, the total Length of each receive posted on it (in order); a send (not INLINE) longer
     * than the first receive still waiting at its peer is cut to that receive's length before the wrapped
     * provider sees it, so the message is truncated silently and both sides report success (found by a
     * red-team provider outside the repository: the kit passed it before TR-4).
     */
    private static final class LongSendTruncated implements Hooks {
        private final Map<NdkQp, NdkQp> peerOf = Collections.synchronizedMap(new IdentityHashMap<>());
        private final Map<NdkQp, java.util.Deque<Long>> receives = Collections.synchronizedMap(new IdentityHashMap<>());

        @Override
        public void connected(NdkQp a, NdkQp b) {
            peerOf.put(a, b);
            peerOf.put(b, a);
        }

        private java.util.Deque<Long> receivesOf(NdkQp qp) {
            return receives.computeIfAbsent(qp, q -> new java.util.concurrent.ConcurrentLinkedDeque<>());
        }

        private static long total(org.ndktck.spec.NdkSge[] sgl) {
            long t = 0;
            for (org.ndktck.spec.NdkSge sge : sgl) {
                t += sge.unsignedLength();
            }
            return t;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.RECEIVE) {
                NtStatus st = inner.apply(request);
                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                    receivesOf(qp).add(total(request.sgl()));
                }
                return st;
            }
            boolean send = request.call() == NdkCall.SEND || request.call() == NdkCall.SEND_AND_INVALIDATE;
            NdkQp peer = send && (request.flags() & org.ndktck.spec.NdkOpFlags.INLINE) == 0 ? peerOf.get(qp) : null;
            Long room = peer == null ? null : receivesOf(peer).poll();
            if (room == null || total(request.sgl()) <= room) {
                return inner.apply(request);
            }
            java.util.List<org.ndktck.spec.NdkSge> cut = new java.util.ArrayList<>();
            long left = room;
            for (org.ndktck.spec.NdkSge sge : request.sgl()) {
                long n = Math.min(left, sge.unsignedLength());
                if (n > 0) {
                    cut.add(new org.ndktck.spec.NdkSge(sge.address(), (int) n, sge.memoryRegionToken()));
                }
                left -= n;
            }
            return inner.apply(request.withSgl(cut.toArray(new org.ndktck.spec.NdkSge[0])));
        }
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
