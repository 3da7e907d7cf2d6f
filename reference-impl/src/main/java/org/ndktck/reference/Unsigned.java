package org.ndktck.reference;

/**
 * Unsigned 64-bit range arithmetic that cannot wrap. PVOID, SIZE_T and NDK_LOGICAL_ADDRESS travel in Java
 * longs and are read as unsigned; these helpers never overflow and never throw.
 */
public final class Unsigned {
    private Unsigned() {
    }

    /** 2^64 - 1 as an unsigned long. */
    public static final long MAX = -1L;

    /**
     * @param start  first byte address (unsigned)
     * @param length byte count (unsigned)
     * @return true when the last byte {@code start + length - 1} lies past 2^64 - 1 (the region wraps);
     *     false for {@code length == 0} and for a region that ends exactly at 2^64
     */
    public static boolean lastByteWraps(long start, long length) {
        return length != 0 && Long.compareUnsigned(length - 1, MAX - start) > 0;
    }

    /**
     * @param a unsigned
     * @param b unsigned
     * @return a + b, or 2^64 - 1 when the sum does not fit
     */
    public static long saturatingAdd(long a, long b) {
        long s = a + b;
        return Long.compareUnsigned(s, a) < 0 ? MAX : s;
    }
}
