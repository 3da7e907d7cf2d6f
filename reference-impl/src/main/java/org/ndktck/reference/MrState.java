package org.ndktck.reference;

/**
 * The states of an MR in the model, as the consumer's calls have moved it. A request that returned
 * STATUS_PENDING moves the MR when it completes, just before its completion is called. A fast registration counts from
 * the moment NdkFastRegister returned SUCCESS, even when the work request is still queued; see
 * {@link RegionView#live()} for whether its registration is in effect).
 */
public enum MrState {
    /** Created; for a normal MR also after a completed deregistration. */
    CREATED,
    /** Registered with NdkRegisterMr: its token is live. */
    REGISTERED,
    /** Initialized for fast registration; no fast registration yet. */
    INITIALIZED,
    /** A fast registration was posted (SUCCESS returned) and not invalidated since. */
    FAST_REGISTERED,
    /** The last fast registration was invalidated (locally, remotely or by a read with local invalidate). */
    INVALIDATED,
    /** NdkCloseMr returned STATUS_PENDING and its completion has not been called. */
    CLOSING,
    /** Closed. */
    CLOSED
}
