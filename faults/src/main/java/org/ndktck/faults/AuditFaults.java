package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.WorkRequestType;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * Faults for the rules the page audit added (SND-1, SND-2, CQ-6, INV-6, MR-FR-20): each is the
 * reference provider with one piece replaced ({@link Pieces}) or its objects wrapped ({@link Hooks}), named
 * {@code fault:RULE-ID/variant} after the rule the kit must FAIL for it.
 */
public final class AuditFaults {
    private AuditFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.builder("fault:SND-1/unconnected-send-accepted",
                        "NdkSend and NdkSendAndInvalidate on a QP that was never connected are accepted (and fail on the CQ)")
                .replace(Pieces.RW_2, r -> r.type() == WorkRequestType.SEND || r.type() == WorkRequestType.SEND_AND_INVALIDATE
                        ? NtStatus.STATUS_SUCCESS : Pieces.RW_2.standard().check(r))
                .build());
        out.add(Variants.wrapped("fault:SND-2/send-typed-as-receive-and-invalidate",
                "the sender's CQ entry of a send says NdkOperationTypeReceiveAndInvalidate",
                entries(e -> e.type() == NdkOperationType.SEND ? retyped(e, NdkOperationType.RECEIVE_AND_INVALIDATE) : e)));
        out.add(Variants.wrapped("fault:CQ-6/bytes-zero", "receive completions report BytesTransferred 0",
                entries(e -> isReceive(e) ? withBytes(e, 0) : e)));
        out.add(Variants.wrapped("fault:CQ-6/bytes-plus-one", "receive completions report one byte more than was received",
                entries(e -> isReceive(e) && NtStatus.STATUS_SUCCESS.equals(e.status()) ? withBytes(e, e.bytesTransferred() + 1) : e)));
        out.add(Variants.builder("fault:INV-6/connection-kept",
                        "a SendAndInvalidate naming an invalid token fails the send and the receive but leaves the connection usable")
                .replace(Pieces.INVALID_TOKEN_ABORT, r -> false).build());
        out.add(Variants.wrapped("fault:MR-FR-20/registering-connection-only",
                "a fast-registered region answers remote reads and writes only from the peer of the QP that fast-registered it",
                RegisteringConnectionOnly::new));
        return out;
    }

    private static boolean isReceive(NdkResultEx e) {
        return e.type() == NdkOperationType.RECEIVE || e.type() == NdkOperationType.RECEIVE_AND_INVALIDATE;
    }

    private static NdkResultEx retyped(NdkResultEx e, NdkOperationType type) {
        return new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(), type, e.typeSpecificCompletionOutput());
    }

    private static NdkResultEx withBytes(NdkResultEx e, int bytes) {
        return new NdkResultEx(e.status(), bytes, e.qpContext(), e.requestContext(), e.type(), e.typeSpecificCompletionOutput());
    }

    private static Supplier<Hooks> entries(Function<NdkResultEx, NdkResultEx> map) {
        return () -> new Hooks() {
            @Override
            public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
                return Hooks.mapResults(results, inner, map);
            }
        };
    }

    /**
     * MR-FR-20: remembers which QP fast-registered each MR and which QPs are connected; an NdkRead or NdkWrite
     * naming the remote token of a fast registration fails inline (STATUS_ACCESS_VIOLATION) unless it is posted
     * on the peer of the QP that fast-registered the MR.
     */
    private static final class RegisteringConnectionOnly implements Hooks {
        private final Map<NdkQp, NdkQp> peerOf = Collections.synchronizedMap(new IdentityHashMap<>());
        private final Map<NdkMr, NdkQp> registeredOn = Collections.synchronizedMap(new IdentityHashMap<>());
        private final Map<Integer, NdkMr> remoteTokens = new ConcurrentHashMap<>();

        @Override
        public void connected(NdkQp a, NdkQp b) {
            peerOf.put(a, b);
            peerOf.put(b, a);
        }

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call == NdkCall.GET_REMOTE_TOKEN) {
                remoteTokens.put(token, mr);
            }
            return token;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.isReadOrWrite()) {
                NdkMr mr = remoteTokens.get(request.remoteToken());
                NdkQp owner = mr == null ? null : registeredOn.get(mr);
                if (owner != null && peerOf.get(qp) != owner) {
                    return NtStatus.STATUS_ACCESS_VIOLATION;
                }
            }
            NtStatus st = inner.apply(request);
            if (request.call() == NdkCall.FAST_REGISTER && NtStatus.STATUS_SUCCESS.equals(st)) {
                registeredOn.put(request.mr(), qp);
            }
            return st;
        }
    }
}
