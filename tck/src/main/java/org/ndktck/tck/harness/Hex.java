package org.ndktck.tck.harness;

import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NtStatus;

import java.util.Arrays;

/**
 * Hex renderings of NDK values for failure messages: ULONG and UINT32 values (Java int, unsigned) as
 * {@code 0x0000ABCD}, SIZE_T / PVOID / NDK_LOGICAL_ADDRESS values (Java long, unsigned) as
 * {@code 0x00000000DEADB000}, and page arrays shortened around their ends; NTSTATUS values and NDK flags by
 * name with their hex ({@link #status}, {@link #mrFlags}, {@link #opFlags}); and byte comparisons that say which
 * byte differed first ({@link #differing}). Every failure message of the kit formats its values here.
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

    /** @param code an NTSTATUS bit pattern @return its name and hex, e.g. {@code STATUS_NOT_SUPPORTED (0xC00000BB)} */
    public static String status(int code) {
        return NtStatus.of(code).toString();
    }

    /** @param flags NDK_MR_FLAG_* bits (NdkRegisterMr) @return their names and hex ({@link NdkMrFlags#describe}) */
    public static String mrFlags(int flags) {
        return NdkMrFlags.describe(flags);
    }

    /** @param flags NDK_OP_FLAG_* bits (work requests, NdkFastRegister) @return their names and hex ({@link NdkOpFlags#describe}) */
    public static String opFlags(int flags) {
        return NdkOpFlags.describe(flags);
    }

    /**
     * The actual bytes of a comparison, with what differed: {@code 0A0B0C0D (differs first at byte 2 of 4: 0x1F
     * expected, 0x0C found; 2 of 4 bytes differ)}. Byte numbers count from {@code base} (say, the region byte
     * the compared span starts at), so the message names the offset in the caller's terms.
     *
     * @param expected the bytes the kit expects
     * @param actual   the bytes found
     * @param base     the offset of byte 0 of both arrays in the caller's terms (unsigned)
     * @param unit     what the offsets count, e.g. {@code "region byte"}; {@code "byte"} when null
     * @return the actual bytes in hex and where they differ; {@code " (as expected)"} appended when they do not
     */
    public static String differing(byte[] expected, byte[] actual, long base, String unit) {
        String u = unit == null ? "byte" : unit;
        if (actual == null) {
            return "no bytes";
        }
        int i = Arrays.mismatch(expected, actual);
        if (i < 0) {
            return bytes(actual) + " (as expected)";
        }
        StringBuilder b = new StringBuilder(bytes(actual)).append(" (");
        if (i >= Math.min(expected.length, actual.length)) {
            b.append(actual.length).append(" bytes instead of ").append(expected.length);
        } else {
            int n = 0;
            for (int k = 0; k < Math.min(expected.length, actual.length); k++) {
                n += expected[k] != actual[k] ? 1 : 0;
            }
            b.append("differs first at ").append(u).append(' ').append(u64(base + i))
                    .append(String.format(": 0x%02X expected, 0x%02X found; ", expected[i] & 0xFF, actual[i] & 0xFF))
                    .append(n).append(" of ").append(expected.length).append(" bytes differ");
            if (actual.length != expected.length) {
                b.append("; ").append(actual.length).append(" bytes instead of ").append(expected.length);
            }
        }
        return b.append(')').toString();
    }

    /** As {@link #differing(byte[], byte[], long, String)} counting from byte 0 of the compared span. */
    public static String differing(byte[] expected, byte[] actual) {
        return differing(expected, actual, 0, "byte");
    }
}
