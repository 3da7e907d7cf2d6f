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
import org.ndktck.spec.NtStatus;

/**
 * Faults where a PD is closed before its children: NdkClosePd returns STATUS_PENDING and calls back after the last
 * child closed, as CL-6 asks, so a property that only watches the close's status and callbacks passes them; but the
 * PD's MRs stop granting while the PD's QPs still use them (the pages: the provider must not close the PD before its
 * children are closed).
 *
 * <ul>
 *   <li>{@code fault:CL-6/pd-close-revokes-child-mrs}: the PD's MRs stop granting the moment its close is requested
 *       (its protection table is freed at once; the close itself still pends).</li>
 *   <li>{@code fault:CL-6/first-child-close-tears-down-pd}: the PD's teardown starts at the first child closed after
 *       the PD's close was requested, not at the last: its remaining MRs stop granting then.</li>
 * </ul>
 *
 * <p>An MR that stops granting is modelled at the peer's NdkRead or NdkWrite naming its remote token: the request goes
 * to the wrapped provider with a token no registration has, so it fails as an access through a dead token does.
 */
final class PdCloseFaults {
    private PdCloseFaults() {
    }

    static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:CL-6/pd-close-revokes-child-mrs",
                "closing a PD with live MRs returns STATUS_PENDING, but its MRs stop granting at once while its QPs still use them",
                () -> new RevokeOnClose(false)));
        out.add(Variants.wrapped("fault:CL-6/first-child-close-tears-down-pd",
                "after a PD's close pends, the close of its first child (not its last) frees the PD's other MRs",
                () -> new RevokeOnClose(true)));
        return out;
    }

    /** Tracks remote tokens by PD and sends accesses through the tokens of revoked PDs' MRs to a dead token. */
    static final class RevokeOnClose implements Hooks {
        /** A remote token the wrapped provider never issued (the reference counts its tokens up from small values). */
        private static final int DEAD_TOKEN = 0x7FFF_FFF1;
        private final boolean atFirstChild;
        private final Map<Integer, NdkObject> tokenPd = new java.util.HashMap<>();
        private final Set<NdkObject> closing = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<NdkObject> revoked = Collections.newSetFromMap(new IdentityHashMap<>());

        RevokeOnClose(boolean atFirstChild) {
            this.atFirstChild = atFirstChild;
        }

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call == NdkCall.GET_REMOTE_TOKEN) {
                synchronized (this) {
                    tokenPd.put(token, mr.pd());
                }
            }
            return token;
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            if (call == NdkCall.CLOSE_PD) {
                NtStatus r = inner.invoke(completion, context);
                if (r != null && r.isPending()) {
                    synchronized (this) {
                        closing.add(object);
                        if (!atFirstChild) {
                            revoked.add(object);
                        }
                    }
                }
                return r;
            }
            if (atFirstChild && (call == NdkCall.CLOSE_MR || call == NdkCall.CLOSE_QP)) {
                synchronized (this) {
                    if (object instanceof ForwardingMr mr) {
                        if (closing.contains(mr.pd())) {
                            revoked.add(mr.pd());
                        }
                    } else {
                        revoked.addAll(closing); // a QP does not tell its PD here: every closing PD is torn down
                    }
                }
            }
            return inner.invoke(completion, context);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.READ || request.call() == NdkCall.WRITE) {
                boolean dead;
                synchronized (this) {
                    NdkObject pd = tokenPd.get(request.remoteToken());
                    dead = pd != null && revoked.contains(pd);
                }
                if (dead) {
                    return inner.apply(request.withRemoteToken(DEAD_TOKEN));
                }
            }
            return inner.apply(request);
        }
    }
}
