package org.ndktck.reference;

/** Events after which a registration's token may stop granting access (see {@link TokenRetirement}). */
public enum RetireEvent {
    /** NdkDeregisterMr completed (MR-DEREG-3). */
    DEREGISTER,
    /** An NdkInvalidate request was processed (INV-4). */
    INVALIDATE,
    /** A peer's NdkSendAndInvalidate was received (INV-5). */
    REMOTE_INVALIDATE,
    /** An NdkRead with RDMA_READ_LOCAL_INVALIDATE succeeded (RW-4). */
    READ_LOCAL_INVALIDATE,
    /** A new fast registration of the same MR took effect. */
    REPLACED,
    /** The MR was closed. */
    CLOSE
}
