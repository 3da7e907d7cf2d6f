package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkSge;

/**
 * A registered buffer: {@code pages} pages of a guarded {@link HostBuffer}, one MDL at {@code va}, an
 * MR registered over [{@code va}, {@code va + length}) with {@code flags}.
 *
 * @param side        target or peer
 * @param buffer      the buffer; region byte k is buffer byte (va mod PAGE_SIZE) + k
 * @param mdl         the MDL
 * @param va          MmGetMdlVirtualAddress, the region's base (unsigned)
 * @param length      Length in bytes
 * @param flags       NDK_MR_FLAG_* bits
 * @param mr          the MR (the session deregisters and closes it)
 * @param localToken  NdkGetLocalTokenFromMr
 * @param remoteToken NdkGetRemoteTokenFromMr
 */
public record Registered(Side side, HostBuffer buffer, Mdl mdl, long va, long length, int flags, NdkMr mr,
                         int localToken, int remoteToken) {
    /** @return buffer offset of region byte 0 */
    public long bufferOffset() {
        return va & (buffer.size() / buffer.pages() - 1);
    }

    /**
     * @param k region offset
     * @param n bytes
     * @return an SGE {va + k, n, local token}
     */
    public NdkSge sge(long k, int n) {
        return new NdkSge(va + k, n, localToken);
    }

    /** @return the region as a peer sees it */
    public Region region() {
        return new Region(buffer, bufferOffset(), va, length, remoteToken);
    }
}
