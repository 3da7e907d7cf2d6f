package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.NdkVersion;
import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * Properties of NdkRead and NdkWrite (catalog section "NdkRead and NdkWrite"; the NDK_FN_READ and
 * NDK_FN_WRITE pages). RW-1 and RW-7 are informational, RW-6 (READ_FENCE ordering) is not black-box
 * testable, RW-8 binds the kit (BytesTransferred is read only for receives).
 */
@NdkKit
public class ReadWriteProperties {

    /**
     * RW-2: NdkRead and NdkWrite posted on a QP that was never connected fail inline (any error; one other
     * than STATUS_CONNECTION_INVALID is an ADVISORY finding) and leave no CQ entry (DEF-2).
     */
    @Property(tries = 50, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("RW-2")
    void readAndWriteOnAnUnconnectedQpFail(@ForAll boolean read, @ForAll @IntRange(min = 1, max = 256) int n,
                                           @ForAll("someFlags") int flags) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered local = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
                Registered remote = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                NdkSge[] sgl = {local.sge(0, n)};
                WorkRequest wr = read ? t.read(t.unconnected(), sgl, remote.va(), remote.remoteToken(), flags)
                        : t.write(t.unconnected(), sgl, remote.va(), remote.remoteToken(), flags);
                if (NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                    throw Violations.of("RW-2", wr.detail(), "an inline failure (STATUS_CONNECTION_INVALID) on a QP that was never connected",
                            "returned STATUS_SUCCESS");
                }
                if (!NtStatus.STATUS_CONNECTION_INVALID.equals(wr.returned())) {
                    Violations.advisory("RW-2", wr.detail(), NtStatus.STATUS_CONNECTION_INVALID.toString(), "returned " + wr.returned());
                }
                s.drain(s.target());
            }
        });
    }

    @Provide
    Arbitrary<Integer> someFlags() {
        return Arbitraries.of(0, NdkOpFlags.SILENT_SUCCESS, NdkOpFlags.READ_FENCE);
    }

    /**
     * RW-3: a peer NdkRead whose range runs past the end of the target region (one byte past, or reaching
     * one page past) never succeeds: STATUS_REMOTE_RESOURCES inline or any error completion is accepted
     * (the provider cannot know the remote size at post time, AMB-7), and no byte outside the read's sink
     * changes.
     */
    @CoverageClasses(2)
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("RW-3")
    void aReadPastTheEndOfTheRemoteRegionFails(@ForAll @IntRange(min = 1, max = 3) int pages, @ForAll @IntRange(min = 0, max = 4095) int offSeed,
                                               @ForAll @IntRange(min = 0, max = 4095) int shortBy, @ForAll @IntRange(min = 1, max = 128) int n,
                                               @ForAll boolean pagePast) {
        SectionChecks.cover("past the end by", pagePast ? "one page" : "one byte", List.of("one page", "one byte"));
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int off = offSeed % p;
                long max = (long) pages * p - off;
                long length = Math.max(1, max - shortBy % p);
                Registered r = t.registered(s.target(), pages, off, length, NdkMrFlags.ALLOW_REMOTE_READ);
                long end = r.va() + length;
                int len = Math.min(n, s.maxAccess());
                long address = pagePast ? end + p - len : end - len + 1;
                Access a = s.peerRead(address, r.remoteToken(), len);
                if (a.succeeded()) {
                    throw Violations.of("RW-3", a.describe() + " of a region [" + u64(r.va()) + ", +" + u64(length) + ")",
                            "a failure: the read ends " + (pagePast ? "a page" : "one byte") + " past the remote region (STATUS_REMOTE_RESOURCES)",
                            "it succeeded and read " + Hex.bytes(a.data()));
                }
                s.checkMemory("RW-3", a.describe());
            }
        });
    }

    /**
     * RW-4 (NDKPI 1.2 adapters with NDK_ADAPTER_FLAG_RDMA_READ_LOCAL_INVALIDATE_SUPPORTED): an NdkRead with
     * NDK_OP_FLAG_RDMA_READ_LOCAL_INVALIDATE (0x100) into a fast-registered sink with local write access
     * succeeds and invalidates the sink's token: a second read into the same SGE then fails and changes
     * nothing, and the MR can be fast-registered again.
     */
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("RW-4")
    void readWithLocalInvalidateInvalidatesTheSink(@ForAll @IntRange(min = 1, max = 4) int pages, @ForAll @IntRange(min = 1, max = 256) int n,
                                                   @ForAll @IntRange(min = 0, max = 1 << 20) int seed) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int flags = NdkOpFlags.ALLOW_LOCAL_WRITE | t.readSinkOpFlag();
                FastRegion r = t.fastRegistered(pages, 0, flags, false);
                int len = (int) Math.min(n, Math.min(r.length(), s.maxAccess()));
                long k = seed % (r.length() - len + 1);
                NdkSge sink = r.sge(k, len);
                byte[] source = s.peerScratchBytes(len);
                Access a = s.targetReadInto(sink, NdkOpFlags.RDMA_READ_LOCAL_INVALIDATE);
                byte[] landed = r.buffer().read(r.fbo() + k, len);
                if (!a.succeeded() || !Arrays.equals(landed, source)) {
                    throw Violations.of("RW-4", a.describe(), "STATUS_SUCCESS and the peer's bytes " + Hex.bytes(source) + " in the sink",
                            a.outcome().describe() + ", the sink holds " + Hex.bytes(landed));
                }
                r.buffer().expectWrite(r.fbo() + k, source);
                Access again = s.targetReadInto(sink, 0);
                if (again.succeeded()) {
                    throw Violations.of("RW-4", again.describe() + " after " + a.describe(),
                            "an error: the read with RDMA_READ_LOCAL_INVALIDATE invalidated the sink's token " + u32(sink.memoryRegionToken()),
                            "it succeeded");
                }
                s.checkMemory("RW-4", again.describe());
                t.fastRegisterAgain(r.buffer(), r.mdl(), r.lam(), r.mr(), pages, 0, r.length(), r.base() + (1L << 30), flags);
            }
        });
    }

    /** The silent request of the RW-5 property that fails, and what comes before it on its QP. */
    enum FailingSilent {
        /** An NdkWrite, first of its QP's outstanding requests. */
        WRITE,
        /** An NdkRead, first of its QP's outstanding requests. */
        READ,
        /** An NdkWrite right after a valid NdkWrite with DEFER (NDKPI 1.2 and later; earlier: alone). */
        AFTER_DEFER,
        /** An NdkWrite right after a valid NdkWrite with SILENT_SUCCESS. */
        AFTER_SILENT
    }

    /** One silent request of the RW-5 property. */
    enum Silent {
        /** A fast registration with SILENT_SUCCESS. */
        FAST_REGISTER,
        /** An NdkWrite with SILENT_SUCCESS. */
        WRITE,
        /** An NdkRead with SILENT_SUCCESS. */
        READ
    }

    /**
     * RW-5: successful requests posted with NDK_OP_FLAG_SILENT_SUCCESS (fast registrations, writes, reads)
     * followed by a request without it add no CQ entry of their own: only the last request's entry
     * appears. A silent NdkWrite or NdkRead with a remote token that names nothing still fails with an error CQ entry
     * carrying its RequestContext, also when it ends a run of requests held back with DEFER (NDKPI 1.2 and later) or
     * follows silent requests that succeeded.
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("RW-5")
    void silentSuccessSuppressesOnlySuccessfulEntries(@ForAll @Size(min = 1, max = 6) List<Silent> silent, @ForAll @IntRange(min = 1, max = 64) int n,
                                                      @ForAll FailingSilent failing) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered local = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
                Registered remote = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                QpRef q = t.target();
                List<WorkRequest> quiet = new ArrayList<>();
                Lam[] lam = new Lam[1];
                int i = 0;
                for (Silent kind : silent) {
                    quiet.add(switch (kind) {
                        case WRITE -> t.write(q, new NdkSge[]{local.sge(0, n)}, remote.va() + (long) i * 64, remote.remoteToken(), NdkOpFlags.SILENT_SUCCESS);
                        case READ -> t.read(q, new NdkSge[]{local.sge((long) i * 64, n)}, remote.va(), remote.remoteToken(), NdkOpFlags.SILENT_SUCCESS);
                        case FAST_REGISTER -> {
                            if (lam[0] == null) {
                                lam[0] = s.buildLam(s.allocate(1).mdl(t.freshVa(), 0, p), p);
                            }
                            NdkMr mr = s.fastRegisterMr(1, true);
                            yield t.fastRegister(q, mr, 1, lam[0].pages(), 0, p, t.freshVa(), NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.SILENT_SUCCESS);
                        }
                    });
                    i++;
                }
                for (WorkRequest wr : quiet) {
                    if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        throw Violations.of("RW-5", wr.detail(), "STATUS_SUCCESS for a valid silent request", "returned " + wr.returned());
                    }
                }
                WrOutcome last = t.complete(t.write(q, new NdkSge[]{local.sge(0, n)}, remote.va() + p / 2, remote.remoteToken(), 0));
                if (!last.succeeded()) {
                    throw Violations.of("RW-5", last.call(), "STATUS_SUCCESS for a valid request", last.describe());
                }
                s.drain(s.target());
                for (WorkRequest wr : quiet) {
                    if (wr.entry() != null && NtStatus.STATUS_SUCCESS.equals(wr.entry().status())) {
                        throw Violations.of("RW-5", wr.detail(), "no CQ entry for a request with SILENT_SUCCESS that succeeded",
                                "a CQ entry with STATUS_SUCCESS (RequestContext " + wr.context() + ")");
                    }
                }
                remote.buffer().acceptActual(0, p);
                local.buffer().acceptActual(0, p);
                int bogus = remote.remoteToken() ^ 0x00F0_0F00;
                WorkRequest before = switch (failing) {
                    // DEF-5: the failing request, posted without DEFER, ends the run the deferred write starts
                    case AFTER_DEFER -> s.info().version().atLeast(NdkVersion.V1_2)
                            ? t.write(q, new NdkSge[]{local.sge(0, n)}, remote.va() + p / 2, remote.remoteToken(), NdkOpFlags.DEFER) : null;
                    case AFTER_SILENT -> t.write(q, new NdkSge[]{local.sge(0, n)}, remote.va() + p / 2, remote.remoteToken(), NdkOpFlags.SILENT_SUCCESS);
                    default -> null;
                };
                WorkRequest bad = failing == FailingSilent.READ
                        ? t.read(q, new NdkSge[]{local.sge(0, n)}, remote.va(), bogus, NdkOpFlags.SILENT_SUCCESS)
                        : t.write(q, new NdkSge[]{local.sge(0, n)}, remote.va(), bogus, NdkOpFlags.SILENT_SUCCESS);
                if (NtStatus.STATUS_SUCCESS.equals(bad.returned())) {
                    NtStatus st = t.awaitEntry(bad, "RW-5", "an error CQ entry for a silent request that failed"
                            + (before == null ? "" : " after " + before.detail()));
                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                        throw Violations.of("RW-5", bad.detail(), "an error CQ entry: remote token " + u32(bogus) + " names nothing",
                                "a CQ entry with STATUS_SUCCESS");
                    }
                }
                if (before != null && failing == FailingSilent.AFTER_DEFER) {
                    t.complete(before); // the deferred write's own entry (it may fail: this property judges only the silent one)
                }
                s.drain(s.target());
                remote.buffer().acceptActual(p / 2, n);
            }
        });
    }
}
