package org.ndktck.tck.model;

/**
 * Where a QP of the model is in its life. The kit connects QPs with its loopback connection (NdkAdapter#connectLoopback),
 * flushes them (NdkFlush), closes the peer's end, and closes them (NdkCloseQp).
 */
public enum QpPhase {
    /** Created, never connected. */
    UNCONNECTED,
    /** Connected to a peer QP of the same adapter. */
    CONNECTED,
    /** NdkFlush was called on it (in any earlier phase): what it held completed with STATUS_CANCELLED (FL-1). */
    FLUSHED,
    /** Its connected peer QP was closed. */
    PEER_CLOSED,
    /** Closed: the consumer makes no call on it again (CL-3). */
    CLOSED
}
