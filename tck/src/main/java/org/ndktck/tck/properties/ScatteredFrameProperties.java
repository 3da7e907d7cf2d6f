package org.ndktck.tck.properties;

import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.List;
import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u64;

/**
 * COV-2: data moves through a region's own page frames, in the listed order, wherever they lie. The session's
 * buffers are scattered in most tries ({@code MemoryLayouts}: frames not adjacent, not ascending, guard frames
 * between them); the property registers such a buffer with NdkRegisterMr (one MDL or a chain of two) or with
 * NdkBuildLam plus NdkFastRegister, and at every page boundary of the region the peer writes an access that
 * crosses it (from a source that crosses a page boundary of the peer's own scattered scratch buffer), reads it
 * back into a sink that crosses one, and the target receives an NdkSend into an SGE that crosses it. Every
 * byte must land and come back as sent; the session's memory check then finds any guard frame touched or any
 * other byte changed.
 */
@NdkKit
public class ScatteredFrameProperties {

    /**
     * COV-2: accesses that cross every page boundary of a region over scattered frames move the right bytes on
     * both sides.
     *
     * @param pages  pages of the region's buffer (2 to 6)
     * @param offset region start in its first page (bytes; taken modulo PAGE_SIZE)
     * @param kind   0: one MDL, 1: a chain of two MDLs split at a page boundary, 2: a fast registration over a LAM
     * @param n      bytes of each access (2 to 64)
     */
    @CoverageClasses(3)
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("COV-2")
    void accessesAcrossPageBoundariesOfScatteredFramesMoveTheRightBytes(@ForAll @IntRange(min = 2, max = 6) int pages,
            @ForAll @IntRange(min = 0, max = 65535) int offset, @ForAll @IntRange(min = 0, max = 2) int kind,
            @ForAll @IntRange(min = 2, max = 64) int n) {
        SectionChecks.cover("kind", kind == 0 ? "one MDL" : kind == 1 ? "chain" : "fast registration",
                List.of("one MDL", "chain", "fast registration"));
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int fbo = offset % p;
                Region r;
                NdkSge[] receiveSges;
                String what;
                if (kind == 2) {
                    FastRegion f = t.fastRegistered(pages, fbo,
                            NdkOpFlags.ALLOW_REMOTE_WRITE | NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_LOCAL_WRITE, true);
                    r = f.region();
                    receiveSges = boundarySges(f.region(), p, n, f::sge);
                    what = "a fast registration over a LAM of " + layout(f.buffer());
                } else {
                    HostBuffer b = s.allocate(pages);
                    long length = (long) pages * p - fbo;
                    long va = t.freshVa() + fbo;
                    Mdl mdl;
                    if (kind == 1) {
                        int split = 1 + (offset / p) % (pages - 1);
                        int first = split * p - fbo;
                        mdl = b.mdl(va, 0, first);
                        mdl.setNext(b.mdl(va + first, split, (int) (length - first)));
                    } else {
                        mdl = b.mdl(va, 0, (int) length);
                    }
                    Registered reg = t.registerOver(s.target(), b, mdl, length,
                            NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_LOCAL_WRITE);
                    r = reg.region();
                    receiveSges = boundarySges(r, p, n, reg::sge);
                    what = "NdkRegisterMr of " + (kind == 1 ? "a chain of two MDLs" : "one MDL") + " over " + layout(b);
                }
                for (long k : boundaryOffsets(r, p, n)) {
                    byte[] data = SessionTools.complement(r.buffer().expected(r.bufferOffset() + k, n));
                    Access w = s.peerWrite(r.base() + k, r.remoteToken(), data);
                    byte[] landed = r.buffer().read(r.bufferOffset() + k, n);
                    if (!w.succeeded() || !Arrays.equals(landed, data)) {
                        throw Violations.of("COV-2", w.describe() + " across a page boundary of " + what,
                                "STATUS_SUCCESS and " + Hex.bytes(data) + " in region bytes " + u64(k) + " on (the region's own frames)",
                                w.outcome().describe() + "; the frames hold " + Hex.differing(data, landed, k, "region byte"));
                    }
                    r.buffer().expectWrite(r.bufferOffset() + k, data);
                    Access rd = s.peerRead(r.base() + k, r.remoteToken(), n);
                    if (!rd.succeeded() || !Arrays.equals(rd.data(), data)) {
                        throw Violations.of("COV-2", rd.describe() + " across a page boundary of " + what,
                                "the region's bytes " + Hex.bytes(data) + " in the peer's sink",
                                rd.outcome().describe() + (rd.succeeded() ? ", the sink holds " + Hex.differing(data, rd.data(), k, "region byte") : ""));
                    }
                }
                receiveAcross(s, t, r, receiveSges, what);
                s.checkMemory("COV-2", "accesses across the page boundaries of " + what);
            }
        });
    }

    /** The peer sends into one target SGE at a time, each crossing one page boundary of the region. */
    private static void receiveAcross(NdkSession s, SessionTools t, Region r, NdkSge[] sges, String what) {
        int p = s.pageSize();
        Registered source = t.registered(s.peer(), 2, 0, 2L * p, 0);
        for (NdkSge sge : sges) {
            int n = sge.length();
            long k = sge.address() - r.base();
            byte[] data = SessionTools.complement(r.buffer().expected(r.bufferOffset() + k, n));
            long from = p - n / 2;
            source.buffer().put(from, data);
            WorkRequest recv = t.receive(t.target(), new NdkSge[]{sge}, NdkOperationType.RECEIVE);
            WrOutcome send = t.complete(t.send(t.peer(), new NdkSge[]{source.sge(from, n)}, 0));
            WrOutcome ro = t.complete(recv);
            byte[] landed = r.buffer().read(r.bufferOffset() + k, n);
            Refusals.discardIfRefused(send.status());
            Refusals.discardIfRefused(ro.status());
            if (!send.succeeded() || !ro.succeeded() || !Arrays.equals(landed, data)) {
                throw Violations.of("COV-2", send.call() + " into " + ro.call() + " across a page boundary of " + what,
                        "both succeed and " + Hex.bytes(data) + " lands in region bytes " + u64(k) + " on",
                        send.describe() + "; " + ro.describe() + "; the frames hold " + Hex.differing(data, landed, k, "region byte"));
            }
            r.buffer().expectWrite(r.bufferOffset() + k, data);
        }
    }

    /** @return region offsets of n-byte accesses, one across each page boundary of the region's buffer */
    static long[] boundaryOffsets(Region r, int p, int n) {
        long first = r.bufferOffset();
        long end = first + r.length();
        long[] out = new long[(int) (r.buffer().pages() - 1)];
        int c = 0;
        for (long boundary = p; boundary < end; boundary += p) {
            long k = boundary - n / 2 - first;
            k = Math.max(0, Math.min(k, r.length() - n));
            out[c++] = k;
        }
        return Arrays.copyOf(out, c);
    }

    private static NdkSge[] boundarySges(Region r, int p, int n, java.util.function.BiFunction<Long, Integer, NdkSge> sge) {
        long[] ks = boundaryOffsets(r, p, n);
        NdkSge[] out = new NdkSge[ks.length];
        for (int i = 0; i < ks.length; i++) {
            out[i] = sge.apply(ks[i], n);
        }
        return out;
    }

    private static String layout(HostBuffer b) {
        long[] pfns = new long[b.pages()];
        for (int i = 0; i < pfns.length; i++) {
            pfns[i] = b.pfn(i);
        }
        return b.pages() + " page frames " + b.layout() + " " + Arrays.toString(Arrays.stream(pfns).mapToObj(Hex::u64).toArray());
    }
}
