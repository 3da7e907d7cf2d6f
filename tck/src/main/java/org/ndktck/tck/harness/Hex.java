package org.ndktck.tck.harness;

/**
 * Hex renderings of NDK values for failure messages: ULONG and UINT32 values (Java int, unsigned) as
 * {@code 0x0000ABCD}, SIZE_T / PVOID / NDK_LOGICAL_ADDRESS values (Java long, unsigned) as
 * {@code 0x00000000DEADB000}, and page arrays shortened around their ends.
 */
public final class Hex {
    private Hex() {
    }

    /** @param v a ULONG carried in an int @return {@code 0x%08X} */
    public static String u32(int v) {
        return String.format("0x%08X", v);
    }

    /** @param v a SIZE_T or PVOID carried in a long @return {@code 0x%016X} */
    public static String u64(long v) {
        return String.format("0x%016X", v);
    }

    /**
     * @param pages an AdapterPageArray (unsigned 64-bit logical addresses)
     * @param count the entries that matter (AdapterPageCount, unsigned); more than {@code pages.length} is shown as such
     * @return the first three and the last entry, with the count
     */
    public static String pages(long[] pages, int count) {
        long n = Integer.toUnsignedLong(count);
        StringBuilder b = new StringBuilder("[");
        long shown = Math.min(n, pages == null ? 0 : pages.length);
        for (int i = 0; i < shown; i++) {
            if (i == 3 && shown > 4) {
                b.append(", ... ").append(shown - 4).append(" more");
                i = (int) shown - 1;
            }
            if (i > 0) {
                b.append(", ");
            }
            b.append(u64(pages[i]));
        }
        if (pages != null && n > pages.length) {
            b.append(" (array holds only ").append(pages.length).append(" entries)");
        }
        return b.append("] (").append(n).append(" entries)").toString();
    }

    /** @param bytes bytes @return them in hex, at most 32 shown */
    public static String bytes(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < bytes.length && i < 32; i++) {
            b.append(String.format("%02X", bytes[i]));
        }
        if (bytes.length > 32) {
            b.append("...(").append(bytes.length).append(" bytes)");
        }
        return b.toString();
    }
}
