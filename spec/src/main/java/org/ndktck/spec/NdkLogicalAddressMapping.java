package org.ndktck.spec;

/**
 * NDK_LOGICAL_ADDRESS_MAPPING with the in/out parameters of NdkBuildLam ({@code pLAMSize}, {@code pFBO}).
 *
 * <p>The consumer creates it with the buffer size it offers, in bytes ({@code *pLAMSize} on input, a
 * ULONG in an int, unsigned). The C structure is {@link #HEADER_BYTES} bytes of header followed by 8
 * bytes per AdapterPageArray entry, so a buffer of S bytes holds {@code (S - 16) / 8} entries.
 *
 * <p>After NdkBuildLam: on STATUS_BUFFER_TOO_SMALL, {@link #lamSize()} is the size needed (LAM-3); on
 * success (inline or through the completion), {@link #lamSize()} is the bytes written,
 * {@link #adapterPageCount()} the entry count, {@link #adapterPageArray()} the PAGE_SIZE-aligned logical
 * addresses and {@link #fbo()} the offset of the region in the first page (LAM-4). The consumer must
 * not read these while the request is pending, nor change {@link #adapterContext()} (LAM-9).
 */
public final class NdkLogicalAddressMapping {
    /** FIELD_OFFSET(NDK_LOGICAL_ADDRESS_MAPPING, AdapterPageArray) on x64: 16 bytes. */
    public static final int HEADER_BYTES = 16;
    /** Bytes per NDK_LOGICAL_ADDRESS entry: 8. */
    public static final int ENTRY_BYTES = 8;

    private volatile int lamSize;
    private volatile int fbo;
    private volatile int adapterPageCount;
    private volatile long[] adapterPageArray = new long[0];
    private volatile Object adapterContext;

    /**
     * @param lamSizeBytes the buffer size offered, in bytes (ULONG carried in an int, unsigned)
     */
    public NdkLogicalAddressMapping(int lamSizeBytes) {
        this.lamSize = lamSizeBytes;
    }

    /**
     * @param pageCount an entry count
     * @return the buffer size in bytes needed for that many entries: 16 + 8 × pageCount (may exceed 2^32 - 1
     *     for absurd counts; callers compare unsigned)
     */
    public static long bytesFor(long pageCount) {
        return HEADER_BYTES + ENTRY_BYTES * pageCount;
    }

    /** @return how many entries the offered buffer holds: (lamSize - 16) / 8, or 0 when it is smaller than 16 */
    public long capacity() {
        long size = Integer.toUnsignedLong(lamSize);
        return size < HEADER_BYTES ? 0 : (size - HEADER_BYTES) / ENTRY_BYTES;
    }

    /** @return {@code *pLAMSize}: bytes offered before the call, bytes written or needed after it (unsigned) */
    public int lamSize() {
        return lamSize;
    }

    /** Provider side: sets {@code *pLAMSize} (bytes, unsigned). */
    public void setLamSize(int lamSize) {
        this.lamSize = lamSize;
    }

    /** @return {@code *pFBO}: byte offset of the region in the first page, 0 ≤ FBO &lt; PAGE_SIZE (ULONG in an int) */
    public int fbo() {
        return fbo;
    }

    /** Provider side: sets {@code *pFBO}. */
    public void setFbo(int fbo) {
        this.fbo = fbo;
    }

    /** @return AdapterPageCount: the number of valid entries (ULONG in an int, unsigned) */
    public int adapterPageCount() {
        return adapterPageCount;
    }

    /**
     * @return AdapterPageArray: the adapter logical address of each PAGE_SIZE page, unsigned 64-bit; only the
     *     first {@link #adapterPageCount()} entries are meaningful. The array is the mapping's own; do not modify.
     */
    public long[] adapterPageArray() {
        return adapterPageArray;
    }

    /**
     * Provider side: fills the entries.
     *
     * @param count the entry count (ULONG in an int)
     * @param pages the logical addresses; at least {@code count} long
     */
    public void setPages(int count, long[] pages) {
        this.adapterPageArray = pages;
        this.adapterPageCount = count;
    }

    /** @return the provider's AdapterContext; the consumer must not change it (LAM-9) */
    public Object adapterContext() {
        return adapterContext;
    }

    /** Provider side: sets AdapterContext. */
    public void setAdapterContext(Object adapterContext) {
        this.adapterContext = adapterContext;
    }
}
