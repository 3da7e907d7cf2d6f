package org.ndktck.faults;

import java.util.List;

import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.RuleCheck;
import org.ndktck.spec.NdkProvider;

/**
 * Legal providers that accept a request whose precondition binds the consumer, and expose nothing by it
 * (docs/ARCHITECTURE.md, "Decisions on the page re-reading": MR-FR-16, MR-FR-17 and MR-FR-18 are kit interpretations,
 * ADVISORY unless memory outside the supplied pages becomes reachable).
 * <ul>
 *   <li>{@code legal:MR-FR-18/pages-over-initialized-count}: NdkFastRegister accepts an AdapterPageCount above the
 *       count the MR was initialized with, up to FRMRPageCount (NDK_ADAPTER_INFO), and registers every page the
 *       AdapterPageArray names: every byte it grants lies in a page the consumer supplied. The fast-register page
 *       makes staying within the initialized count the consumer's duty and names no status for it; the kit reports
 *       MR-FR-18 ADVISORY, never FAIL. Its exposing twin is {@code fault:MR-FR-18/page-table-overrun}
 *       ({@link ExposureFaults}).</li>
 * </ul>
 */
public final class LegalAcceptedRequests {
    private LegalAcceptedRequests() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(Variants.builder("legal:MR-FR-18/pages-over-initialized-count", "NdkFastRegister accepts AdapterPageCount "
                        + "above the initialized count (up to FRMRPageCount) and registers every page it was given: nothing outside "
                        + "the supplied pages is reachable (MR-FR-18 is reported ADVISORY)")
                .replace(Pieces.MR_FR_18, RuleCheck.<FastRegisterRequest>pass()).build());
    }
}
