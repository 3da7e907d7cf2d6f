package org.ndktck.reference;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NtStatus;

import java.util.Map;
import java.util.TreeMap;

import static org.ndktck.reference.ReferenceAdapter.LOGICAL_ADDRESS_BASE;

/**
 * The logical address space of one {@link ReferenceAdapter}: NdkBuildLam's mappings by their logical base (the first
 * at {@link ReferenceAdapter#LOGICAL_ADDRESS_BASE}, each run of PAGE_SIZE-byte logical pages followed by one unmapped
 * page), their release, and the lookup of the live LAM that holds a logical address. Addresses are unsigned 64-bit
 * values in a Java long, lengths bytes; a LAM's size (bytes, a ULONG) is written back into the caller's
 * NDK_LOGICAL_ADDRESS_MAPPING. Errors of a build are NTSTATUS values: the {@code build-lam} piece's verdict
 * (STATUS_BUFFER_TOO_SMALL with the bytes needed, STATUS_INVALID_PARAMETER), STATUS_CANCELLED once the adapter has
 * closed, STATUS_INSUFFICIENT_RESOURCES when the pages or the address space run out. Every method runs under the
 * adapter's lock.
 */
final class LamSpace {
    private final ReferenceAdapter adapter;
    /** Logical base → LAM. */
    private final TreeMap<Long, LamMapping> lams = new TreeMap<>();
    private long nextLogicalAddress = LOGICAL_ADDRESS_BASE;
    /** The LAM {@link #lamAt} found last (a one-entry cache; checked for {@code live} before use). */
    private LamMapping lastLam;

    /** @param adapter the adapter whose LAMs these are */
    LamSpace(ReferenceAdapter adapter) {
        this.adapter = adapter;
    }

    /**
     * NdkBuildLam's work once the call is accepted (inline, or on a pool thread for a pending call).
     *
     * @param mdl    the MDL chain to map
     * @param length bytes to map (a SIZE_T, unsigned)
     * @param lam    the caller's NDK_LOGICAL_ADDRESS_MAPPING, filled on success
     * @return the NTSTATUS of the build
     */
    NtStatus build(Mdl mdl, long length, NdkLogicalAddressMapping lam) {
        if (adapter.isClosed()) {
            return NtStatus.STATUS_CANCELLED;
        }
        MdlChainSummary chain = MdlChainSummary.walk(mdl, length, adapter.pageSize());
        BuildLamRequest request = new BuildLamRequest(adapter, mdl, chain, length, lam.lamSize());
        NtStatus status = adapter.policy.evaluate(Pieces.BUILD_LAM, request);
        if (status.code() == NtStatus.STATUS_BUFFER_TOO_SMALL.code()) {
            long needed = request.bytesNeeded();
            if ((needed >>> 32) == 0) { // a size that fits in the ULONG *pLAMSize
                lam.setLamSize((int) needed);
            }
            return status;
        }
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        PageMap pages = PageMap.fromChain(mdl, length, chain.mdlCount(), adapter.pageSize());
        if (pages == null || pages.frameCount() == 0) {
            return pages == null ? NtStatus.STATUS_INSUFFICIENT_RESOURCES : NtStatus.STATUS_INVALID_PARAMETER;
        }
        long size = (long) pages.frameCount() * adapter.pageSize();
        long span = size + adapter.pageSize();
        // the entries fit a ULONG *pLAMSize: at most PageMap.MAX_FRAMES (2^24) of them, 16 + 8 x 2^24 bytes
        if (Long.compareUnsigned(span, Unsigned.MAX - nextLogicalAddress) > 0) {
            return NtStatus.STATUS_INSUFFICIENT_RESOURCES;
        }
        long base = nextLogicalAddress;
        nextLogicalAddress += span;
        LamMapping mapping = new LamMapping(adapter, lam, base, pages);
        lams.put(base, mapping);
        rememberForRelease(lam, mapping);
        long[] logical = new long[pages.frameCount()];
        for (int i = 0; i < logical.length; i++) {
            logical[i] = base + (long) i * adapter.pageSize();
        }
        lam.setPages(logical.length, logical);
        lam.setFbo((int) (chain.virtualAddress() & (adapter.pageSize() - 1L)));
        lam.setLamSize((int) NdkLogicalAddressMapping.bytesFor(logical.length));
        return NtStatus.STATUS_SUCCESS;
    }

    /** Stores the mapping as the LAM's AdapterContext, where {@link ReferenceAdapter#releaseLam} finds it. */
    private static void rememberForRelease(NdkLogicalAddressMapping lam, LamMapping mapping) {
        lam.setAdapterContext(mapping);
    }

    /** Under the lock: ends the LAM's mapping when it is a live LAM of this adapter; otherwise does nothing. */
    void unmap(NdkLogicalAddressMapping lam) {
        if (lam.adapterContext() instanceof LamMapping mapping && mapping.adapter == adapter
                && mapping.owner == lam && mapping.live) {
            mapping.live = false;
            lams.remove(mapping.base);
        }
    }

    /** Under the lock, at NdkCloseAdapter: releases every LAM. */
    void releaseAll() {
        for (LamMapping m : lams.values()) {
            m.live = false;
        }
        lams.clear();
    }

    /**
     * Under the lock: the live LAM whose run starts at or below {@code address}, or null. The LAM found last is
     * tried first: the pages of one NdkFastRegister nearly always lie in one LAM, and a TreeMap lookup with a
     * boxed key per page was most of that call's cost. LAM runs are disjoint, so a live LAM that contains
     * {@code address} is exactly the one {@code floorEntry} would find.
     */
    LamMapping lamAt(long address) {
        LamMapping cached = lastLam;
        if (cached != null && cached.live && cached.contains(address, 1)) {
            return cached;
        }
        Map.Entry<Long, LamMapping> e = Long.compareUnsigned(address, LOGICAL_ADDRESS_BASE) < 0 ? null
                : lams.floorEntry(address);
        if (e == null) {
            return null;
        }
        lastLam = e.getValue();
        return e.getValue();
    }

    /** Under the lock: the live LAM whose run contains the byte at {@code address}, or null. */
    LamMapping lamContaining(long address) {
        LamMapping lam = lamAt(address); // tries the LAM found last first
        return lam != null && lam.contains(address, 1) ? lam : null;
    }

    /** Under the lock: the live LAM holding all of [address, address + length), or null. */
    LamMapping lamHolding(long address, long length) {
        LamMapping lam = lamAt(address);
        return lam != null && lam.contains(address, length) ? lam : null;
    }
}
