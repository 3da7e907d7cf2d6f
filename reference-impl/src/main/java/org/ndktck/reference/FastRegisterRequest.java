package org.ndktck.reference;

/**
 * An NdkFastRegister call as the checks of {@link Pieces#FAST_REGISTER} see it. All of them run inline,
 * before the call returns: an invalid request fails inline and never yields a CQ entry (DEF-2).
 *
 * @param adapter            the adapter
 * @param qpConnected        true when the QP is connected (not unconnected, not disconnected)
 * @param mr                 the MR named by the request ({@link MrView#samePd()}: same PD as the QP)
 * @param adapterPageCount   AdapterPageCount (ULONG in an int, unsigned)
 * @param adapterPageArray   a copy of the first min(AdapterPageCount, array length) entries (unsigned logical
 *                           addresses)
 * @param arrayLength        the length of the consumer's array
 * @param fbo                FirstByteOffset, bytes (ULONG in an int, unsigned)
 * @param length             Length, bytes (SIZE_T in a long, unsigned)
 * @param baseVirtualAddress BaseVirtualAddress (PVOID in a long, unsigned)
 * @param flags              NDK_OP_FLAG_* bits
 */
public record FastRegisterRequest(AdapterView adapter, boolean qpConnected, MrView mr, int adapterPageCount,
                                  long[] adapterPageArray, int arrayLength, int fbo, long length,
                                  long baseVirtualAddress, int flags) {
    /** @return AdapterPageCount as an unsigned value */
    public long pageCount() {
        return Integer.toUnsignedLong(adapterPageCount);
    }

    /** @return FBO as an unsigned value */
    public long unsignedFbo() {
        return Integer.toUnsignedLong(fbo);
    }
}
