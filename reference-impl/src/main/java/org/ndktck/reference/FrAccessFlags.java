package org.ndktck.reference;

/**
 * Data-path piece {@code fr-access-flags}: the {@link Access} rights NDK_OP_FLAG_* bits of NdkFastRegister
 * grant. The reference tests every composite whole ({@code (flags & 0x30) == 0x30} for remote write); a faulty
 * variant lets the undefined bit 0x20 alone grant remote write (MR-FR-19).
 */
@FunctionalInterface
public interface FrAccessFlags {
    /**
     * @param opFlags NDK_OP_FLAG_* bits of the NdkFastRegister request
     * @return {@link Access} bits
     */
    int access(int opFlags);
}
