package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

/**
 * Faults that only edge values of two request parameters met together, or a request past an advertised limit that
 * the provider accepted anyway, reveal: each NdkRegisterMr still answers STATUS_SUCCESS for the Length it was given,
 * but the registration covers less (NdkRegisterMr page: the region is Length bytes from the first MDL's virtual
 * address, so byte k is at VA + k for every k below Length; the kit charges COV-1). The kit before its
 * combined-edge properties passed each at {@code --profile standard} (BENCHMARKS.md says how that was checked).
 *
 * <ul>
 *   <li>{@code fault:COV-1/chain-with-one-byte-last-page-drops-it}: for a chain of two or more MDLs whose
 *       last page holds exactly one byte of the region (FBO + Length is one more than a multiple of PAGE_SIZE), the
 *       chain path computes the last page index from FBO + Length - 2 (the inclusive end, decremented twice), so
 *       that page, and the region's last byte, are not mapped. A single MDL (its own page count is used) or any
 *       other end is right.</li>
 *   <li>{@code fault:COV-1/past-max-registration-size-maps-only-the-limit}: the adapter advertises a
 *       MaxRegistrationSize of 16 pages (setting {@code maxRegistrationSize} 65536 by default), accepts a longer
 *       Length instead of failing (MR-REG-10 makes that ADVISORY only) and maps only the first MaxRegistrationSize
 *       bytes: the bytes past the limit answer as out of bounds.</li>
 * </ul>
 */
public final class CombinedEdgeFaults implements NdkProviderSource {

    /** MaxRegistrationSize the second fault advertises by default (bytes: 16 pages of 4096 bytes). */
    static final long ADVERTISED_MAX = 65536;

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:COV-1/chain-with-one-byte-last-page-drops-it",
                "for a chain of two or more MDLs whose last page holds exactly one byte of the region, the page list is one "
                        + "page short: NdkRegisterMr succeeds but the region's last byte answers as out of bounds",
                OneByteLastPageDropped::new));
        out.add(FaultDefaults.withDefaults(Variants.wrapped("fault:COV-1/past-max-registration-size-maps-only-the-limit",
                "MaxRegistrationSize is " + ADVERTISED_MAX + " bytes by default; a longer Length is accepted (not failed) and "
                        + "only the first MaxRegistrationSize bytes are mapped, so bytes past the limit answer as out of bounds",
                PastLimitMapsOnlyTheLimit::new), Map.of("maxRegistrationSize", Long.toString(ADVERTISED_MAX))));
        return out;
    }

    /** Drops the region's last byte (its last page) for chains whose last page holds one byte of the region. */
    static final class OneByteLastPageDropped implements Hooks {
        @Override
        public long registerLength(ForwardingMr mr, long length) {
            Mdl first = mr.mdl();
            if (first == null || first.next() == null) {
                return length;
            }
            int p = first.pageSize();
            long end = first.byteOffset() + length;
            if (Long.remainderUnsigned(end, p) == 1 && Long.compareUnsigned(length, 1) > 0 && valid(first, length)) {
                return length - 1;
            }
            return length;
        }

        /** The request's own checks come first: only a contiguous chain of at least Length bytes that does not wrap. */
        private static boolean valid(Mdl first, long length) {
            long at = first.virtualAddress();
            long total = 0;
            for (Mdl m = first; m != null; m = m.next()) {
                if (m.virtualAddress() != at + total) {
                    break; // a break at or after Length is allowed (MR-REG-2)
                }
                total += m.unsignedByteCount();
            }
            return Long.compareUnsigned(total, length) >= 0 && Long.compareUnsigned(at + length - 1, at) >= 0;
        }
    }

    /** Passes at most the advertised MaxRegistrationSize on to the wrapped provider, whatever Length the kit gave. */
    static final class PastLimitMapsOnlyTheLimit implements Hooks {
        private volatile long max = -1;

        @Override
        public void attach(ForwardingAdapter adapter) {
            max = adapter.inner().queryAdapterInfo().maxRegistrationSize();
        }

        @Override
        public long registerLength(ForwardingMr mr, long length) {
            long m = max;
            return m > 0 && Long.compareUnsigned(length, m) > 0 ? m : length;
        }
    }
}
