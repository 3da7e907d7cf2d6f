package org.ndktck.spec;

/**
 * NDK_RESULT: one CQ entry as NdkGetCqResults returns it (CQ-1, CQ-2).
 *
 * @param status           the request's final status
 * @param bytesTransferred ULONG in an int, read unsigned; defined for Receive completions only (RW-8)
 * @param qpContext        the context given at NdkCreateQp
 * @param requestContext   the context given when the request was posted
 */
public record NdkResult(NtStatus status, int bytesTransferred, Object qpContext, Object requestContext) {
}
