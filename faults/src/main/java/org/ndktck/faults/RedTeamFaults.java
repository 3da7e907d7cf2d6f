package org.ndktck.faults;

import java.util.List;
import java.util.Collection;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.RegionBounds;
import org.ndktck.reference.RemoteInvalidateRequest;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.TokenOwner;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.NdkProvider;
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
                        .build());
    }
}
