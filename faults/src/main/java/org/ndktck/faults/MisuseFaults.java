package org.ndktck.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.MrState;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.TokenAllocator;
import org.ndktck.reference.TokenPurpose;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Faults of the consumer-misuse checks (SEC-1): providers that accept a call the consumer must not make
 * in a way that lets a token reach memory its registration never granted. Each is the reference with one piece
 * replaced or its objects wrapped; the reference itself refuses every such call.
 */
public final class MisuseFaults {
    private MisuseFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        // the new registration reporting the old token again is legal (legal:refast-register-keeps-token); what
        // exposes memory is the old token still working once the new registration reports another one
        out.add(Variants.builder("fault:SEC-1/refast-register-keeps-token",
                        "NdkFastRegister of an MR whose fast registration is still in effect is accepted with a new remote "
                                + "token, yet the old token keeps working and reaches the new pages")
                .replace(Pieces.MR_FR_1, MisuseFaults::readyOrStillFastRegistered)
                .decorateAdapters(a -> new ForwardingAdapter(a, new OldTokenKept(), "fault:SEC-1/refast-register-keeps-token"))
                .build());
        out.add(Variants.wrapped("fault:SEC-1/privileged-resolves-registrations",
                "an SGE naming a PD's privileged token at an address inside a normal registration is resolved "
                        + "against that registration (no LAM holds the address)", PrivilegedByAddress::new));
        out.add(Variants.wrapped("fault:SEC-1/invalidate-normal-mr-keeps-token",
                "NdkInvalidate of an MR registered with NdkRegisterMr is accepted and completes with STATUS_SUCCESS (an "
                        + "Invalidate entry on the initiator CQ) but does nothing: the registration's remote token keeps "
                        + "reaching its memory", InvalidateNormalDoesNothing::new));
        out.add(Variants.wrapped("fault:SEC-1/deregister-fast-register-keeps-token",
                "NdkDeregisterMr of a fast-register MR returns STATUS_SUCCESS but does nothing: its fast registration, "
                        + "and with it the remote token, stays in effect", DeregisterFastRegisterDoesNothing::new));
        return out;
    }

    /** Answers NdkInvalidate of a normal MR with a success entry of its own and leaves the registration alone. */
    static final class InvalidateNormalDoesNothing implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() == NdkCall.INVALIDATE && w.mr() instanceof ForwardingMr m && !m.fastRegister() && qp.initiatorCq() != null) {
                if ((w.flags() & org.ndktck.spec.NdkOpFlags.SILENT_SUCCESS) == 0) {
                    qp.initiatorCq().inject(new org.ndktck.spec.NdkResultEx(NtStatus.STATUS_SUCCESS, 0, qp.qpContext(), w.context(),
                            org.ndktck.spec.NdkOperationType.INVALIDATE, 0));
                }
                return NtStatus.STATUS_SUCCESS;
            }
            return inner.apply(w);
        }
    }

    /** Answers NdkDeregisterMr of a fast-register MR with STATUS_SUCCESS inline without passing it on. */
    static final class DeregisterFastRegisterDoesNothing implements Hooks {
        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
            if (call == NdkCall.DEREGISTER_MR && target instanceof ForwardingMr mr && mr.fastRegister()) {
                return NtStatus.STATUS_SUCCESS;
            }
            return inner.invoke(c, ctx);
        }
    }

    /** @return the legal provider that accepts the forbidden calls safely ({@code legal:misuse-accepted}) */
    public static List<NdkProvider> legal() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.builder("legal:misuse-accepted",
                        "NdkFastRegister of an MR whose fast registration is still in effect is accepted (the new "
                                + "registration gets a fresh token and replaces the old one, whose token dies), and so is "
                                + "NdkDeregisterMr of a fast-register MR (its registration dies); both calls are the "
                                + "consumer's to avoid, so accepting them is ADVISORY, never a FAIL")
                .replace(Pieces.MR_FR_1, MisuseFaults::readyOrStillFastRegistered)
                .replace(Pieces.MR_DEREG_1, r -> r.mr().fastRegister() || r.mr().state() == MrState.REGISTERED
                        ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_INVALID_PARAMETER)
                .build());
        return out;
    }

    /**
     * A provider that accepts NdkFastRegister of an MR whose fast registration is still in effect and gives the new
     * registration the same remote token (legal: the token names the MR's current registration).
     *
     * @param name        the provider's name
     * @param description one line
     * @return the provider
     */
    static org.ndktck.spec.NdkProvider refastRegisterKeepsToken(String name, String description) {
        return Variants.builder(name, description)
                .replace(Pieces.MR_FR_1, MisuseFaults::readyOrStillFastRegistered)
                .replace(Pieces.TOKEN_ALLOCATOR, MisuseFaults::keepLiveToken)
                .build();
    }

    /**
     * Keeps a fast-register MR's previous remote token working after a new fast registration that reports another
     * token without an NdkInvalidate between them: a peer NdkRead or NdkWrite naming the old token is passed on with
     * the MR's current token, so it reaches the new registration's pages.
     */
    static final class OldTokenKept implements Hooks {
        private final Map<NdkMr, Integer> last = new ConcurrentHashMap<>();
        private final Map<Integer, NdkMr> alias = new ConcurrentHashMap<>();
        private final Set<NdkMr> invalidated = ConcurrentHashMap.newKeySet();

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call == NdkCall.GET_REMOTE_TOKEN) {
                Integer prev = last.put(mr, token);
                if (prev != null && prev != token && !invalidated.remove(mr)) {
                    alias.put(prev, mr);
                }
            }
            return token;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.INVALIDATE && request.mr() != null) {
                invalidated.add(request.mr());
                alias.values().removeIf(m -> m == request.mr());
            }
            if (request.isReadOrWrite()) {
                NdkMr m = alias.get(request.remoteToken());
                Integer current = m == null ? null : last.get(m);
                if (current != null) {
                    return inner.apply(request.withRemoteToken(current));
                }
            }
            return inner.apply(request);
        }
    }

    /** MR-FR-1 accepting also an MR whose fast registration is still in effect (the consumer's misuse). */
    private static NtStatus readyOrStillFastRegistered(FastRegisterRequest r) {
        boolean ok = r.mr().samePd() && r.mr().fastRegister()
                && (r.mr().readyForFastRegister() || r.mr().state() == MrState.FAST_REGISTERED);
        return ok ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_INVALID_PARAMETER;
    }

    /**
     * The reference's allocator, except that a fast registration of an MR whose previous token is still live
     * (its fast registration was never invalidated) gets that token again.
     */
    private static TokenAllocator keepLiveToken(long seed) {
        TokenAllocator standard = Pieces.TOKEN_ALLOCATOR.standard().newAllocator(seed);
        return request -> request.purpose() == TokenPurpose.FAST_REGISTER && request.previousToken() != 0
                && request.inUse().test(request.previousToken()) ? request.previousToken() : standard.allocate(request);
    }

    /**
     * Remembers every normal registration (its range and local token) and every privileged token handed out; an
     * SGE naming a privileged token at an address inside a live normal registration is passed on with that
     * registration's local token instead.
     */
    static final class PrivilegedByAddress implements Hooks {
        private final Set<Integer> privileged = ConcurrentHashMap.newKeySet();
        private final List<ForwardingMr> registered = new CopyOnWriteArrayList<>();

        @Override
        @SuppressWarnings("unchecked")
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            T result = body.get();
            if (call == NdkCall.GET_PRIVILEGED_TOKEN && result instanceof Integer token) {
                privileged.add(token);
            }
            return result;
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
            if (call == NdkCall.REGISTER_MR && target instanceof ForwardingMr mr) {
                return Hooks.mapStatus(inner, c, ctx, st -> {
                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                        registered.add(mr);
                    }
                    return st;
                });
            }
            if (call == NdkCall.DEREGISTER_MR && target instanceof ForwardingMr mr) {
                return Hooks.mapStatus(inner, c, ctx, st -> {
                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                        registered.remove(mr);
                    }
                    return st;
                });
            }
            return inner.invoke(c, ctx);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            NdkSge[] sgl = w.sgl();
            if (sgl == null || privileged.isEmpty()) {
                return inner.apply(w);
            }
            NdkSge[] changed = sgl.clone();
            boolean any = false;
            for (int i = 0; i < changed.length; i++) {
                NdkSge sge = changed[i];
                if (sge != null && privileged.contains(sge.memoryRegionToken())) {
                    ForwardingMr holder = holding(sge.address(), sge.unsignedLength());
                    if (holder != null) {
                        changed[i] = new NdkSge(sge.address(), sge.length(), holder.inner().getLocalToken());
                        any = true;
                    }
                }
            }
            return inner.apply(any ? w.withSgl(changed) : w);
        }

        private ForwardingMr holding(long address, long length) {
            for (ForwardingMr mr : registered) {
                if (!mr.closed() && !mr.fastRegister() && Long.compareUnsigned(address, mr.base()) >= 0
                        && Long.compareUnsigned(address - mr.base() + length, mr.length()) <= 0) {
                    return mr;
                }
            }
            return null;
        }
    }
}
