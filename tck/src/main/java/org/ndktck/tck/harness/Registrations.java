package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;

/**
 * Regions a property sets up in one step, each at a fresh virtual address: a buffer registered with
 * NdkRegisterMr on either side ({@link Registered}), or a target buffer fast-registered over its LAM
 * ({@link FastRegion}). Every step must succeed (MR-REG-10, MR-FRI-2); a refusal for lack of resources
 * rejects the try. The session deregisters and closes the MRs and releases the LAMs.
 */
public final class Registrations {
    private final AdapterObjects objects;
    private final HostBuffers buffers;
    private final MrRequests mrs;
    private final Lams lams;
    private final WorkRequests requests;
    private final int pageSize;
    private long nextVa = 0x0000_2000_0000_0000L;

    /**
     * @param s an open session
     */
    Registrations(NdkSession s) {
        this.objects = s.objects();
        this.buffers = s.buffers();
        this.mrs = s.mrs();
        this.lams = s.lams();
        this.requests = s.requests();
        this.pageSize = s.pageSize();
    }

    /** @return a fresh, page-aligned virtual address with 2^32 bytes of room, distinct in this property's tools */
    public long freshVa() {
        long va = nextVa;
        nextVa += 1L << 32;
        return va;
    }

    /**
     * Allocates a buffer on a side, describes it with one MDL at a fresh VA plus {@code offset}, and
     * registers it (the registration must succeed: MR-REG-10).
     *
     * @param side   target or peer (the peer's PD exists after {@link AdapterObjects#qps()})
     * @param pages  data pages
     * @param offset byte offset of the region in the first page, 0 ≤ offset &lt; PAGE_SIZE
     * @param length Length, 1 ≤ length ≤ pages × PAGE_SIZE − offset
     * @param flags  NDK_MR_FLAG_* bits
     * @return the registered buffer
     */
    public Registered registered(Side side, int pages, int offset, long length, int flags) {
        HostBuffer b = buffers.allocate(pages);
        long va = freshVa() + offset;
        Mdl mdl = b.mdl(va, 0, (int) length);
        return registerOver(side, b, mdl, length, flags);
    }

    /**
     * Registers an MDL the caller built over a buffer (for example one whose VA is unrelated to its frames).
     *
     * @return the registered buffer
     */
    public Registered registerOver(Side side, HostBuffer b, Mdl mdl, long length, int flags) {
        NdkMr mr = mrs.createMr(side, false);
        mrs.registerValid(mr, mdl, length, flags);
        int local = mrs.localToken(mr);
        int remote = mrs.remoteToken(mr);
        return new Registered(side, b, mdl, mdl.virtualAddress(), length, flags, mr, local, remote);
    }

    /** @return NDK_MR_FLAG_RDMA_READ_SINK when the adapter needs it on read sinks, else 0 (MR-REG-6, AMB-19) */
    public int readSinkFlag() {
        return objects.readSinkNotRequired() ? 0 : NdkMrFlags.RDMA_READ_SINK;
    }

    /** @return NDK_OP_FLAG_RDMA_READ_SINK when the adapter needs it on read sinks, else 0 */
    public int readSinkOpFlag() {
        return objects.readSinkNotRequired() ? 0 : NdkOpFlags.RDMA_READ_SINK;
    }

    /**
     * Fast-registers a target buffer (pages, FBO, Length pages × PAGE_SIZE − FBO) on the target's QP; every
     * step must succeed.
     *
     * @param pages        pages of the buffer, its LAM, the initialization and the request
     * @param fbo          FBO, 0 ≤ fbo &lt; PAGE_SIZE
     * @param flags        NDK_OP_FLAG_* bits of the request
     * @param remoteAccess RemoteAccess of the initialization
     * @return the region
     */
    public FastRegion fastRegistered(int pages, int fbo, int flags, boolean remoteAccess) {
        objects.qps();
        HostBuffer b = buffers.allocate(pages);
        long length = (long) pages * pageSize - fbo;
        Mdl mdl = b.mdl(freshVa() + fbo, 0, (int) length);
        Lam lam = lams.buildLam(mdl, length);
        NdkMr mr = mrs.fastRegisterMr(pages, remoteAccess);
        long base = freshVa() + (1L << 20) + fbo;
        return fastRegisterAgain(b, mdl, lam, mr, pages, fbo, length, base, flags);
    }

    /**
     * Fast-registers an MR (initialized, not fast-registered now) over a LAM again; must succeed.
     *
     * @return the new region
     */
    public FastRegion fastRegisterAgain(HostBuffer b, Mdl mdl, Lam lam, NdkMr mr, int pages, int fbo, long length,
                                        long base, int flags) {
        WrOutcome o = requests.fastRegister(objects.target().qp(), mr, pages, lam.pages(), fbo, length, base, flags);
        int token = mrs.remoteToken(mr);
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS for a valid fast registration within the initialized page count",
                    o.describe());
        }
        int local = mrs.localToken(mr);
        return new FastRegion(b, mdl, lam, mr, pages, fbo, length, base, flags, token, local);
    }
}
