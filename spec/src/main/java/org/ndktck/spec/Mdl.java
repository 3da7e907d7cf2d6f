package org.ndktck.spec;

import java.util.Arrays;

/**
 * A locked MDL over {@link HostMemory}: StartVa, ByteOffset, ByteCount, the page frame numbers and Next,
 * as in wdm.h. The region it describes starts at {@code MmGetMdlVirtualAddress} =
 * {@link #virtualAddress()} = StartVa + ByteOffset and is {@link #byteCount()} bytes long; its page
 * frames are {@code ADDRESS_AND_SIZE_TO_SPAN_PAGES(VA, ByteCount)} entries of {@link #pfns()}.
 *
 * <p>The virtual address is an index only: a provider uses it as the region's base for remote
 * addresses and moves data through the page frames (MR-REG-3). Unsigned values: StartVa and the VA are
 * PVOIDs in longs, ByteCount is a ULONG in an int; {@code StartVa + ByteOffset + ByteCount} may wrap
 * past 2^64 (the kit builds such MDLs on purpose).
 *
 * <p>In a chain, an MDL that starts inside the page where the previous one ends names that page's frame as its
 * first PFN, the same frame as the previous MDL's last PFN (TR-3): the chain stays virtually contiguous.
 *
 * <p>Everything but {@link #next()} is fixed at construction; {@link #modificationCount()} counts every
 * change of Next so a guard can see a consumer touching a chain while a request on it is pending
 * (MR-REG-5, LAM-1).
 */
public final class Mdl {
    private final int pageSize;
    private final long startVa;
    private final int byteOffset;
    private final int byteCount;
    private final long[] pfns;
    private volatile Mdl next;
    private volatile int modificationCount;

    /**
     * @param pageSize   PAGE_SIZE in bytes (power of two)
     * @param startVa    page-aligned virtual address of the first page (unsigned)
     * @param byteOffset offset of the region in the first page, 0 ≤ ByteOffset &lt; PAGE_SIZE
     * @param byteCount  bytes described (ULONG in an int, unsigned)
     * @param pfns       page frame numbers: exactly {@code spanPages(byteOffset, byteCount, pageSize)} entries
     * @throws IllegalArgumentException when the fields do not describe a well-formed MDL
     */
    public Mdl(int pageSize, long startVa, int byteOffset, int byteCount, long[] pfns) {
        if (pageSize < 1 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("PAGE_SIZE must be a power of two: " + pageSize);
        }
        if ((startVa & (pageSize - 1)) != 0) {
            throw new IllegalArgumentException(String.format("StartVa 0x%X is not page aligned", startVa));
        }
        if (byteOffset < 0 || byteOffset >= pageSize) {
            throw new IllegalArgumentException("ByteOffset must be in [0, PAGE_SIZE): " + byteOffset);
        }
        long span = spanPages(byteOffset, Integer.toUnsignedLong(byteCount), pageSize);
        if (pfns.length != span) {
            throw new IllegalArgumentException("MDL spans " + span + " pages but has " + pfns.length + " PFNs");
        }
        this.pageSize = pageSize;
        this.startVa = startVa;
        this.byteOffset = byteOffset;
        this.byteCount = byteCount;
        this.pfns = pfns;
    }

    /**
     * Builds an MDL for the region at {@code virtualAddress}.
     *
     * @param pageSize       PAGE_SIZE in bytes
     * @param virtualAddress MmGetMdlVirtualAddress (unsigned)
     * @param byteCount      bytes (ULONG in an int, unsigned)
     * @param pfns           page frames, one per page spanned
     * @return the MDL
     */
    public static Mdl of(int pageSize, long virtualAddress, int byteCount, long[] pfns) {
        long mask = pageSize - 1L;
        return new Mdl(pageSize, virtualAddress & ~mask, (int) (virtualAddress & mask), byteCount, pfns);
    }

    /**
     * ADDRESS_AND_SIZE_TO_SPAN_PAGES for an offset in the first page.
     *
     * @param byteOffset offset in the first page, 0 ≤ offset &lt; pageSize
     * @param size       bytes (unsigned, ≤ 2^32 - 1 for an MDL, larger for a fast registration)
     * @param pageSize   PAGE_SIZE
     * @return pages spanned; 0 when {@code size} is 0
     */
    public static long spanPages(int byteOffset, long size, int pageSize) {
        if (size == 0) {
            return 0;
        }
        return (byteOffset + size + pageSize - 1) / pageSize;
    }

    /** @return PAGE_SIZE in bytes */
    public int pageSize() {
        return pageSize;
    }

    /** @return StartVa: page-aligned virtual address (unsigned) */
    public long startVa() {
        return startVa;
    }

    /** @return ByteOffset in the first page */
    public int byteOffset() {
        return byteOffset;
    }

    /** @return ByteCount (ULONG in an int; read with {@link #unsignedByteCount()}) */
    public int byteCount() {
        return byteCount;
    }

    /** @return ByteCount as an unsigned value */
    public long unsignedByteCount() {
        return Integer.toUnsignedLong(byteCount);
    }

    /** @return MmGetMdlVirtualAddress: StartVa + ByteOffset (unsigned) */
    public long virtualAddress() {
        return startVa + byteOffset;
    }

    /** @return the page frame numbers, one per page spanned (the MDL's own array: do not modify) */
    public long[] pfns() {
        return pfns;
    }

    /** @return the next MDL of the chain, or null */
    public Mdl next() {
        return next;
    }

    /**
     * Links the next MDL of a chain (consumer side, before the chain is handed to a provider).
     *
     * @param next the next MDL, or null to end the chain
     * @return this MDL
     */
    public Mdl setNext(Mdl next) {
        this.next = next;
        modificationCount++;
        return this;
    }

    /** @return how many times Next was changed */
    public int modificationCount() {
        return modificationCount;
    }

    /** @return the total ByteCount of this MDL and every MDL after it (unsigned, cannot overflow for &lt; 2^31 MDLs) */
    public long chainByteCount() {
        long total = 0;
        for (Mdl m = this; m != null; m = m.next) {
            total += m.unsignedByteCount();
        }
        return total;
    }

    @Override
    public String toString() {
        return String.format("Mdl{VA=0x%016X, ByteCount=0x%X, pages=%d%s}", virtualAddress(), byteCount,
                pfns.length, next == null ? "" : ", Next=" + next);
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    /** @return a copy of the PFN array, for snapshots (LAM-REL-1) */
    public long[] pfnsCopy() {
        return Arrays.copyOf(pfns, pfns.length);
    }
}
