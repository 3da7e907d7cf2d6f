package org.ndktck.spec;

/**
 * The inline result of a create call: the returned NTSTATUS and the {@code *ppNdkObject} out parameter.
 *
 * <p>What the consumer may read after each status (NdkCreateMr page; GEN-CB-3, GEN-CB-4, MR-CREATE-2):
 * STATUS_SUCCESS: {@code object} is the new object, non-null. STATUS_PENDING: {@code object} must be
 * null (the provider must not write the out parameter); the object arrives through the
 * {@link CreateCompletion}. Any error: {@code object} is meaningless and must be null.
 *
 * @param status the returned status
 * @param object the object written to the out parameter, or null
 * @param <T>    the type of object created
 */
public record CreateResult<T extends NdkObject>(NtStatus status, T object) {
    /** @return a STATUS_SUCCESS result carrying {@code object} */
    public static <T extends NdkObject> CreateResult<T> success(T object) {
        return new CreateResult<>(NtStatus.STATUS_SUCCESS, object);
    }

    /** @return a STATUS_PENDING result with no object */
    public static <T extends NdkObject> CreateResult<T> pending() {
        return new CreateResult<>(NtStatus.STATUS_PENDING, null);
    }

    /** @return a failed result with no object */
    public static <T extends NdkObject> CreateResult<T> failed(NtStatus status) {
        return new CreateResult<>(status, null);
    }
}
