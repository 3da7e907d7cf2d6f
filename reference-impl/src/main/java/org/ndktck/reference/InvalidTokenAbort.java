package org.ndktck.reference;

/**
 * Data-path piece {@code invalid-token-abort}: whether the receiving side aborts the connection when a peer's
 * NdkSendAndInvalidate names a token it may not invalidate (INV-6, the NDK_FN_SEND_AND_INVALIDATE page). The
 * reference always aborts: both QPs of the connection flush what they hold and stay flushed, so every later
 * request on them completes with STATUS_CANCELLED. A faulty variant fails the send and the receive but keeps
 * the connection usable.
 */
@FunctionalInterface
public interface InvalidTokenAbort {
    /**
     * @param request the refused remote invalidation (its token, its owner, the receiver's PD)
     * @return true when the connection is aborted
     */
    boolean aborts(RemoteInvalidateRequest request);
}
