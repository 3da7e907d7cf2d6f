package org.ndktck.reference;

import java.util.function.IntPredicate;

/**
 * A request for a fresh token.
 *
 * @param purpose       why a token is needed
 * @param previousToken the MR's token before this request (0 when it has none, or for PRIVILEGED)
 * @param inUse         true for a token that is live (a live registration, a reserved fast registration or
 *                      a privileged token of this adapter); O(1)
 */
public record TokenRequest(TokenPurpose purpose, int previousToken, IntPredicate inUse) {
}
