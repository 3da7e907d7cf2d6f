package org.ndktck.tck.model;

/** How an access reaches a registration's bytes. */
public enum AccessKind {
    /** The peer writes with NdkWrite through the remote token. */
    REMOTE_WRITE,
    /** The peer reads with NdkRead through the remote token. */
    REMOTE_READ,
    /** The owner's NdkRead lands in the region through an SGE with the local token (an RDMA-read sink). */
    LOCAL_SINK
}
