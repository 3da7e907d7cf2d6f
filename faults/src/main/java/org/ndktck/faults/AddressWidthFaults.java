package org.ndktck.faults;

import java.util.List;
import java.util.Collection;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.RegionBounds;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

/**
 * Faults in how a provider compares 64-bit virtual addresses (PVOID, unsigned) when it checks an access against a
 * region's bounds, written from a red-team pass outside the repository: the kit before it passed each one, as its
 * regions never straddled 2^63. Each is the reference provider with the {@code bounds} piece replaced.
 *
 * <ul>
 *   <li>{@code fault:MR-REG-8/signed-compare}: base &le; address and address + length &le; base + Length are
 *       compared as signed 64-bit values (Java's {@code long} order, C's {@code INT64}), so for a region that
 *       lies below 2^63 an access running past its end into the top half looks in bounds, and a region that
 *       straddles 2^63 refuses accesses it holds (the kit meets that first: an access the flags and bounds allow
 *       is refused, an MR-REG-8 violation; the out-of-bounds side is MR-REG-4's). The kit's register and fast-register plans put some regions
 *       across 2^63 (and across 2^32) for this.</li>
 * </ul>
 */
public final class AddressWidthFaults implements NdkProviderSource {

    @Override
    public Collection<NdkProvider> providers() {
        return List.of(Variants.builder("fault:MR-REG-8/signed-compare",
                        "the bounds check compares addresses as signed 64-bit values, so accesses across 2^63 are misjudged")
                .replace(Pieces.BOUNDS, (RegionBounds) (region, address, length) ->
                        address >= region.base() && address + length <= region.base() + region.length())
                .build());
    }
}
