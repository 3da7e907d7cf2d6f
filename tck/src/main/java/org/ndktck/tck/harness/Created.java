package org.ndktck.tck.harness;

import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NtStatus;

import java.util.function.Supplier;

/**
 * The end of a create call (NdkCreatePd, NdkCreateCq, NdkCreateQp, NdkCreateMr): what it returned, its final
 * status and the object it made.
 *
 * @param callText the call (built only when asked for)
 * @param returned the status the call returned
 * @param status   the final status
 * @param object   the object (from the out parameter or the completion), or null when it failed
 * @param <T>      the object type
 */
public record Created<T extends NdkObject>(Supplier<String> callText, NtStatus returned, NtStatus status, T object) {
    /** @return the call in hex */
    public String call() {
        return callText.get();
    }

    /** @return true when the create ended in STATUS_SUCCESS */
    public boolean succeeded() {
        return NtStatus.STATUS_SUCCESS.equals(status);
    }

    /** @return "returned X" or "returned STATUS_PENDING, completed with Y" */
    public String describe() {
        return returned.isPending() ? "returned STATUS_PENDING, then completed with " + status : "returned " + returned;
    }
}
