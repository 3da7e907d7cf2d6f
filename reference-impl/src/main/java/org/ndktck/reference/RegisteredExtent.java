package org.ndktck.reference;

/**
 * Data-path piece {@code extent}: how many bytes an NdkRegisterMr registration covers, given Length and the
 * chain's total ByteCount. The reference uses Length (MR-REG-1, MR-REG-13); a faulty variant uses the chain.
 */
@FunctionalInterface
public interface RegisteredExtent {
    /**
     * @param length         the Length argument (unsigned)
     * @param chainByteCount the chain's total ByteCount (unsigned)
     * @return the region's size in bytes (unsigned)
     */
    long extent(long length, long chainByteCount);
}
