package org.ndktck.tck.harness;

import org.ndktck.spec.NtStatus;

import java.util.function.Supplier;

/**
 * The end of an asynchronous request (NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr, NdkBuildLam):
 * what the call returned and, after STATUS_PENDING, what its completion said.
 *
 * @param callText the call and its arguments in hex (built only when asked for)
 * @param returned the status the call returned
 * @param status   the final status: {@code returned}, or the completion's status after STATUS_PENDING
 */
public record Outcome(Supplier<String> callText, NtStatus returned, NtStatus status) {
    /** @return the call and its arguments in hex */
    public String call() {
        return callText.get();
    }

    /** @return true when the call ended in STATUS_SUCCESS */
    public boolean succeeded() {
        return NtStatus.STATUS_SUCCESS.equals(status);
    }

    /** @return "returned X" or "returned STATUS_PENDING, completed with Y" */
    public String describe() {
        return returned.isPending() ? "returned STATUS_PENDING, then completed with " + status : "returned " + returned;
    }
}
