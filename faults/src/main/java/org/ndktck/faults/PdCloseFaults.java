package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Faults where a PD is closed before its children: NdkClosePd returns STATUS_PENDING and calls back after the last
 * child closed, as CL-6 asks, so a property that only watches the close's status and callbacks passes them; but the
 * PD's MRs lose their pages while the PD's QPs still use them (the pages: the provider must not close the PD before its
 * children are closed), and the peer's accesses through their tokens report success and move nothing: data is lost.
 *
 * <ul>
 *   <li>{@code fault:CL-6/pd-close-frees-child-mr-pages}: the PD's MRs lose their pages the moment its close is
 *       requested (the close itself still pends).</li>
 * </ul>
 * A variant that started the teardown at the first child closed after the PD's close was requested (not at the
 * last) was dropped: the chain meets that sequence too seldom at the standard profile to catch it every run.
 *
 * <p>The peer's NdkRead or NdkWrite naming the remote token of such an MR is not passed on: a success entry with its
 * byte count is put on the posting QP's initiator CQ, and no byte moves (a read's sink keeps its old bytes).
 */
final class PdCloseFaults {
    private PdCloseFaults() {
    }

    static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:CL-6/pd-close-frees-child-mr-pages",
                "closing a PD with live MRs returns STATUS_PENDING, but its MRs lose their pages at once: the peer's reads and writes"
                        + " through their tokens report success and move nothing",
                RevokeOnClose::new));
        return out;
    }

    /** Tracks remote tokens by PD; accesses through the tokens of freed PDs' MRs complete with success and move nothing. */
    static final class RevokeOnClose implements Hooks {
        /** Remote tokens of live registrations, to their MRs (a deregistration or close ends the entry). */
        private final Map<Integer, ForwardingMr> tokenMr = new java.util.HashMap<>();
        private final Set<NdkObject> revoked = Collections.newSetFromMap(new IdentityHashMap<>());

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call == NdkCall.GET_REMOTE_TOKEN) {
                synchronized (this) {
                    tokenMr.put(token, mr);
                }
            }
            return token;
        }

        private synchronized void ended(NdkObject mr) {
            tokenMr.values().removeIf(m -> m == mr);
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call == NdkCall.DEREGISTER_MR) {
                ended(target);
            }
            return inner.invoke(completion, context);
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            if (call == NdkCall.CLOSE_MR) {
                ended(object);
            }
            if (call == NdkCall.CLOSE_PD) {
                NtStatus r = inner.invoke(completion, context);
                if (r != null && r.isPending()) {
                    synchronized (this) {
                        revoked.add(object);
                    }
                }
                return r;
            }
            return inner.invoke(completion, context);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.READ || request.call() == NdkCall.WRITE) {
                boolean dead;
                synchronized (this) {
                    ForwardingMr mr = tokenMr.get(request.remoteToken());
                    dead = mr != null && revoked.contains(mr.pd());
                }
                if (dead) {
                    long n = 0;
                    for (var sge : request.sgl()) {
                        n += Integer.toUnsignedLong(sge.length());
                    }
                    qp.initiatorCq().inject(new NdkResultEx(NtStatus.STATUS_SUCCESS, (int) n, qp.qpContext(), request.context(),
                            request.type(), 0));
                    return NtStatus.STATUS_SUCCESS;
                }
            }
            return inner.apply(request);
        }
    }
}
