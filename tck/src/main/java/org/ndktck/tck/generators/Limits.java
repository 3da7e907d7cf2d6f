package org.ndktck.tck.generators;

import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.tck.harness.ProviderUnderTest;

/**
 * What the generators need to know about the provider under test: PAGE_SIZE, FRMRPageCount,
 * MaxRegistrationSize and whether READ_SINK is optional. Read once per property from
 * {@link ProviderUnderTest} (in a {@code @Provide} method).
 *
 * @param pageSize            PAGE_SIZE in bytes (power of two, ≥ 4096)
 * @param frmrPageCount       FRMRPageCount (unsigned, carried in a long here)
 * @param maxRegistrationSize MaxRegistrationSize in bytes (unsigned SIZE_T in a long)
 * @param readSinkNotRequired whether NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED is set
 */
public record Limits(int pageSize, long frmrPageCount, long maxRegistrationSize, boolean readSinkNotRequired) {
    /** The largest page array the kit builds: 2^20 entries (2^32 bytes at 4096-byte pages). */
    public static final int MAX_PAGES = 1 << 20;

    /** @return the limits of the provider under test */
    public static Limits current() {
        ProviderUnderTest put = ProviderUnderTest.get();
        NdkAdapterInfo info = put.adapterInfo();
        return new Limits(put.pageSize(), info.unsignedFrmrPageCount(), info.maxRegistrationSize(),
                info.hasFlag(NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED));
    }

    /**
     * @return the page count of the "big" fast-register case: the largest array whose bytes reach 2^32
     *     and whose pages one MDL can describe, i.e. min(2^20, 2^32 / PAGE_SIZE) entries; 0 when
     *     FRMRPageCount is smaller (the big case does not apply to this adapter)
     */
    public int bigPages() {
        int n = (int) Math.min(MAX_PAGES, (1L << 32) / pageSize);
        return frmrPageCount >= n ? n : 0;
    }

    /** @return FRMRPageCount capped to what the kit builds routinely (4096) */
    public int routinePages() {
        return (int) Math.min(frmrPageCount, 4096);
    }
}
