package org.ndktck.faults;

import java.util.List;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.TokenRequest;
import org.ndktck.spec.NdkProvider;

/**
 * Legal providers for the scope of token values (docs/ARCHITECTURE.md, "Decisions on the page re-reading", MR-TOK-6).
 * <ul>
 *   <li>{@code legal:token-values-shared-across-pds}: each PD numbers its tokens on its own: a token (a ULONG, unsigned
 *       32-bit) is the smallest positive value no live registration, reserved fast-register MR or privileged token of
 *       <em>that PD</em> holds. The first PDs of an adapter therefore hand out the same values (1, 2, 3, ...), and a
 *       remote token of one PD is, as a number, also a live token of another. A token is used through a QP, whose PD
 *       scopes it (the NDK_SGE page: the token of the PD the QP belongs to), so the value reaches the region of the
 *       QP's own PD only; no page asks tokens to differ across PDs.</li>
 * </ul>
 */
public final class LegalTokenScopes {
    private LegalTokenScopes() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(Variants.builder("legal:token-values-shared-across-pds", "each PD numbers its tokens from 1 on its own, "
                        + "so two PDs of one adapter hand out the same token values at once (a token is scoped by the PD of the "
                        + "QP it is used through; live tokens of one PD stay distinct, MR-TOK-6)")
                .replace(Pieces.TOKEN_ALLOCATOR, seed -> LegalTokenScopes::smallestFreeOnPd).build());
    }

    /**
     * @param request the token request, with the PD's own tokens in {@link TokenRequest#inUseOnPd()}
     * @return the smallest positive token no holder of the request's PD holds (unsigned 32-bit in an int)
     */
    static int smallestFreeOnPd(TokenRequest request) {
        int t = 1;
        while (request.inUseOnPd().test(t)) {
            t++;
        }
        return t;
    }
}
