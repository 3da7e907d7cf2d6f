package org.ndktck.reference;

/**
 * Requests made by hand for the unit tests of the rule checks: a {@link FastRegisterRequest} whose
 * {@code firstMisalignedPage} and {@code firstUnmappedPage} are found here, entry by entry, the way the
 * reference's NdkFastRegister finds them in one pass ({@link TranslatedPages}).
 */
final class HandMadeRequests {
    private HandMadeRequests() {
    }

    /**
     * @param adapter          the adapter (PAGE_SIZE, live LAM pages)
     * @param qpConnected      whether the QP is connected
     * @param mr               the MR
     * @param adapterPageCount AdapterPageCount (ULONG in an int)
     * @param adapterPageArray the page array (logical addresses)
     * @param arrayLength      the array length the consumer claims
     * @param fbo              FBO (ULONG in an int)
     * @param length           Length (SIZE_T in a long, unsigned)
     * @param baseVirtualAddress BaseVirtualAddress (unsigned)
     * @param flags            NDK_OP_FLAG bits
     * @return the request, with the first misaligned and the first unmapped entry used (or -1)
     */
    static FastRegisterRequest fastRegister(AdapterView adapter, boolean qpConnected, MrView mr, int adapterPageCount,
                                            long[] adapterPageArray, int arrayLength, int fbo, long length,
                                            long baseVirtualAddress, int flags) {
        int used = (int) Math.min(Integer.toUnsignedLong(adapterPageCount), adapterPageArray.length);
        long mask = adapter.pageSize() - 1L;
        int misaligned = -1;
        int unmapped = -1;
        for (int i = 0; i < used; i++) {
            if (misaligned < 0 && (adapterPageArray[i] & mask) != 0) {
                misaligned = i;
            }
            if (unmapped < 0 && !isLiveLogicalPage(adapter, adapterPageArray[i] & ~mask)) {
                unmapped = i;
            }
        }
        return new FastRegisterRequest(adapter, qpConnected, mr, adapterPageCount, adapterPageArray, arrayLength, fbo, length,
                baseVirtualAddress, flags, misaligned, unmapped);
    }

    /** @return true when {@code logicalAddress} starts a PAGE_SIZE page of a live LAM of the adapter (real or fake) */
    static boolean isLiveLogicalPage(AdapterView adapter, long logicalAddress) {
        if (adapter instanceof StandardChecksTest.FakeAdapter fake) {
            return fake.live().test(logicalAddress);
        }
        ReferenceAdapter real = (ReferenceAdapter) adapter;
        if ((logicalAddress & (real.pageSize() - 1L)) != 0) {
            return false;
        }
        real.lock.lock();
        try {
            return real.lams.lamContaining(logicalAddress) != null;
        } finally {
            real.lock.unlock();
        }
    }
}
