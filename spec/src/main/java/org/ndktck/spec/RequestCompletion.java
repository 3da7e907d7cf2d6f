package org.ndktck.spec;

/**
 * NDK_FN_REQUEST_COMPLETION: how a provider finishes an asynchronous request (NdkRegisterMr,
 * NdkDeregisterMr, NdkInitializeFastRegisterMr, NdkBuildLam) that returned STATUS_PENDING.
 *
 * <p>The provider calls it exactly once after a STATUS_PENDING return, with the consumer's request
 * context and the final status, possibly on another thread and possibly before the call itself has
 * returned; it never calls it after any other return (GEN-CB-1, GEN-CB-2, AMB-6). The consumer may call
 * the provider again from inside the callback (GEN-LIFE-1).
 */
@FunctionalInterface
public interface RequestCompletion {
    /**
     * @param requestContext the context the consumer passed with the request (may be null)
     * @param status         the final status of the request, never STATUS_PENDING
     */
    void complete(Object requestContext, NtStatus status);
}
