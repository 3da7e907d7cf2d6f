package org.ndktck.reference;

/** The states of a QP in the model. */
public enum QpState {
    /** Created and not connected, or its peer was closed: initiator requests fail with STATUS_CONNECTION_INVALID. */
    UNCONNECTED,
    /** Connected to a peer QP of the same adapter (connectLoopback). */
    CONNECTED,
    /** NdkFlush was called: every request completes with STATUS_CANCELLED. */
    FLUSHED,
    /** NdkCloseQp was called. */
    CLOSED
}
