package org.ndktck.reference;

/**
 * Data-path piece {@code mr-access-flags}: the {@link Access} rights NDK_MR_FLAG_* bits grant. The reference
 * tests every composite whole ({@code (flags & 0x5) == 0x5} for remote write, AMB-4); a faulty variant lets the
 * undefined bit 0x4 alone grant remote write (MR-REG-14).
 */
@FunctionalInterface
public interface MrAccessFlags {
    /**
     * @param mrFlags NDK_MR_FLAG_* bits
     * @return {@link Access} bits
     */
    int access(int mrFlags);
}
