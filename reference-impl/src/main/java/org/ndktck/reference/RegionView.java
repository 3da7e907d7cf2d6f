package org.ndktck.reference;

/**
 * What a {@link RuleCheck} or a data-path piece may know about one registration (the region behind a
 * token): a normal registration made by NdkRegisterMr or a fast registration made by NdkFastRegister.
 *
 * <p>The region's bytes are [{@link #base()}, {@link #base()} + {@link #length()}) in the address space
 * the peer uses (MDL virtual address or BaseVirtualAddress; absolute, never zero-based, MR-REG-4, MR-FR-10).
 * Its first byte sits {@link #firstByteOffset()} bytes into its first page frame.
 */
public interface RegionView {
    /** @return the token (local and remote: the model uses one token per registration; UINT32 in an int) */
    int token();

    /** @return the region's first address: the MDL virtual address or BaseVirtualAddress (unsigned) */
    long base();

    /** @return the region's size in bytes (unsigned) */
    long length();

    /** @return the offset of the first byte in the first page frame: VA mod PAGE_SIZE, or the FBO placement */
    int firstByteOffset();

    /** @return PAGE_SIZE in bytes */
    int pageSize();

    /** @return the {@link Access} bits granted */
    int access();

    /** @return true for a fast registration, false for NdkRegisterMr */
    boolean fastRegistered();

    /** @return true while the registration is in effect (processed and neither deregistered nor invalidated) */
    boolean live();
}
