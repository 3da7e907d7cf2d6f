package org.ndktck.tck.properties;

import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;

import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u64;

/**
 * COV-1: a registration reported as successful covers all of its Length with exactly its flags. Lengths run
 * from one byte to above 2^32 (NdkRegisterMr over one MDL or a chain of MDLs of up to 2^32 − PAGE_SIZE bytes
 * each; NdkFastRegister up to {@link Limits#bigPages()} pages), over sparse host memory (buffers above
 * {@link HostBuffer#PAINT_LIMIT} pages take storage only where written). After a success the peer writes and
 * reads the first byte, the last byte (Length − 1) and the byte at Length: an access the flags allow must
 * succeed and move the byte, an access they do not allow and any access at Length must fail.
 */
@NdkKit
public class RegistrationCoverageProperties {

    /** NdkRegisterMr flag sets probed, and the rights they give a peer: {flags, remote read?, remote write?}. */
    private static final int[][] MR_FLAGS = {
            {NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE, 1, 1},
            {NdkMrFlags.ALLOW_REMOTE_READ, 1, 0},
            {NdkMrFlags.ALLOW_REMOTE_WRITE, 0, 1},
            {NdkMrFlags.ALLOW_LOCAL_WRITE, 0, 0},
    };
    /** NdkFastRegister flag sets probed: {flags, remote read?, remote write?}. */
    private static final int[][] FR_FLAGS = {
            {NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE, 1, 1},
            {NdkOpFlags.ALLOW_REMOTE_READ, 1, 0},
            {NdkOpFlags.ALLOW_REMOTE_WRITE, 0, 1},
            {NdkOpFlags.ALLOW_LOCAL_WRITE, 0, 0},
    };

    /** The largest ByteCount of one MDL the kit builds: 2^32 − PAGE_SIZE, page-aligned. */
    private static long mdlChunk(int p) {
        return (1L << 32) - p;
    }

    /** The classes of COV-1's registrations: both calls, each of the four size classes. */
    static final java.util.List<String> SIZE_CLASSES = java.util.stream.Stream.of("NdkRegisterMr", "NdkFastRegister")
            .flatMap(c -> java.util.stream.IntStream.rangeClosed(0, 3).mapToObj(k -> c + " size class " + k)).toList();

