package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Faults a red-team pass invented in areas no issue listed, each a slip a real driver makes; each is the reference
 * provider with one piece changed (a {@link Hooks}), named after the rule the kit must FAIL.
 *
 * <ul>
 *   <li>{@code fault:COV-4/one-byte-last-sge-lost}: an NdkWrite whose SGL has two or more SGEs and ends with an SGE of
 *       exactly one byte loses that SGE (the WQE builder treats a one-byte tail as padding); the request completes with
 *       success and the remote region misses its last byte.</li>
 *   <li>{@code fault:SEC-1/chained-lam-never-released}: NdkReleaseLam of a LAM built over an MDL chain of two or more
 *       MDLs frees nothing (the release walks a page count taken from the first MDL and finds none to unmap past it),
 *       so the LAM's adapter logical addresses still reach the released pages with the privileged token.</li>
 *   <li>{@code fault:COV-4/three-sge-receive-scatters-out-of-order}: an NdkReceive of exactly three SGEs whose last two
 *       differ in Length scatters the message into SGE 0, then SGE 2, then SGE 1 (the receive WQE builder sorts the
 *       tail SGEs by Length); the receive completes with success and the bytes sit at the wrong addresses. The kit
 *       once gave every SGE of a request one Length, and judged one SGE count a try.</li>
 * </ul>
 */
public final class OwnRedTeamFaults implements NdkProviderSource {

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:COV-4/one-byte-last-sge-lost",
                "an NdkWrite of two or more SGEs whose last SGE is one byte loses that SGE and still completes with success",
                OneByteLastSgeLost::new));
        out.add(Variants.wrapped("fault:SEC-1/chained-lam-never-released",
                "NdkReleaseLam of a LAM built over a chain of two or more MDLs frees nothing: its logical addresses keep "
                        + "reaching the released pages", ChainedLamNeverReleased::new));
        out.add(Variants.wrapped("fault:COV-4/three-sge-receive-scatters-out-of-order",
                "an NdkReceive of three SGEs whose last two differ in Length fills SGE 0, then SGE 2, then SGE 1, and completes "
                        + "with success", ThreeSgeReceiveOutOfOrder::new));
        return out;
    }

    /** Drops a one-byte last SGE of a multi-SGE NdkWrite. */
    static final class OneByteLastSgeLost implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            NdkSge[] sgl = w.sgl();
            if (w.call() == NdkCall.WRITE && sgl != null && sgl.length >= 2 && sgl[sgl.length - 1].length() == 1) {
                return inner.apply(w.withSgl(java.util.Arrays.copyOf(sgl, sgl.length - 1)));
            }
            return inner.apply(w);
        }
    }

    /** Swaps SGEs 1 and 2 of a three-SGE NdkReceive whose last two SGEs differ in Length. */
    static final class ThreeSgeReceiveOutOfOrder implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            NdkSge[] sgl = w.sgl();
            if (w.call() == NdkCall.RECEIVE && sgl != null && sgl.length == 3 && sgl[1].length() != sgl[2].length()) {
                return inner.apply(w.withSgl(new NdkSge[]{sgl[0], sgl[2], sgl[1]}));
            }
            return inner.apply(w);
        }
    }

    /** Remembers LAMs built over chains and skips their release. */
    static final class ChainedLamNeverReleased implements Hooks {
        private final Set<NdkLogicalAddressMapping> chained = ConcurrentHashMap.newKeySet();

        @Override
        public NtStatus buildLam(ForwardingAdapter adapter, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion completion,
                                 Object context, RequestCall inner) {
            if (mdl != null && mdl.next() != null) {
                chained.add(lam);
            }
            return Hooks.super.buildLam(adapter, mdl, lam, completion, context, inner);
        }

        @Override
        public void releaseLam(NdkLogicalAddressMapping lam, Runnable inner) {
            if (!chained.remove(lam)) {
                inner.run();
            }
        }
    }
}
