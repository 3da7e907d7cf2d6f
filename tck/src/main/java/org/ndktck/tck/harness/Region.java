package org.ndktck.tck.harness;

/**
 * A registered (or possibly registered) region as a peer sees it: remote addresses
 * [{@code base}, {@code base + length}) with {@code remoteToken}, whose byte k is byte
 * {@code bufferOffset + k} of {@code buffer}.
 *
 * @param buffer       the target buffer behind the region
 * @param bufferOffset buffer offset of region byte 0 (unsigned)
 * @param base         the region's remote base: the MDL's virtual address or the BaseVirtualAddress (unsigned)
 * @param length       the region's Length (unsigned)
 * @param remoteToken  the MR's remote token (UINT32 in an int)
 */
public record Region(HostBuffer buffer, long bufferOffset, long base, long length, int remoteToken) {

    /** @return base + length as an unsigned value, or empty when it reaches 2^64 (the region ends at 2^64 - 1) */
    public java.util.OptionalLong end() {
        long e = base + length;
        return Long.compareUnsigned(e, base) <= 0 && length != 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(e);
    }

    /** @param address a remote address @return true when it is inside [base, base + length) */
    public boolean contains(long address) {
        return Long.compareUnsigned(address - base, length) < 0;
    }

    @Override
    public String toString() {
        return "region [" + Hex.u64(base) + ", +" + Hex.u64(length) + ") token " + Hex.u32(remoteToken);
    }
}