    /**
     * COV-1: after a successful NdkRegisterMr or NdkFastRegister, the first byte, the last byte and the byte
     * at Length answer exactly as the flags and the Length say.
     *
     * @param fast      NdkFastRegister instead of NdkRegisterMr
     * @param sizeClass 0: up to 16 pages, 1: up to 4096 pages, 2: Length in [2^31, 2^32), 3: Length above 2^32
     *                  (NdkRegisterMr; a fast registration takes its largest page count instead)
     * @param sizeSeed  picks the Length within the class
     * @param offset    where the region starts in its first page (modulo PAGE_SIZE)
     * @param flagSet   which flags (an index into the probed flag sets)
     */
    @CoverageClasses(8)
    @Property(tries = 60, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("COV-1")
    void aSuccessfulRegistrationCoversItsWholeLengthWithExactlyItsFlags(@ForAll boolean fast,
            @ForAll @IntRange(min = 0, max = 3) int sizeClass, @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int sizeSeed,
            @ForAll @IntRange(min = 0, max = 65535) int offset, @ForAll @IntRange(min = 0, max = 3) int flagSet) {
        SectionChecks.cover("registration", (fast ? "NdkFastRegister" : "NdkRegisterMr") + " size class " + sizeClass, SIZE_CLASSES);
        Limits limits = Limits.current();
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int fbo = offset % p;
                Region r;
                String what;
                int[] f;
                if (fast) {
                    f = FR_FLAGS[flagSet];
                    int pages = frPages(limits, sizeClass, sizeSeed);
                    long room = (long) pages * p - fbo;
                    long length = room - Integer.toUnsignedLong(sizeSeed) % Math.min(p, room);
                    HostBuffer b = s.allocate(pages);
                    Mdl chain = chainOver(b, t.freshVa() + fbo, room, p, sizeSeed);
                    Lam lam = s.buildLam(chain, room);
                    NdkMr mr = s.fastRegisterMr(pages, true);
                    long base = t.freshVa() + fbo;
                    WrOutcome o = s.fastRegister(s.target().qp(), mr, pages, lam.pages(), fbo, length, base, f[0]);
                    Assume.that(o.succeeded());
                    r = new Region(b, fbo, base, length, s.remoteToken(mr));
                    what = "NdkFastRegister of " + pages + " pages, FBO " + Hex.u32(fbo) + ", Length " + u64(length)
                            + ", Flags " + Hex.opFlags(f[0]);
                } else {
                    f = MR_FLAGS[flagSet];
                    long length = mrLength(sizeClass, sizeSeed, p);
                    if (Long.compareUnsigned(length, s.info().maxRegistrationSize()) > 0) {
                        Assume.that(false);
                    }
                    long pages = Mdl.spanPages(fbo, length, p);
                    HostBuffer b = s.allocate((int) pages);
                    long va = t.freshVa() + fbo;
                    t.freshVa(); // room for regions above 2^32 bytes
                    Mdl chain = chainOver(b, va, length, p, sizeSeed);
                    NdkMr mr = s.createMr(s.target(), false);
                    Outcome o = s.register(mr, chain, length, f[0]);
                    Refusals.discardIfRefused(o.status());
                    // a refusal of this valid request is MR-REG-10's finding; COV-1 judges successes
                    Assume.that(o.succeeded());
                    r = new Region(b, fbo, va, length, s.remoteToken(mr));
                    what = "NdkRegisterMr(Length=" + u64(length) + ", Flags=" + Hex.mrFlags(f[0]) + ") over " + chainText(chain);
                }
                probe(s, r, 0, f[1] == 1, f[2] == 1, what);
                probe(s, r, r.length() - 1, f[1] == 1, f[2] == 1, what);
                probe(s, r, r.length(), false, false, what);
                s.checkMemory("COV-1", "peer accesses at the first byte, the last byte and one past the end of " + what);
            }
        });
    }

    /** The peer writes, then reads, one byte at region offset k; each must succeed exactly when allowed. */
    private static void probe(NdkSession s, Region r, long k, boolean read, boolean write, String what) {
        String where = k == 0 ? "the first byte" : k == r.length() ? "the byte at Length (one past the end)" : "the last byte (Length - 1)";
        boolean inside = Long.compareUnsigned(k, r.length()) < 0;
        byte[] data = inside ? SessionTools.complement(r.buffer().expected(r.bufferOffset() + k, 1)) : new byte[]{(byte) 0xA5};
        Access w = s.peerWrite(r.base() + k, r.remoteToken(), data);
        if (w.succeeded() != write) {
            throw Violations.of("COV-1", w.describe() + " at " + where + " of " + what,
                    write ? "STATUS_SUCCESS: the registration reported success, so it covers its whole Length with its flags"
                            : "a failure: " + (inside ? "the flags do not allow remote write" : "the byte lies outside the registration"),
                    w.outcome().describe());
        }
        if (write) {
            byte[] landed = r.buffer().read(r.bufferOffset() + k, 1);
            if (!Arrays.equals(landed, data)) {
                throw Violations.of("COV-1", w.describe() + " at " + where + " of " + what,
                        Hex.bytes(data) + " in region byte " + u64(k), "the region's frame holds " + Hex.differing(data, landed, k, "region byte"));
            }
            r.buffer().expectWrite(r.bufferOffset() + k, data);
        }
        Access rd = s.peerRead(r.base() + k, r.remoteToken(), 1);
        if (rd.succeeded() != read) {
            throw Violations.of("COV-1", rd.describe() + " at " + where + " of " + what,
                    read ? "STATUS_SUCCESS: the registration reported success, so it covers its whole Length with its flags"
                            : "a failure: " + (inside ? "the flags do not allow remote read" : "the byte lies outside the registration"),
                    rd.outcome().describe());
        }
        if (read) {
            byte[] expected = r.buffer().read(r.bufferOffset() + k, 1);
            if (!Arrays.equals(rd.data(), expected)) {
                throw Violations.of("COV-1", rd.describe() + " at " + where + " of " + what,
                        "the region's byte " + Hex.bytes(expected), "read " + Hex.differing(expected, rd.data(), k, "region byte"));
            }
        }
    }

    /** @return an NdkRegisterMr Length of the class (unsigned, ≥ 1) */
    static long mrLength(int sizeClass, int seed, int p) {
        long u = Integer.toUnsignedLong(seed);
        return switch (sizeClass) {
            case 0 -> 1 + u % (16L * p);
            case 1 -> 16L * p + 1 + u % (4080L * p);
            case 2 -> (1L << 31) + u % (1L << 31);
            default -> (1L << 32) + 1 + u % (1L << 31);
        };
    }

    /** @return an AdapterPageCount of the class, at most FRMRPageCount and {@link Limits#MAX_PAGES} */
    static int frPages(Limits limits, int sizeClass, int seed) {
        int routine = Math.max(1, limits.routinePages());
        int big = limits.bigPages();
        return switch (sizeClass) {
            case 0 -> 1 + seed % Math.min(16, routine);
            case 1 -> 1 + seed % routine;
            default -> big > 0 ? big - seed % 2 : routine;
        };
    }

    /**
     * An MDL chain over {@code bytes} bytes of a buffer from {@code va}: MDLs of at most 2^32 − PAGE_SIZE bytes
     * that meet on page boundaries; when one MDL would do, the chain is sometimes (by {@code seed}) split into two
     * anyway.
     */
    static Mdl chainOver(HostBuffer b, long va, long bytes, int p, int seed) {
        long chunk = mdlChunk(p);
        int fbo = (int) (va & (p - 1));
        if (bytes <= chunk - fbo && (seed & 1) == 1 && b.pages() > 1) {
            chunk = (long) (b.pages() / 2) * p;
        }
        Mdl first = null;
        Mdl prev = null;
        long done = 0;
        int page = 0;
        while (done < bytes) {
            long room = (first == null ? chunk - fbo : chunk);
            long n = Math.min(room, bytes - done);
            Mdl m = b.mdl(va + done, page, (int) n);
            page += (int) Mdl.spanPages(first == null ? fbo : 0, n, p);
            if (first == null) {
                first = m;
            } else {
                prev.setNext(m);
            }
            prev = m;
            done += n;
        }
        return first;
    }

    private static String chainText(Mdl first) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (Mdl m = first; m != null; m = m.next()) {
            sb.append(n++ == 0 ? "" : " -> ").append("MDL(VA=").append(u64(m.virtualAddress())).append(", ByteCount=")
                    .append(Hex.u32(m.byteCount())).append(')');
        }
        return sb.toString();
    }
}
