package org.ndktck.reference;

/**
 * Data-path piece {@code late-failure}: whether a work request whose inline check failed is reported through
 * an error CQ entry instead (the request returns STATUS_SUCCESS, changes nothing, and completes in post order
 * with the check's status). The reference fails every such request inline; a legal variant reports a fast
 * registration refused by MR-FR-6 (remote flags on an MR initialized without remote access) as one error
 * completion, as hardware that checks the access rights can only do (AMB-11).
 */
@FunctionalInterface
public interface LateFailure {
    /**
     * @param checkId the ID of the inline check that failed ({@code MR-FR-6}, ...), of {@link Pieces#FAST_REGISTER}
     * @return true when the failure is reported through the CQ entry, false to fail the call inline
     */
    boolean throughCompletion(String checkId);
}
