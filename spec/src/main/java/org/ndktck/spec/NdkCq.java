package org.ndktck.spec;

/**
 * NDK_CQ: NdkGetCqResults, NdkGetCqResultsEx and NdkCloseCq (CQ-1 to CQ-5). Calls on one CQ are
 * serialized by the consumer (CQ-4).
 */
public interface NdkCq extends NdkObject {

    /**
     * NdkGetCqResults: removes up to {@code results.length} entries, oldest first.
     *
     * @param results filled from index 0
     * @return the number removed, 0 ≤ n ≤ results.length; 0 means the CQ was empty (CQ-1)
     */
    int getCqResults(NdkResult[] results);

    /**
     * NdkGetCqResultsEx: as {@link #getCqResults} with the operation type (CQ-3).
     *
     * @param results filled from index 0
     * @return the number removed
     */
    int getCqResultsEx(NdkResultEx[] results);

    /**
     * NdkCloseCq.
     *
     * @param completion   called once if the result is PENDING
     * @param closeContext handed back to {@code completion}
     * @return STATUS_SUCCESS or STATUS_PENDING (CL-2)
     */
    NtStatus close(CloseCompletion completion, Object closeContext);
}
