package org.ndktck.tck.harness;

import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

import java.util.function.Supplier;

/**
 * The end of a work request: what the post returned and, after STATUS_SUCCESS, its CQ entry.
 *
 * @param callText the call and its arguments in hex (built only when asked for)
 * @param returned the status the post returned
 * @param status   the final status: the CQ entry's status after a SUCCESS return, else {@code returned}
 * @param entry    the CQ entry, or null (inline failure, or a silent success)
 */
public record WrOutcome(Supplier<String> callText, NtStatus returned, NtStatus status, NdkResultEx entry) {
    /** @return the call and its arguments in hex */
    public String call() {
        return callText.get();
    }

    /** @return true when the request completed with STATUS_SUCCESS */
    public boolean succeeded() {
        return NtStatus.STATUS_SUCCESS.equals(status);
    }

    /** @return "failed inline with X" or "returned STATUS_SUCCESS, CQ entry status Y" */
    public String describe() {
        if (entry == null) {
            return "returned " + returned + " (no CQ entry)";
        }
        return "returned " + returned + ", then a CQ entry with status " + entry.status();
    }
}
