package org.ndktck.tck.generators;

import java.util.Arrays;

import org.ndktck.tck.harness.Hex;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * A generated NdkRegisterMr scenario: an MDL chain, Length and Flags, valid or breaking exactly the rule
 * of {@link #kind()}.
 *
 * <p>Shapes: MDL 0 starts at {@code virtualAddress}; MDL i+1 starts where MDL i ends (a page boundary),
 * except that MDL {@code breakIndex} and every MDL after it are moved by {@code breakDelta} bytes (a
 * multiple of PAGE_SIZE), so the chain stops being virtually contiguous at byte {@link #breakOffset()}
 * of the region, and only there. The page frames are consecutive buffer pages whatever the virtual addresses, so byte k of the
 * region is byte {@code (virtualAddress mod PAGE_SIZE) + k} of the buffer.
 *
 * @param kind           what the request breaks
 * @param edge           the edge class (coverage statistics)
 * @param virtualAddress MmGetMdlVirtualAddress of MDL 0 (unsigned)
 * @param byteCounts     ByteCount of each MDL (ULONG in ints, unsigned); every MDL but the last ends on a page boundary
 * @param breakIndex     the first MDL whose VA is moved (≥ 1), or -1 for a contiguous chain
 * @param breakDelta     how far it is moved, a non-zero multiple of PAGE_SIZE
 * @param length         Length (SIZE_T, unsigned)
 * @param flags          NDK_MR_FLAG_* bits
 * @param salt           chooses probe offsets deterministically
 */
public record RegPlan(RegCase kind, String edge, long virtualAddress, int[] byteCounts, int breakIndex, long breakDelta,
                      long length, int flags, long salt) {

    /** @return the chain's total ByteCount (unsigned sum) */
    public long chainBytes() {
        long t = 0;
        for (int b : byteCounts) {
            t += Integer.toUnsignedLong(b);
        }
        return t;
    }

    /** @return the region offset where the chain stops being contiguous, or -1 for a contiguous chain */
    public long breakOffset() {
        if (breakIndex < 0) {
            return -1;
        }
        long t = 0;
        for (int i = 0; i < breakIndex; i++) {
            t += Integer.toUnsignedLong(byteCounts[i]);
        }
        return t;
    }

    /** @return a copy with other flags */
    public RegPlan withFlags(int newFlags) {
        return new RegPlan(kind, edge, virtualAddress, byteCounts, breakIndex, breakDelta, length, newFlags, salt);
    }

    /** @return the plan's label for statistics */
    public String label() {
        return kind + ": " + edge;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("RegPlan{" + kind + " (" + edge + "), VA=" + u64(virtualAddress) + ", ByteCounts=[");
        for (int i = 0; i < byteCounts.length; i++) {
            b.append(i == 0 ? "" : ", ").append(u32(byteCounts[i]));
        }
        b.append("]");
        if (breakIndex >= 0) {
            b.append(", MDL ").append(breakIndex).append(" VA moved by ").append(u64(breakDelta)).append(" (break at region byte ")
                    .append(u64(breakOffset())).append(")");
        }
        return b.append(", Length=").append(u64(length)).append(", Flags=").append(Hex.mrFlags(flags)).append(", salt=").append(salt).append("}").toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RegPlan p && p.kind == kind && p.edge.equals(edge) && p.virtualAddress == virtualAddress
                && Arrays.equals(p.byteCounts, byteCounts) && p.breakIndex == breakIndex && p.breakDelta == breakDelta
                && p.length == length && p.flags == flags && p.salt == salt;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(virtualAddress) * 31 + Arrays.hashCode(byteCounts) + Long.hashCode(length) + flags;
    }
}
