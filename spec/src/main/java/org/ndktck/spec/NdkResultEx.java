package org.ndktck.spec;

/**
 * NDK_RESULT_EX: a CQ entry with the operation type, as NdkGetCqResultsEx returns it (CQ-3, MR-FR-8, INV-3).
 *
 * @param status                       the request's final status
 * @param bytesTransferred             ULONG in an int, read unsigned; defined for Receive completions only
 * @param qpContext                    the context given at NdkCreateQp
 * @param requestContext               the context given when the request was posted
 * @param type                         the operation type
 * @param typeSpecificCompletionOutput ULONG_PTR in a long; the invalidated token for ReceiveAndInvalidate
 */
public record NdkResultEx(NtStatus status, int bytesTransferred, Object qpContext, Object requestContext,
                          NdkOperationType type, long typeSpecificCompletionOutput) {
    /** @return the same entry without the extended fields */
    public NdkResult toResult() {
        return new NdkResult(status, bytesTransferred, qpContext, requestContext);
    }
}
