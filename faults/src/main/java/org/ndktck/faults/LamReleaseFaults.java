package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Faults of LAMs released in an order other than the reverse of their building: correct while the consumer releases
 * its LAMs newest first (or uses none after releasing an older one).
 *
 * <ul>
 *   <li>{@code fault:PRIV-1/older-lam-release-unmaps-newest}: the provider keeps its LAMs on a stack; NdkReleaseLam of a
 *       LAM that is not the newest live one also unmaps the newest (its later NdkReleaseLam is ignored), so the
 *       privileged token no longer reaches a LAM the consumer still holds (PRIV-1).</li>
 * </ul>
 */
final class LamReleaseFaults {
    private LamReleaseFaults() {
    }

    static List<NdkProvider> providers() {
        return List.of(Variants.wrapped("fault:PRIV-1/older-lam-release-unmaps-newest",
                "NdkReleaseLam of a LAM older than the newest live one also unmaps the newest", StackOfLams::new));
    }

    /** The LAMs built, newest last; releasing an older one pops the newest too. */
    static final class StackOfLams implements Hooks {
        private final List<NdkLogicalAddressMapping> live = new ArrayList<>();
        private final Set<NdkLogicalAddressMapping> gone = Collections.newSetFromMap(new IdentityHashMap<>());
        private ForwardingAdapter adapter;

        @Override
        public void attach(ForwardingAdapter adapter) {
            this.adapter = adapter;
        }

        @Override
        public NtStatus buildLam(ForwardingAdapter adapter, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion completion, Object context,
                                 RequestCall inner) {
            RequestCompletion track = (ctx, status) -> {
                if (NtStatus.STATUS_SUCCESS.equals(status)) {
                    built(lam);
                }
                completion.complete(ctx, status);
            };
            NtStatus r = inner.invoke(completion == null ? null : track, context);
            if (NtStatus.STATUS_SUCCESS.equals(r)) {
                built(lam);
            }
            return r;
        }

        private synchronized void built(NdkLogicalAddressMapping lam) {
            live.add(lam);
        }

        @Override
        public void releaseLam(NdkLogicalAddressMapping lam, Runnable inner) {
            NdkLogicalAddressMapping newest = null;
            synchronized (this) {
                if (gone.remove(lam)) {
                    return; // already unmapped with an older one
                }
                int at = live.indexOf(lam);
                if (at >= 0 && at < live.size() - 1) {
                    newest = live.remove(live.size() - 1);
                    gone.add(newest);
                }
                live.remove(lam);
            }
            inner.run();
            if (newest != null) {
                adapter.inner().releaseLam(newest);
            }
        }
    }
}
