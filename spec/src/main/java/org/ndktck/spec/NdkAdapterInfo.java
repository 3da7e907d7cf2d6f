package org.ndktck.spec;

/**
 * NDK_ADAPTER_INFO, the fields the memory-region rules use (AI-1 to AI-4; source: the NDK_ADAPTER_INFO
 * page of ndkinfo.h). ULONG fields travel in Java ints and SIZE_T fields in longs, all read as unsigned.
 *
 * @param version                the NDKPI version the adapter implements (1.1 or 1.2)
 * @param adapterFlags           NDK_ADAPTER_FLAG_* bits ({@link NdkAdapterFlags})
 * @param frmrPageCount          FRMRPageCount: the most pages one fast-register MR can map; at least 16 (AI-1)
 * @param maxRegistrationSize    MaxRegistrationSize: the largest single registration, in bytes (SIZE_T)
 * @param maxWindowSize          MaxWindowSize: the largest memory window, in bytes (SIZE_T)
 * @param maxInitiatorRequestSge MaxInitiatorRequestSge
 * @param maxReceiveRequestSge   MaxReceiveRequestSge
 * @param maxReadRequestSge      MaxReadRequestSge
 * @param maxTransferLength      MaxTransferLength: bytes of all SGEs of one request
 * @param maxInlineDataSize      MaxInlineDataSize, in bytes
 * @param maxInboundReadLimit    MaxInboundReadLimit: reads in progress per QP as target
 * @param maxOutboundReadLimit   MaxOutboundReadLimit: reads in progress per QP as initiator
 * @param maxReceiveQueueDepth   MaxReceiveQueueDepth
 * @param maxInitiatorQueueDepth MaxInitiatorQueueDepth
 * @param maxCqDepth             MaxCqDepth
 */
public record NdkAdapterInfo(
        NdkVersion version,
        int adapterFlags,
        int frmrPageCount,
        long maxRegistrationSize,
        long maxWindowSize,
        int maxInitiatorRequestSge,
        int maxReceiveRequestSge,
        int maxReadRequestSge,
        int maxTransferLength,
        int maxInlineDataSize,
        int maxInboundReadLimit,
        int maxOutboundReadLimit,
        int maxReceiveQueueDepth,
        int maxInitiatorQueueDepth,
        int maxCqDepth) {

    /** @return true when every bit of {@code flag} is set in AdapterFlags */
    public boolean hasFlag(int flag) {
        return (adapterFlags & flag) == flag;
    }

    /** @return FRMRPageCount as an unsigned value */
    public long unsignedFrmrPageCount() {
        return Integer.toUnsignedLong(frmrPageCount);
    }
}
