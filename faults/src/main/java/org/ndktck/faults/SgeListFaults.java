package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;


/**
 * Faults of a request's SGE list at a later position only: the kit before COV-4 made Length-0
 * SGEs passed each of them (BENCHMARKS.md, "Long chains on one adapter", says how that was checked).
 *
 * <ul>
 *   <li>{@code fault:COV-4/zero-length-ends-list}: an NdkRead, NdkWrite, NdkSend or NdkReceive (not INLINE) whose
 *       SGL holds an SGE of Length 0 at a position k &gt; 0 is cut there: the SGEs from k on are dropped, as a
 *       provider whose hardware SGL ends at the first zero-length entry would act. A Length-0 SGE at position 0 is
 *       passed on as it is.</li>
 * </ul>
 */
public final class SgeListFaults implements NdkProviderSource {

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:COV-4/zero-length-ends-list",
                "NdkRead, NdkWrite, NdkSend and NdkReceive end the SGE list at a Length-0 SGE past position 0",
                ZeroLengthEndsList::new));
        return out;
    }

    /** Cuts the SGL of every non-INLINE data request of two or more SGEs at its first Length-0 SGE past position 0. */
    static final class ZeroLengthEndsList implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            boolean data = w.call() == NdkCall.READ || w.call() == NdkCall.WRITE || w.call() == NdkCall.SEND
                    || w.call() == NdkCall.SEND_AND_INVALIDATE || w.call() == NdkCall.RECEIVE;
            if (!data || w.sgl() == null || w.sgl().length < 2 || (w.flags() & NdkOpFlags.INLINE) != 0) {
                return inner.apply(w);
            }
            NdkSge[] sgl = w.sgl();
            for (int i = 1; i < sgl.length; i++) {
                if (sgl[i].length() == 0) {
                    return inner.apply(w.withSgl(Arrays.copyOf(sgl, i)));
                }
            }
            return inner.apply(w);
        }
    }
}
