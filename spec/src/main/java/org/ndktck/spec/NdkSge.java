package org.ndktck.spec;

/**
 * NDK_SGE: one scatter/gather element of a work request (SGE-1 to SGE-4).
 *
 * <p>{@code address} is the C union: a virtual address inside a region registered with the MR whose
 * token is {@code memoryRegionToken}, or, when the token is the PD's privileged token, an adapter
 * logical address from a LAM. It is a PVOID / NDK_LOGICAL_ADDRESS carried in a Java long and read as
 * unsigned. {@code length} is a ULONG in bytes, carried in an int and read as unsigned
 * ({@link Integer#toUnsignedLong(int)}). {@code memoryRegionToken} is a UINT32 in an int.
 *
 * @param address           VirtualAddress or LogicalAddress, unsigned 64-bit
 * @param length            byte count, unsigned 32-bit
 * @param memoryRegionToken local token of the MR, or the privileged token; ignored for INLINE requests
 */
public record NdkSge(long address, int length, int memoryRegionToken) {
    /** @return {@code length} as an unsigned byte count */
    public long unsignedLength() {
        return Integer.toUnsignedLong(length);
    }

    @Override
    public String toString() {
        return String.format("NdkSge{address=0x%016X, length=0x%08X, token=0x%08X}", address, length, memoryRegionToken);
    }
}
