package org.ndktck.spec;

import java.util.List;
import java.util.Map;

/**
 * The NDK_MR_FLAG_* access flags of NdkRegisterMr (ULONG, carried in a Java int; values from ndkpi.h,
 * digest section 17). They are permissions; local read is always present. ALLOW_REMOTE_WRITE (0x5)
 * contains ALLOW_LOCAL_WRITE (0x1), so test a flag with {@code (flags & X) == X}. The lone bit 0x4
 * has no defined meaning and never grants remote write (AMB-4, AMB-23, MR-REG-14). Source: NDK_FN_REGISTER_MR; rules MR-REG-6 to MR-REG-8.
 */
public final class NdkMrFlags {
    private NdkMrFlags() {
    }

    /** NDK_MR_FLAG_ALLOW_LOCAL_READ, 0x00000000: local read access (always granted). */
    public static final int ALLOW_LOCAL_READ = 0x00000000;
    /** NDK_MR_FLAG_ALLOW_LOCAL_WRITE, 0x00000001: the region may be a local sink (Receive, Read target). */
    public static final int ALLOW_LOCAL_WRITE = 0x00000001;
    /** NDK_MR_FLAG_ALLOW_REMOTE_READ, 0x00000002: a peer may RDMA-read the region. */
    public static final int ALLOW_REMOTE_READ = 0x00000002;
    /** NDK_MR_FLAG_ALLOW_REMOTE_WRITE, 0x00000005: a peer may RDMA-write the region (includes local write). */
    public static final int ALLOW_REMOTE_WRITE = 0x00000005;
    /** NDK_MR_FLAG_RDMA_READ_SINK, 0x00000008: the region may receive RDMA-read data (MR-REG-6, MR-REG-7). */
    public static final int RDMA_READ_SINK = 0x00000008;

    /** Every bit that some defined flag uses: 0xF. A bit outside this mask is undefined for an MR. */
    public static final int DEFINED_BITS = ALLOW_LOCAL_WRITE | ALLOW_REMOTE_READ | ALLOW_REMOTE_WRITE | RDMA_READ_SINK;

    /**
     * @param flags NDK_MR_FLAG_* bits
     * @return true when every bit of a defined composite is present, i.e. {@code (flags & 0x5) == 0x5}
     */
    public static boolean allowsRemoteWrite(int flags) {
        return (flags & ALLOW_REMOTE_WRITE) == ALLOW_REMOTE_WRITE;
    }

    /** The flags in the order {@link #describe(int)} names them; a composite flag before the bits it contains. */
    private static final List<Map.Entry<String, Integer>> NAMES = List.of(
            Map.entry("ALLOW_REMOTE_WRITE", ALLOW_REMOTE_WRITE),
            Map.entry("ALLOW_LOCAL_WRITE", ALLOW_LOCAL_WRITE),
            Map.entry("ALLOW_REMOTE_READ", ALLOW_REMOTE_READ),
            Map.entry("RDMA_READ_SINK", RDMA_READ_SINK));

    /**
     * Names NDK flag bits for messages: each defined flag whose bits are all set (a composite such as
     * ALLOW_REMOTE_WRITE takes its contained bits with it), bits left over as {@code undefined 0x...}, and the
     * whole value in hex, for example {@code NDK_MR_FLAG_...|NDK_MR_FLAG_... (0x0000000A)}.
     *
     * @param flags the flags (ULONG, carried in an int)
     * @return their names and hex value; {@code NDK_MR_FLAG_ALLOW_LOCAL_READ (0x00000000)} for no bits
     */
    public static String describe(int flags) {
        return FlagNames.describe("NDK_MR_FLAG_", NAMES, "NDK_MR_FLAG_ALLOW_LOCAL_READ", flags);
    }
}
