package org.ndktck.spec;

/**
 * Any NDK object (adapter, PD, MR, QP, CQ): it carries an {@link NdkObjectHeader}. Source: NDK_OBJECT_HEADER
 * (OBJ-1, OBJ-2).
 */
public interface NdkObject {
    /** @return the object's header; never null */
    NdkObjectHeader header();
}
