package org.ndktck.reference;

/**
 * Data-path piece {@code fbo-placement}: where the first byte of a fast registration lies in its first page.
 * The reference places it at FBO (MR-FR-3, MR-FR-9: BaseVirtualAddress + k is byte FBO + k of the page
 * array); a faulty variant drops FBO.
 */
@FunctionalInterface
public interface FboPlacement {
    /**
     * @param fbo                FirstByteOffset (ULONG in an int; already checked to be below PAGE_SIZE by the reference)
     * @param baseVirtualAddress BaseVirtualAddress (unsigned)
     * @param pageSize           PAGE_SIZE
     * @return the byte offset of the region's first byte in the first page, in [0, PAGE_SIZE)
     */
    int firstByteOffset(int fbo, long baseVirtualAddress, int pageSize);
}
