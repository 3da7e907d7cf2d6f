package org.ndktck.faults;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

/**
 * A fault whose acceptance of a request a kit reading forbids really exposes memory, so the rule's finding is a FAIL
 * with the note {@code memory exposed: } and not the ADVISORY of a kit interpretation (docs/ARCHITECTURE.md,
 * "Decisions on the page re-reading", MR-FR-16/17/18).
 * <ul>
 *   <li>{@code fault:MR-FR-18/page-table-overrun}: NdkFastRegister checks AdapterPageCount against FRMRPageCount,
 *       not against the count the MR was initialized with, while the MR's page table holds only the initialized count
 *       of frames (piece {@code fr-page-table}); the DMA of an access to a page past them runs on into the frames that
 *       follow the last one kept (piece {@code frame-reach}), memory the consumer never supplied. Its legal twin, which
 *       accepts the same request and keeps every page it was given, is {@code legal:MR-FR-18/pages-over-initialized-count}
 *       ({@link LegalAcceptedRequests}).</li>
 * </ul>
 */
public final class ExposureFaults implements NdkProviderSource {
    @Override
    public Collection<NdkProvider> providers() {
        return List.of(Variants.builder("fault:MR-FR-18/page-table-overrun", "NdkFastRegister accepts AdapterPageCount above the "
                        + "initialized count (up to FRMRPageCount), but the MR's page table holds only the initialized count of frames: "
                        + "a page past them reaches the frames that follow the last one kept")
                .replace(Pieces.MR_FR_18, RuleCheck.<FastRegisterRequest>pass())
                .replace(Pieces.FR_PAGE_TABLE, (frames, initialized) -> frames.length <= initialized ? frames
                        : Arrays.copyOf(frames, Math.max(1, initialized)))
                .replace(Pieces.FRAME_REACH, UncheckedDmaFaults.NEXT_FRAMES).build());
    }
}
