package org.ndktck.spec;

import java.util.List;
import java.util.Map;

/**
 * The NDK_OP_FLAG_* work-request flags (ULONG, carried in a Java int; values from ndkpi.h, digest
 * section 17). For NdkFastRegister they are access permissions plus request options; ALLOW_REMOTE_WRITE
 * (0x30) contains ALLOW_LOCAL_WRITE (0x10), and the lone bit 0x20 is undefined and never grants remote write (AMB-4, MR-FR-19). Where the
 * NdkRead page and the header disagree on RDMA_READ_LOCAL_INVALIDATE, the header's 0x100 is used (AMB-3).
 * Source: NDK_FN_FAST_REGISTER, NDK_FN_INVALIDATE, NDK_FN_READ, NDK_FN_WRITE; rules MR-FR-5, MR-FR-11, RW-4, RW-5.
 */
public final class NdkOpFlags {
    private NdkOpFlags() {
    }

    /** NDK_OP_FLAG_SILENT_SUCCESS, 0x00000001: no CQ entry when the request succeeds (RW-5). */
    public static final int SILENT_SUCCESS = 0x00000001;
    /** NDK_OP_FLAG_READ_FENCE, 0x00000002: earlier reads finish before this request starts (RW-6). */
    public static final int READ_FENCE = 0x00000002;
    /** NDK_OP_FLAG_SEND_AND_SOLICIT_EVENT, 0x00000004. */
    public static final int SEND_AND_SOLICIT_EVENT = 0x00000004;
    /** NDK_OP_FLAG_ALLOW_REMOTE_READ, 0x00000008: fast-registered region readable by a peer. */
    public static final int ALLOW_REMOTE_READ = 0x00000008;
    /** NDK_OP_FLAG_ALLOW_LOCAL_WRITE, 0x00000010: fast-registered region writable locally. */
    public static final int ALLOW_LOCAL_WRITE = 0x00000010;
    /** NDK_OP_FLAG_ALLOW_REMOTE_WRITE, 0x00000030: fast-registered region writable by a peer (includes 0x10). */
    public static final int ALLOW_REMOTE_WRITE = 0x00000030;
    /** NDK_OP_FLAG_INLINE, 0x00000040: the SGE data is copied at post time; the token is ignored (SGE-3). */
    public static final int INLINE = 0x00000040;
    /** NDK_OP_FLAG_RDMA_READ_SINK, 0x00000080: the fast-registered region may receive RDMA-read data (MR-FR-11). */
    public static final int RDMA_READ_SINK = 0x00000080;
    /** NDK_OP_FLAG_RDMA_READ_LOCAL_INVALIDATE, 0x00000100 (header value; the NdkRead page says 0x200, AMB-3). */
    public static final int RDMA_READ_LOCAL_INVALIDATE = 0x00000100;
    /** NDK_OP_FLAG_DEFER, 0x00000200: a hint that the request may be held back (NDKPI 1.2 and later, DEF-1). */
    public static final int DEFER = 0x00000200;

    /** The bits that NdkFastRegister documents: SILENT_SUCCESS, READ_FENCE, the access bits, RDMA_READ_SINK, DEFER. */
    public static final int FAST_REGISTER_DEFINED_BITS =
            SILENT_SUCCESS | READ_FENCE | ALLOW_REMOTE_READ | ALLOW_REMOTE_WRITE | RDMA_READ_SINK | DEFER;

    /**
     * @param flags NDK_OP_FLAG_* bits
     * @return true when {@code (flags & 0x30) == 0x30}
     */
    public static boolean allowsRemoteWrite(int flags) {
        return (flags & ALLOW_REMOTE_WRITE) == ALLOW_REMOTE_WRITE;
    }

    /** The flags in the order {@link #describe(int)} names them; a composite flag before the bits it contains. */
    private static final List<Map.Entry<String, Integer>> NAMES = List.of(
            Map.entry("SILENT_SUCCESS", SILENT_SUCCESS),
            Map.entry("READ_FENCE", READ_FENCE),
            Map.entry("SEND_AND_SOLICIT_EVENT", SEND_AND_SOLICIT_EVENT),
            Map.entry("ALLOW_REMOTE_READ", ALLOW_REMOTE_READ),
            Map.entry("ALLOW_REMOTE_WRITE", ALLOW_REMOTE_WRITE),
            Map.entry("ALLOW_LOCAL_WRITE", ALLOW_LOCAL_WRITE),
            Map.entry("INLINE", INLINE),
            Map.entry("RDMA_READ_SINK", RDMA_READ_SINK),
            Map.entry("RDMA_READ_LOCAL_INVALIDATE", RDMA_READ_LOCAL_INVALIDATE),
            Map.entry("DEFER", DEFER));

    /**
     * Names NDK flag bits for messages: each defined flag whose bits are all set (a composite such as
     * ALLOW_REMOTE_WRITE takes its contained bits with it), bits left over as {@code undefined 0x...}, and the
     * whole value in hex, for example {@code NDK_OP_FLAG_...|NDK_OP_FLAG_... (0x0000000A)}.
     *
     * @param flags the flags (ULONG, carried in an int)
     * @return their names and hex value; {@code none (0x00000000)} for no bits
     */
    public static String describe(int flags) {
        return FlagNames.describe("NDK_OP_FLAG_", NAMES, "none", flags);
    }
}
