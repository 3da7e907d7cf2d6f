package org.ndktck.reference;

import org.ndktck.spec.NdkLogicalAddressMapping;

/**
 * One LAM built by NdkBuildLam: a run of adapter logical addresses [base, base + pages × PAGE_SIZE), each page
 * backed by one page frame. Stored as the {@code AdapterContext} of the consumer's
 * {@link NdkLogicalAddressMapping}. Guarded by the adapter's lock.
 */
final class LamMapping {
    final ReferenceAdapter adapter;
    final NdkLogicalAddressMapping owner;
    final long base;
    final PageMap pages;
    /** Bytes of logical address space mapped: frames × PAGE_SIZE (fixed; read once per page of a fast registration). */
    private final long size;
    boolean live = true;

    LamMapping(ReferenceAdapter adapter, NdkLogicalAddressMapping owner, long base, PageMap pages) {
        this.adapter = adapter;
        this.owner = owner;
        this.base = base;
        this.pages = pages;
        this.size = (long) pages.frameCount() * adapter.pageSize();
    }

    /** @return the bytes of logical address space the LAM maps */
    long size() {
        return size;
    }

    /**
     * @param address logical address (unsigned)
     * @param length  bytes (unsigned)
     * @return true when [address, address + length) lies inside this LAM (for length 0: address inside)
     */
    boolean contains(long address, long length) {
        long offset = address - base;
        return Long.compareUnsigned(offset, size()) < 0 && Long.compareUnsigned(length, size() - offset) <= 0;
    }

    @Override
    public String toString() {
        return String.format("LAM{base=0x%X, pages=%d%s}", base, pages.frameCount(), live ? "" : ", released");
    }
}
