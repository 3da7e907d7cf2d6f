package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NtStatus;

/**
 * Faults that show only after a particular sequence of steps on one adapter: the kit before
 * {@code OneAdapterChainProperties} passed each of them (BENCHMARKS.md, "Long chains on one adapter", says how that was checked).
 *
 * <ul>
 *   <li>{@code fault:COV-3/stale-token-by-slot}: the receiving side of an NdkSendAndInvalidate finds the MR to
 *       invalidate by the slot part of the token alone, as a provider whose tokens are a slot index plus a key that
 *       changes with each fast registration would if it forgot to compare the key: a token the MR held in an earlier
 *       fast registration (invalidated since, the MR fast-registered again) invalidates the MR's current
 *       registration. A never-issued token, or that of an MR not fast-registered again, is refused as it should be.</li>
 * </ul>
 */
public final class SequenceFaults implements NdkProviderSource {

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:COV-3/stale-token-by-slot",
                "an NdkSendAndInvalidate naming a token an MR held in an earlier fast registration invalidates its current one",
                StaleTokenBySlot::new));
        return out;
    }

    /**
     * Remembers, for each MR the consumer fast-registers again, the remote tokens of its earlier registrations; an
     * NdkSendAndInvalidate carrying one of them reaches the provider with the MR's current token.
     */
    static final class StaleTokenBySlot implements Hooks {
        private final Map<NdkMr, Set<Integer>> earlier = new IdentityHashMap<>();

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            if (w.call() == NdkCall.FAST_REGISTER && w.mr() != null) {
                int before = w.mr().getRemoteToken();
                if (before != 0) {
                    synchronized (earlier) {
                        earlier.computeIfAbsent(w.mr(), k -> new HashSet<>()).add(before);
                    }
                }
            } else if (w.call() == NdkCall.SEND_AND_INVALIDATE) {
                synchronized (earlier) {
                    for (Map.Entry<NdkMr, Set<Integer>> e : earlier.entrySet()) {
                        int now = e.getKey().getRemoteToken();
                        if (now != w.remoteToken() && e.getValue().contains(w.remoteToken())) {
                            return inner.apply(w.withRemoteToken(now));
                        }
                    }
                }
            }
            return inner.apply(w);
        }
    }
}
