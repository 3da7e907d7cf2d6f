package org.ndktck.reference;

/**
 * Data-path piece {@code read-bounds-at-post}: whether NdkRead checks, when it is posted, that it stays within
 * the live remote registration its token names, and returns STATUS_REMOTE_RESOURCES inline if not (the NdkRead
 * table lists that code as a return value, AMB-7). The reference finds it when the read is processed and
 * reports it as the completion status; a legal variant returns it inline.
 */
@FunctionalInterface
public interface ReadBoundsAtPost {
    /** @return true to check the remote bounds of a Read when it is posted */
    boolean atPost();
}
