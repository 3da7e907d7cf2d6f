package org.ndktck.reference;

import java.util.Objects;

import org.ndktck.spec.Mdl;

/**
 * The one pass over an MDL chain that every chain rule reads (MR-REG-1, MR-REG-2, MR-REG-13, LAM-1,
 * LAM-2). Cost: linear in the number of MDLs; a cyclic chain is detected (Floyd) instead of looping.
 *
 * @param virtualAddress        MmGetMdlVirtualAddress of the first MDL (unsigned)
 * @param mdlCount              MDLs walked (the whole chain, or up to the cycle)
 * @param totalByteCount        the chain's total ByteCount (unsigned; saturates at 2^64 - 1)
 * @param cyclic                true when the chain's Next pointers form a cycle
 * @param contiguousOverLength  true when every MDL that the first {@code length} bytes reach starts where the
 *                              previous one ended (next VA == previous VA + ByteCount); MDLs after
 *                              {@code length} are not checked
 * @param pageSplitWithinLength true when, within the first {@code length} bytes, an MDL starts in the middle
 *                              of a page with a different page frame than the one the previous MDL ended in
 *                              (a page that no single PAGE_SIZE logical address can describe; matters for LAMs)
 */
public record MdlChainSummary(long virtualAddress, long mdlCount, long totalByteCount, boolean cyclic,
                              boolean contiguousOverLength, boolean pageSplitWithinLength) {

    /**
     * Walks the chain once.
     *
     * @param first    the first MDL
     * @param length   the bytes the request covers from the first MDL's VA (unsigned)
     * @param pageSize PAGE_SIZE in bytes
     * @return the summary
     * @throws NullPointerException when {@code first} is null
     */
    public static MdlChainSummary walk(Mdl first, long length, int pageSize) {
        Objects.requireNonNull(first, "mdl");
        long mask = pageSize - 1L;
        long va = first.virtualAddress();
        long expectedVa = va;
        long covered = 0;
        long count = 0;
        boolean contiguous = true;
        boolean split = false;
        boolean cyclic = false;
        long previousLastPfn = 0;
        boolean havePrevious = false;
        Mdl slow = first;
        for (Mdl m = first; m != null; m = m.next()) {
            count++;
            boolean reached = Long.compareUnsigned(covered, length) < 0;
            long mdlVa = m.virtualAddress();
            long bytes = m.unsignedByteCount();
            // the first MDL starts at expectedVa and has no previous one, so it passes both tests
            if (reached) {
                if (mdlVa != expectedVa) {
                    contiguous = false;
                } else if ((mdlVa & mask) != 0 && bytes != 0 && havePrevious && m.pfns()[0] != previousLastPfn) {
                    split = true;
                }
            }
            if (bytes != 0) { // an MDL with bytes has at least one PFN
                previousLastPfn = m.pfns()[m.pfns().length - 1];
                havePrevious = true;
            }
            expectedVa = mdlVa + bytes;
            covered = Unsigned.saturatingAdd(covered, bytes);
            if ((count & 1) == 0) {
                slow = slow.next();
            }
            if (m.next() == slow) { // slow is never null: it trails m
                cyclic = true;
                break;
            }
        }
        return new MdlChainSummary(va, count, covered, cyclic, contiguous, split);
    }
}
