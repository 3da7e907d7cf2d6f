package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.ndktck.reference.FrameReach;
import org.ndktck.reference.LocalAccessRequest;
import org.ndktck.reference.TokenOwner;
import org.ndktck.spec.NtStatus;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.StandardChecks;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

/**
 * Faults that remove a bounds check from a device without the reference's safety net: the
 * DMA of an access that runs past the last page frame of its registration goes on into the frames whose numbers
 * follow (piece {@code frame-reach}), as hardware that adds to a physical address would, instead of failing as the
 * reference model does. So the access really reaches memory outside the region (a guard frame, or another page of
 * the same buffer), and the kit must catch it by its byte and guard checks, not because the model refused it.
 *
 * <ul>
 *   <li>{@code fault:MR-REG-4/unchecked-dma}: remote accesses to NdkRegisterMr regions are not checked against the
 *       region's bounds at all.</li>
 *   <li>{@code fault:SGE-2/unchecked-dma}: a local SGE is not checked against its region's bounds.</li>
 * </ul>
 */
public final class UncheckedDmaFaults implements NdkProviderSource {

    /** Past its last frame, the DMA uses the frames that follow it by number. */
    static final FrameReach NEXT_FRAMES = (lastFrame, pagesPast) -> lastFrame + pagesPast;

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.builder("fault:MR-REG-4/unchecked-dma", "remote accesses to NdkRegisterMr regions are not bounds-checked, and the "
                        + "DMA runs on past the region's last page frame into the frames that follow it")
                .replace(Pieces.BOUNDS, (region, address, length) -> !region.fastRegistered()
                        || StandardChecks.byteExactBounds(region, address, length))
                // local SGEs keep their byte-exact bounds (the bounds piece serves both sides)
                .replace(Pieces.SGE_2_BOUNDS, (RuleCheck<LocalAccessRequest>) r -> r.owner() != TokenOwner.REGISTRATION || (r.region() != null
                        && StandardChecks.byteExactBounds(r.region(), r.sge().address(), r.sge().unsignedLength()))
                        ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_ACCESS_VIOLATION)
                .replace(Pieces.FRAME_REACH, NEXT_FRAMES).build());
        out.add(Variants.builder("fault:SGE-2/unchecked-dma", "a local SGE is not checked against its region's bounds, and the DMA runs on "
                        + "past the region's last page frame into the frames that follow it")
                .replace(Pieces.SGE_2_BOUNDS, RuleCheck.pass())
                .replace(Pieces.FRAME_REACH, NEXT_FRAMES).build());
        return out;
    }
}
