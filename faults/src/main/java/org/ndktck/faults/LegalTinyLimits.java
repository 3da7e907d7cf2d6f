package org.ndktck.faults;

import java.util.List;
import java.util.Map;

import org.ndktck.spec.NdkProvider;

/**
 * Correct providers whose adapter advertises small limits in NDK_ADAPTER_INFO (NdkQueryAdapterInfo page; freedoms.yaml
 * FREE-SMALL-LIMITS and FREE-SMALL-FRMR-PAGE-COUNT): the pages fix no least value for any of them, so a kit whose
 * fixtures assume a larger adapter must not FAIL such a provider. Each is the reference provider with other defaults for
 * its limit settings ({@link FaultDefaults#withDefaults}); a {@code --set} of the same key still wins.
 * <ul>
 *   <li>{@code legal:tiny-limits}: MaxRegistrationSize 8192 bytes (two pages at the default 4096-byte PAGE_SIZE; an
 *       unsigned SIZE_T), and MaxInitiatorRequestSge, MaxReceiveRequestSge and MaxReadRequestSge 1 each (ULONG). A
 *       registration past MaxRegistrationSize fails with STATUS_INVALID_BUFFER_SIZE, one of the NdkRegisterMr page's
 *       "other status codes" (MR-REG-10). The kit keeps its fixtures within these limits; a check that needs more
 *       (two SGEs in one request, a registration of three pages) is UNTESTED with the limit and the setting that
 *       reaches it, never FAIL.</li>
 *   <li>{@code legal:tiny-frmr-page-count}: FRMRPageCount 16 (ULONG, pages; the least the reference takes), so
 *       NdkInitializeFastRegisterMr refuses an AdapterPageCount above 16 with STATUS_IMPLEMENTATION_LIMIT (MR-FRI-3) and
 *       every fast registration the kit makes fits 16 pages.</li>
 * </ul>
 */
public final class LegalTinyLimits {
    /** MaxRegistrationSize of {@code legal:tiny-limits}, in bytes. */
    static final String TINY_MAX_REGISTRATION_SIZE = "8192";
    /** The SGE limits of {@code legal:tiny-limits} (the reference's maxSge setting). */
    static final String TINY_MAX_SGE = "1";
    /** FRMRPageCount of {@code legal:tiny-frmr-page-count}, in pages. */
    static final String TINY_FRMR_PAGE_COUNT = "16";

    private LegalTinyLimits() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(
                FaultDefaults.withDefaults(Variants.builder("legal:tiny-limits", "the adapter advertises MaxRegistrationSize "
                        + "8192 bytes and SGE limits of 1 (MaxInitiatorRequestSge, MaxReceiveRequestSge, MaxReadRequestSge); "
                        + "past MaxRegistrationSize NdkRegisterMr fails with STATUS_INVALID_BUFFER_SIZE").build(),
                        Map.of("maxRegistrationSize", TINY_MAX_REGISTRATION_SIZE, "maxSge", TINY_MAX_SGE)),
                FaultDefaults.withDefaults(Variants.builder("legal:tiny-frmr-page-count", "the adapter advertises FRMRPageCount "
                        + "16, so NdkInitializeFastRegisterMr takes at most 16 pages").build(),
                        Map.of("frmrPageCount", TINY_FRMR_PAGE_COUNT)));
    }
}
