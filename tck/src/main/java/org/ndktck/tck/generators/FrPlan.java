package org.ndktck.tck.generators;

import org.ndktck.tck.harness.Hex;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * A generated NdkFastRegister scenario: how the kit initializes the MR, the buffer and LAM it maps,
 * and the request, which is valid or breaks exactly the rule of {@link #kind()}.
 *
 * <p>Shapes: the kit allocates {@code lamPages} pages, describes them with one MDL whose first byte is at
 * offset {@code fbo mod PAGE_SIZE}, builds a LAM over it (NdkBuildLam), and passes the first
 * {@code pageCount} entries of that LAM (with entry {@code misalignIndex}, or every entry when it is
 * {@link #EVERY_ENTRY}, moved by {@code misalignDelta} bytes when {@code misalignDelta != 0}). Byte k of the
 * region is byte {@code fbo + k} of the buffer.
 *
 * @param kind               what the request breaks
 * @param edge               the edge class it belongs to (for coverage statistics), e.g. {@code one past}
 * @param initPageCount      AdapterPageCount of NdkInitializeFastRegisterMr (ULONG in an int)
 * @param remoteAccess       RemoteAccess of NdkInitializeFastRegisterMr
 * @param lamPages           pages of the buffer and its LAM (≥ pageCount)
 * @param pageCount          AdapterPageCount of NdkFastRegister (ULONG in an int)
 * @param fbo                FBO in bytes (ULONG in an int, unsigned)
 * @param length             Length in bytes (SIZE_T in a long, unsigned)
 * @param baseVirtualAddress BaseVirtualAddress (PVOID in a long, unsigned)
 * @param flags              NDK_OP_FLAG_* bits
 * @param misalignIndex      entry moved off PAGE_SIZE alignment, {@link #EVERY_ENTRY}, or -1
 * @param misalignDelta      bytes it is moved by (0: none)
 * @param salt               chooses probe offsets deterministically
 */
public record FrPlan(FrCase kind, String edge, int initPageCount, boolean remoteAccess, int lamPages, int pageCount,
                     int fbo, long length, long baseVirtualAddress, int flags, int misalignIndex, long misalignDelta,
                     long salt) {
    /** {@link #misalignIndex()} when every entry is moved by the same delta (byte addresses passed as page addresses). */
    public static final int EVERY_ENTRY = -2;

    /** @return a copy with other flags and RemoteAccess */
    public FrPlan withFlags(int newFlags, boolean newRemoteAccess) {
        return new FrPlan(kind, edge, initPageCount, newRemoteAccess, lamPages, pageCount, fbo, length, baseVirtualAddress,
                newFlags, misalignIndex, misalignDelta, salt);
    }

    /** @return the plan's label for statistics: the case and the edge class */
    public String label() {
        return kind + ": " + edge;
    }

    @Override
    public String toString() {
        return "FrPlan{" + kind + " (" + edge + "), Init(AdapterPageCount=" + u32(initPageCount) + ", RemoteAccess=" + remoteAccess
                + "), LAM pages=" + lamPages + ", AdapterPageCount=" + u32(pageCount) + ", FBO=" + u32(fbo) + ", Length=" + u64(length)
                + ", BaseVirtualAddress=" + u64(baseVirtualAddress) + ", Flags=" + Hex.opFlags(flags)
                + (misalignDelta != 0 ? ", AdapterPageArray[" + (misalignIndex == EVERY_ENTRY ? "every entry" : misalignIndex) + "] += " + u64(misalignDelta) : "") + ", salt=" + salt + "}";
    }
}
