package org.ndktck.reference;

import java.util.function.IntPredicate;

/**
 * A request for a fresh token (a ULONG, unsigned 32-bit, carried in an int).
 *
 * @param purpose       why a token is needed
 * @param previousToken the MR's token before this request (0 when it has none, or for PRIVILEGED)
 * @param inUse         true for a token that is live anywhere on this adapter (a live registration, a reserved fast
 *                      registration or a privileged token of any PD); O(1)
 * @param pd            the number of the PD the token is for (0 for the adapter's first PD, in creation order)
 * @param inUseOnPd     true for a token live on that PD only: a token is scoped by the PD of the QP it is used
 *                      through (MR-TOK-6 asks uniqueness within one PD), so an allocator may give a value another PD
 *                      holds when this is false
 */
public record TokenRequest(TokenPurpose purpose, int previousToken, IntPredicate inUse, int pd,
                           IntPredicate inUseOnPd) {
    /** A request with no PD scope: {@code inUseOnPd} is {@code inUse}, PD number 0. */
    public TokenRequest(TokenPurpose purpose, int previousToken, IntPredicate inUse) {
        this(purpose, previousToken, inUse, 0, inUse);
    }
}
