package org.ndktck.spec;

import java.util.List;
import java.util.Map;

/** Names the bits of an NDK flag word for messages ({@link NdkMrFlags#describe}, {@link NdkOpFlags#describe}). */
final class FlagNames {
    private FlagNames() {
    }

    /**
     * Each defined flag whose bits are all set (a composite takes its contained bits with it, so list it first),
     * bits left over as {@code undefined 0x...}, and the whole value in hex.
     *
     * @param prefix the constant names' prefix, e.g. {@code NDK_OP_FLAG_}
     * @param names  the flags in naming order
     * @param none   what names a value with no defined bit set and none left over
     * @param flags  the flags (ULONG, carried in an int)
     * @return for example {@code NDK_OP_FLAG_...|NDK_OP_FLAG_... (0x0000000A)}
     */
    static String describe(String prefix, List<Map.Entry<String, Integer>> names, String none, int flags) {
        StringBuilder b = new StringBuilder();
        int left = flags;
        for (Map.Entry<String, Integer> e : names) {
            int v = e.getValue();
            if (v != 0 && (left & v) == v) {
                b.append(b.length() == 0 ? "" : "|").append(prefix).append(e.getKey());
                left &= ~v;
            }
        }
        if (left != 0) {
            b.append(b.length() == 0 ? "" : "|").append(String.format("undefined 0x%08X", left));
        }
        if (b.length() == 0) {
            b.append(none);
        }
        return b.append(String.format(" (0x%08X)", flags)).toString();
    }
}
