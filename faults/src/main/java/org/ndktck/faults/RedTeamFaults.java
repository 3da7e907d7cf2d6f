package org.ndktck.faults;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.RegionBounds;
import org.ndktck.reference.RemoteInvalidateRequest;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.TokenOwner;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.RequestCompletion;
import org.ndktck.spec.NdkProviderSource;

/**
 * Faults found by a red-team pass with providers written outside the repository: the kit before each of them
 * passed it. Each is the reference provider with one piece replaced.
 *
 * <ul>
 *   <li>{@code fault:MR-REG-8/signed-compare}: base &le; address and address + length &le; base + Length are
 *       compared as signed 64-bit values (Java's {@code long} order, C's {@code INT64}), so for a region that
 *       lies below 2^63 an access running past its end into the top half looks in bounds, and a region that
 *       straddles 2^63 refuses accesses it holds (the kit meets that first: an access the flags and bounds allow
 *       is refused, an MR-REG-8 violation; the out-of-bounds side is MR-REG-4's). The kit's register and fast-register plans put some regions
 *       across 2^63 (and across 2^32) for this.</li>
 *   <li>{@code fault:COV-3/any-pd}: an NdkSendAndInvalidate may invalidate a live fast registration of any PD
 *       of the adapter, not only of the receiving QP's PD. The kit before it named only an NdkRegisterMr region
 *       of another PD, which fails the "is it a fast registration?" test first; its COV-3 property now also names
 *       a fast registration of the peer's PD.</li>
 *   <li>{@code fault:COV-1/token-table-4096}: the provider's token table holds 4096 entries and, when a
 *       registration would be the 4097th live one, silently drops the oldest live registration's entry: that
 *       registration still reports success and keeps its token, but remote accesses with the token fail. The
 *       kit before it never kept more than 72 registrations live at once; {@code LiveScaleProperties} keeps
 *       2^12 + 64 live at the standard profile (2^16 + 64 at deep; the smoke profile's 2^10 + 64 does not reach it).</li>
 * </ul>
 */
public final class RedTeamFaults implements NdkProviderSource {

    @Override
    public Collection<NdkProvider> providers() {
        return List.of(Variants.builder("fault:MR-REG-8/signed-compare",
                        "the bounds check compares addresses as signed 64-bit values, so accesses across 2^63 are misjudged")
                .replace(Pieces.BOUNDS, (RegionBounds) (region, address, length) ->
                        address >= region.base() && address + length <= region.base() + region.length())
                .build(),
                Variants.builder("fault:COV-3/any-pd",
                                "an NdkSendAndInvalidate may invalidate a live fast registration of any PD of the adapter")
                        .replace(Pieces.INV_1_REMOTE, (RuleCheck<RemoteInvalidateRequest>) r ->
                                r.owner() == TokenOwner.REGISTRATION && r.region() != null && r.region().live()
                                        && r.region().fastRegistered() ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_ACCESS_VIOLATION)
                        .build(),
                Variants.wrapped("fault:COV-1/token-table-4096",
                        "a token table of 4096 entries drops the oldest live registration's entry when a 4097th registration is made",
                        () -> new TokenTable(4096)));
    }

    /**
     * Models a fixed-size token table that evicts the oldest live registration (in NdkRegisterMr order): remote
     * accesses naming an evicted registration's remote token reach nothing.
     */
    static final class TokenTable implements Hooks {
        private final int size;
        /** Live registrations, oldest first, with their remote token once the consumer read it (else null). */
        private final Map<NdkObject, Integer> live = new LinkedHashMap<>();
        /** Evicted registrations still live for the consumer, with their remote token (else null). */
        private final Map<NdkObject, Integer> evicted = new HashMap<>();
        private final Set<Integer> evictedTokens = new HashSet<>();

        TokenTable(int size) {
            this.size = size;
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            synchronized (this) {
                if (call == NdkCall.REGISTER_MR) {
                    live.put(target, null);
                    if (live.size() > size) {
                        Map.Entry<NdkObject, Integer> eldest = live.entrySet().iterator().next();
                        live.remove(eldest.getKey());
                        evicted.put(eldest.getKey(), eldest.getValue());
                        if (eldest.getValue() != null) {
                            evictedTokens.add(eldest.getValue());
                        }
                    }
                } else if (call == NdkCall.DEREGISTER_MR) {
                    live.remove(target);
                    Integer token = evicted.remove(target);
                    if (token != null) {
                        evictedTokens.remove(token);
                    }
                }
            }
            return inner.invoke(completion, context);
        }

        @Override
        public synchronized int token(NdkCall call, ForwardingMr mr, int token) {
            if (call == NdkCall.GET_REMOTE_TOKEN) {
                if (live.containsKey(mr)) {
                    live.put(mr, token);
                } else if (evicted.containsKey(mr)) {
                    evicted.put(mr, token);
                    evictedTokens.add(token);
                }
            }
            return token;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            boolean gone;
            synchronized (this) {
                gone = request.isReadOrWrite() && evictedTokens.contains(request.remoteToken());
            }
            return inner.apply(gone ? request.withRemoteToken(~request.remoteToken()) : request);
        }
    }
}
