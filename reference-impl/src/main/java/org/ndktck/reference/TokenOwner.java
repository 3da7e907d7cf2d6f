package org.ndktck.reference;

/** What a token names in the adapter's token table (looked up in O(1)). */
public enum TokenOwner {
    /** Nothing: never issued, or retired (deregistered, invalidated). */
    NONE,
    /** The privileged token of a PD (NdkGetPrivilegedMemoryRegionToken). */
    PRIVILEGED,
    /** A registration; see the request's region. */
    REGISTRATION
}
