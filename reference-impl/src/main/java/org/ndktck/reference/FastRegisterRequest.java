package org.ndktck.reference;

/**
 * An NdkFastRegister call as the checks of {@link Pieces#FAST_REGISTER} see it. All of them run inline,
 * before the call returns: an invalid request fails inline and never yields a CQ entry (DEF-2).
 *
 * <p>The model reads the page array once ({@link TranslatedPages}) and hands the checks what that pass found
 * ({@code firstMisalignedPage}, {@code firstUnmappedPage}), so MR-FR-17 and MR-FR-2 need no pass of their own.
 *
 * @param adapter             the adapter
 * @param qpConnected         true when the QP is connected (not unconnected, not disconnected)
 * @param mr                  the MR named by the request ({@link MrView#samePd()}: same PD as the QP)
 * @param adapterPageCount    AdapterPageCount (ULONG in an int, unsigned)
 * @param adapterPageArray    the consumer's array (unsigned logical addresses), not copied: the request uses its
 *                            first min(AdapterPageCount, array length) entries; checks only read it, and only during the call
 * @param arrayLength         the length of the consumer's array
 * @param fbo                 FirstByteOffset, bytes (ULONG in an int, unsigned)
 * @param length              Length, bytes (SIZE_T in a long, unsigned)
 * @param baseVirtualAddress  BaseVirtualAddress (PVOID in a long, unsigned)
 * @param flags               NDK_OP_FLAG_* bits
 * @param firstMisalignedPage index of the first entry used that is not a multiple of PAGE_SIZE, or -1; entries after
 *                            the first unmapped one are not read (the array fails MR-FR-2 anyway)
 * @param firstUnmappedPage   index of the first entry used whose PAGE_SIZE page lies in no live LAM of the
 *                            adapter, or -1 (an entry inside a LAM page but not at its start counts as mapped
 *                            here; it is {@code firstMisalignedPage} that catches it)
 */
public record FastRegisterRequest(AdapterView adapter, boolean qpConnected, MrView mr, int adapterPageCount,
                                  long[] adapterPageArray, int arrayLength, int fbo, long length,
                                  long baseVirtualAddress, int flags, int firstMisalignedPage,
                                  int firstUnmappedPage) {
    /** @return AdapterPageCount as an unsigned value */
    public long pageCount() {
        return Integer.toUnsignedLong(adapterPageCount);
    }

    /** @return FBO as an unsigned value */
    public long unsignedFbo() {
        return Integer.toUnsignedLong(fbo);
    }
}
