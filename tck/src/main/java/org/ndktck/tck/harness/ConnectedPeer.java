package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;

import java.util.Locale;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * The connected peer as the target's MRs see it: RDMA writes and reads at a remote address with a remote token,
 * from and into the peer's registered scratch buffer, and the target's reads of that buffer into a local sink.
 * The scratch buffer ({@link #SCRATCH_PAGES} pages, registered for local write and remote read) is made on first
 * use; the peer's side of every access spans two of its frames. On an adapter whose MaxRegistrationSize is below
 * {@link #SCRATCH_PAGES} pages the registration's Length is MaxRegistrationSize instead (the kit stays within the
 * limit the adapter reports): accesses then cross a frame boundary of the peer only where that Length leaves room,
 * and {@link #maxAccess()} never exceeds it.
 */
public final class ConnectedPeer {
    /**
     * Pages of the peer's scratch buffer: the source of a peer write crosses the boundary of pages 0 and 1, the
     * sink of a peer read that of pages 1 and 2, so the peer's side of every access spans two frames of a
     * (usually scattered) buffer.
     */
    static final int SCRATCH_PAGES = 3;

    private final Invoker inv;
    private final AdapterObjects objects;
    private final HostBuffers buffers;
    private final MrRequests mrs;
    private final WorkRequests requests;
    private final Completions completions;
    private final int pageSize;
    private HostBuffer scratch;
    private NdkMr scratchMr;
    private long scratchVa;
    private int scratchLocalToken;
    private int scratchRemoteToken;

    ConnectedPeer(Invoker inv, AdapterObjects objects, HostBuffers buffers, MrRequests mrs, WorkRequests requests,
                  Completions completions, int pageSize) {
        this.inv = inv;
        this.objects = objects;
        this.buffers = buffers;
        this.mrs = mrs;
        this.requests = requests;
        this.completions = completions;
        this.pageSize = pageSize;
    }

    /**
     * @return the Length of the peer's scratch registration in bytes: {@link #SCRATCH_PAGES} pages, or the adapter's
     *     MaxRegistrationSize (an unsigned SIZE_T) when that is smaller; at least 1
     */
    private long scratchLength() {
        long want = (long) SCRATCH_PAGES * pageSize;
        long max = objects.info().maxRegistrationSize();
        return max != 0 && Long.compareUnsigned(max, want) < 0 ? max : want;
    }

    /**
     * Where an access of {@code length} bytes lies in the scratch registration: across the boundary of pages
     * {@code boundary - 1} and {@code boundary} when the registration's Length leaves room, else across the
     * boundary of pages 0 and 1, else centred in the registration.
     *
     * @param boundary the page boundary the access should cross (1 or 2)
     * @param length   bytes, 1 to {@link #maxAccess()}
     * @return the offset in the scratch buffer, in bytes
     */
    private long placed(int boundary, long length) {
        long limit = scratchLength();
        for (int b = boundary; b >= 1; b--) {
            long off = (long) b * pageSize - length / 2;
            if (off + length <= limit) {
                return off;
            }
        }
        return Math.max(0, (limit - length) / 2);
    }

    /**
     * Discards the try ({@link Refusals#beyondLimit}) when an access of {@code length} bytes does not fit the peer's
     * scratch registration, whose Length is MaxRegistrationSize on an adapter with a limit below {@link #SCRATCH_PAGES}
     * pages: the kit does not make a peer request past the registration it made within the limit.
     *
     * @param length the access's bytes (unsigned)
     */
    private void fits(long length) {
        long limit = scratchLength();
        if (Long.compareUnsigned(length, limit) > 0) {
            Refusals.beyondLimit("a peer access of " + length + " byte(s) does not fit the peer's registration of "
                    + limit + " byte(s), MaxRegistrationSize (an adapter with a MaxRegistrationSize of at least "
                    + SCRATCH_PAGES + " pages reaches the check; the reference provider: --set maxRegistrationSize=65536)");
        }
    }

    /** Creates the peer's scratch buffer ({@link #SCRATCH_PAGES} pages) and registers it: local write, remote read, READ_SINK where needed. */
    private void scratch() {
        objects.qps();
        if (scratchMr != null) {
            return;
        }
        HostBuffer b = buffers.allocate(SCRATCH_PAGES);
        long va = 0x00007E0000000000L + ((long) buffers.count() << 24);
        Mdl mdl = b.mdl(va, 0, SCRATCH_PAGES * pageSize);
        long length = scratchLength();
        int flags = NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_READ | (objects.readSinkNotRequired() ? 0 : NdkMrFlags.RDMA_READ_SINK);
        inv.batch("session set-up (peer scratch MR)", () -> {
            NdkMr mr = mrs.createMr(objects.peer(), false);
            Outcome o = mrs.register(mr, mdl, length, flags);
            Refusals.discardIfRefused(o.status());
            if (!o.succeeded()) {
                throw new KitSetupError(o.call() + " for the peer's scratch buffer", o.describe());
            }
            scratchLocalToken = mrs.localToken(mr);
            scratchRemoteToken = mrs.remoteToken(mr);
            scratchMr = mr;
            return null;
        });
        scratch = b;
        scratchVa = va;
    }

    /**
     * Makes the peer's objects now (its QP and registered scratch buffer), which the first {@link #write} or
     * {@link #read} would otherwise make. A property that fills the adapter to its limit calls it first, so the
     * peer's own set-up is not the call the full adapter refuses. Errors are those of the first access's set-up: a
     * refusal for lack of resources discards the try, any other failure is a {@link KitSetupError}.
     */
    public void ready() {
        scratch();
    }

    /**
     * @return the largest access {@link #write}, {@link #read} and {@link #targetReadInto} take, in bytes:
     *     PAGE_SIZE / 2, or the peer's scratch Length (MaxRegistrationSize) when that is smaller
     */
    public int maxAccess() {
        return (int) Math.min(pageSize / 2, scratchLength());
    }

    /**
     * The peer RDMA-writes {@code data} at {@code remoteAddress} with {@code remoteToken} (NdkWrite on the
     * peer's QP, from its registered scratch buffer), awaited. The kit does not declare any change of
     * target memory: the caller does ({@link HostBuffer#expectWrite}) when the rules allow the write.
     *
     * @param remoteAddress absolute remote address (unsigned)
     * @param remoteToken   the target MR's remote token
     * @param data          1 to {@link #maxAccess()} bytes
     * @return the access
     */
    public Access write(long remoteAddress, int remoteToken, byte[] data) {
        scratch();
        fits(data.length);
        long sourceOffset = placed(1, data.length);
        scratch.put(sourceOffset, data);
        NdkSge sge = new NdkSge(scratchVa + sourceOffset, data.length, scratchLocalToken);
        Supplier<String> d = () -> "NdkWrite(peer QP, Sgl=[" + sge + "], RemoteAddress=" + u64(remoteAddress) + ", RemoteToken="
                + u32(remoteToken) + ", Flags=" + Hex.opFlags(0) + ") of " + data.length + " byte(s) " + accessFields("write", remoteAddress, data.length);
        NdkQp qp = objects.peer().qp;
        // a probe refused inline for lack of resources never reached the QP: it is posted again (Refusals.SETUP_ATTEMPTS)
        WrOutcome o = completions.complete(requests.post(qp, NdkOperationType.WRITE, "NdkWrite", d, 0,
                ctx -> qp.write(ctx, new NdkSge[]{sge}, remoteAddress, remoteToken, 0), Refusals.OnRefusal.RETRY));
        return new Access(o, new byte[0]);
    }

    /**
     * The peer RDMA-reads {@code length} bytes at {@code remoteAddress} with {@code remoteToken} (NdkRead
     * on the peer's QP into its scratch buffer), awaited.
     *
     * @param remoteAddress absolute remote address (unsigned)
     * @param remoteToken   the target MR's remote token
     * @param length        1 to {@link #maxAccess()} bytes
     * @return the access, with the bytes read when it succeeded
     */
    public Access read(long remoteAddress, int remoteToken, int length) {
        scratch();
        fits(length);
        long sinkOffset = placed(2, length);
        NdkSge sge = new NdkSge(scratchVa + sinkOffset, length, scratchLocalToken);
        Supplier<String> d = () -> "NdkRead(peer QP, Sgl=[" + sge + "], RemoteAddress=" + u64(remoteAddress) + ", RemoteToken="
                + u32(remoteToken) + ", Flags=" + Hex.opFlags(0) + ") of " + length + " byte(s) " + accessFields("read", remoteAddress, length);
        NdkQp qp = objects.peer().qp;
        WrOutcome o = completions.complete(requests.post(qp, NdkOperationType.READ, "NdkRead", d, 0,
                ctx -> qp.read(ctx, new NdkSge[]{sge}, remoteAddress, remoteToken, 0), Refusals.OnRefusal.RETRY));
        byte[] data = o.succeeded() ? scratch.read(sinkOffset, length) : new byte[0];
        scratch.acceptActual(sinkOffset, length);
        return new Access(o, data);
    }

    /**
     * The fields a report needs to draw a peer access (report.html reads {@code RemoteAddress=}, {@code AccessLength=}
     * and {@code Access=}; see {@code org.ndktck.tck.report.Counterexample}).
     *
     * @param direction     "read" or "write"
     * @param remoteAddress the access's absolute remote address (unsigned)
     * @param length        its length in bytes
     * @return {@code [Access=read, RemoteAddress=0x.., AccessLength=0x..]}
     */
    static String accessFields(String direction, long remoteAddress, int length) {
        return "[Access=" + direction + ", RemoteAddress=" + u64(remoteAddress) + ", AccessLength=0x"
                + Integer.toHexString(length).toUpperCase(Locale.ROOT) + "]";
    }

    /**
     * The target RDMA-reads {@code length} bytes of the peer's scratch buffer into a local SGE (NdkRead
     * on the target's QP), awaited: a local sink test (MR-FR-12). The bytes read start where
     * {@link #scratchBytes} reads them (across a page boundary of the scratch buffer).
     *
     * @param sink  the local SGE (an address in a target MR and its local token)
     * @param flags NDK_OP_FLAG_* bits of the read
     * @return the access
     */
    public Access targetReadInto(NdkSge sink, int flags) {
        scratch();
        fits(Integer.toUnsignedLong(sink.length()));
        long remote = scratchVa + targetReadSource(sink.length());
        int token = scratchRemoteToken;
        Supplier<String> d = () -> "NdkRead(target QP, Sgl=[" + sink + "], RemoteAddress=" + u64(remote) + ", RemoteToken="
                + u32(token) + ", Flags=" + Hex.opFlags(flags) + ")";
        NdkQp qp = objects.target().qp;
        WrOutcome o = completions.complete(requests.post(qp, NdkOperationType.READ, "NdkRead", d, flags,
                ctx -> qp.read(ctx, new NdkSge[]{sink}, remote, token, flags)));
        return new Access(o, new byte[0]);
    }

    /** @return the bytes of the peer's scratch buffer the target reads from with {@link #targetReadInto} */
    public byte[] scratchBytes(int length) {
        scratch();
        return scratch.read(targetReadSource(length), length);
    }

    /** @return the scratch offset a target read of {@code length} bytes starts at: across pages 0 and 1 when it fits */
    private long targetReadSource(int length) {
        long n = Integer.toUnsignedLong(length);
        return n <= pageSize ? placed(1, n) : 0;
    }
}
