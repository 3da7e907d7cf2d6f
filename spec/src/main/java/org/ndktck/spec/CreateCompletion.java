package org.ndktck.spec;

/**
 * NDK_FN_CREATE_COMPLETION: how a provider finishes an object creation (NdkCreateMr, NdkCreatePd,
 * NdkCreateCq, NdkCreateQp) that returned STATUS_PENDING. Called exactly once after a PENDING return and
 * never after any other return (GEN-CB-3, GEN-CB-4). With an error status the object is unspecified and
 * the consumer must not use it (AMB-20).
 *
 * @param <T> the type of object created
 */
@FunctionalInterface
public interface CreateCompletion<T extends NdkObject> {
    /**
     * @param createContext the context the consumer passed to the create call (may be null)
     * @param status        the final status, never STATUS_PENDING
     * @param object        the created object when {@code status} is a success; unspecified otherwise
     */
    void complete(Object createContext, NtStatus status, T object);
}
