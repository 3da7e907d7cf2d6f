package org.ndktck.reference;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;

/**
 * An NdkBuildLam call as the checks of {@link Pieces#BUILD_LAM} see it.
 *
 * @param adapter     the adapter
 * @param mdl         the first MDL of the chain
 * @param chain       the one-pass summary of the chain over {@code length}
 * @param length      Length in bytes (SIZE_T in a long, unsigned)
 * @param offeredSize {@code *pLAMSize} on input, bytes (ULONG in an int, unsigned)
 */
public record BuildLamRequest(AdapterView adapter, Mdl mdl, MdlChainSummary chain, long length, int offeredSize) {

    /**
     * @return the AdapterPageArray entries the mapping needs: ADDRESS_AND_SIZE_TO_SPAN_PAGES(VA, Length),
     *     computed without overflow (0 for Length 0)
     */
    public long pagesNeeded() {
        if (length == 0) {
            return 0;
        }
        long pageSize = adapter.pageSize();
        long offset = chain.virtualAddress() & (pageSize - 1);
        // (offset + length + pageSize - 1) / pageSize without overflow: split length into pages and remainder
        long fullPages = Long.divideUnsigned(length, pageSize);
        long rest = offset + Long.remainderUnsigned(length, pageSize);
        return fullPages + (rest + pageSize - 1) / pageSize;
    }

    /**
     * @return the bytes {@code *pLAMSize} must offer: 16 + 8 × pages (unsigned; PAGE_SIZE ≥ 4096 keeps pages below
     *     2^52 + 2, so the sum stays below 2^56 and cannot wrap)
     */
    public long bytesNeeded() {
        return NdkLogicalAddressMapping.bytesFor(pagesNeeded());
    }
}
