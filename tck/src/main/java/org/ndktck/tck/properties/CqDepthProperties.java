package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.KitSetupError;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.RequestContext;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.SkippablePosts;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A CQ driven to its depth: a CQ created with QueueDepth d holds d entries at once, and its
 * ring wraps around as rounds of requests go through it. Overrunning a CQ is signalled only to the CQ
 * notification callback (CQ-5, informational: the SPI has none), so the kit never posts more than d requests
 * whose entries are not yet removed.
 */
@NdkKit
public class CqDepthProperties {
    /** Bytes each write moves; each write has its own slot of the peer's buffer. */
    private static final int SLOT = 8;

    /**
     * CQ-2 and RW-5: on a CQ created with QueueDepth d (1 to 16, within MaxCqDepth and the QP's depth), each
     * round posts up to d writes (exactly d in the tries that fill it) without removing any entry, then removes
     * them in batches of {@code batch} (NdkGetCqResultsEx); 2 to 6 rounds, so the CQ's ring wraps around. Every
     * write yields exactly one entry with its RequestContext and QPContext (a lost entry fails RW-5; a stale, a
     * repeated or a foreign one fails CQ-2, as the session's checks charge it), a batch never reports more
     * entries than it was given room for (CQ-1), and every write's bytes are at the peer.
     */
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("CQ-2")
    @Tag("RW-5")
    void entriesUpToTheDepthSurviveTheRingsWrapAround(@ForAll @IntRange(min = 1, max = 16) int depthSeed,
                                                      @ForAll @IntRange(min = 1, max = 16) int batch,
                                                      @ForAll @IntRange(min = 2, max = 6) int rounds,
                                                      @ForAll @IntRange(min = 0, max = 1 << 20) int seed,
                                                      @ForAll boolean fill) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                long limit = Math.min(Integer.toUnsignedLong(s.info().maxCqDepth()), Integer.toUnsignedLong(s.info().maxInitiatorQueueDepth()));
                int d = (int) Math.max(1, Math.min(depthSeed, Math.min(16, limit)));
                NdkCq cq = t.createCq(d);
                QpRef a = t.createQp(s.target().pd(), cq, new RequestContext("QPContext of the depth-limited QP"),
                        "depth-limited target", 0, 1);
                QpRef b = t.createQp(s.peer().pd(), s.peer().cq(), new RequestContext("QPContext of its peer"),
                        "depth-limited peer", 0, 1);
                NtStatus st = s.invoker().call("connectLoopback", () -> "connectLoopback(depth-limited QP, its peer)",
                        () -> s.adapter().connectLoopback(a.qp(), b.qp()));
                if (!NtStatus.STATUS_SUCCESS.equals(st)) {
                    throw new KitSetupError("connectLoopback(depth-limited QPs)", String.valueOf(st));
                }
                Registered local = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered remote = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE);
                int slots = p / SLOT;
                int next = 0;
                long removed = 0;
                List<long[]> written = new ArrayList<>();
                List<Boolean> judged = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    int k = fill ? d : 1 + Math.floorMod(seed + 7 * r, d);
                    List<WorkRequest> round = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        long off = (long) (next++ % slots) * SLOT;
                        WorkRequest wr = SkippablePosts.write(t, a, new NdkSge[]{local.sge((off + 8L * r) % (p - SLOT), SLOT)},
                                remote.va() + off, remote.remoteToken(), 0);
                        if (wr == null) {
                            continue; // refused for lack of resources, as the pages allow: that write is not judged
                        }
                        if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                            throw Violations.of("RW-5", wr.detail(), "STATUS_SUCCESS for a valid write, with at most QueueDepth ("
                                    + d + ") entries outstanding on its CQ", "returned " + wr.returned());
                        }
                        round.add(wr);
                        written.add(new long[]{off, (off + 8L * r) % (p - SLOT), round.size() - 1, r});
                    }
                    removed += drain(s, t, cq, batch, round, d, removed);
                    for (WorkRequest wr : round) {
                        judged.add(NtStatus.STATUS_SUCCESS.equals(wr.entry().status()));
                    }
                }
                for (int wi = 0; wi < written.size(); wi++) {
                    long[] w = written.get(wi);
                    if (!judged.get(wi)) {
                        // a write that completed in error (for lack of resources, say) moved nothing the kit can judge
                        remote.buffer().acceptActual(remote.bufferOffset() + w[0], SLOT);
                        continue;
                    }
                    byte[] want = local.buffer().read(local.bufferOffset() + w[1], SLOT);
                    byte[] got = remote.buffer().read(remote.bufferOffset() + w[0], SLOT);
                    if (!Arrays.equals(want, got)) {
                        throw Violations.of("RW-5", "NdkWrite of " + SLOT + " bytes to peer offset " + w[0] + " through a CQ of depth " + d,
                                "the bytes " + Hex.bytes(want) + " at the peer", "the peer holds " + Hex.bytes(got));
                    }
                    remote.buffer().expectWrite(remote.bufferOffset() + w[0], want);
                }
            }
        });
    }

    /**
     * Removes the round's entries in batches; an entry the session cannot match (foreign, repeated, stale) is its
     * CQ-2 breach, a round entry missing at the completion bound is RW-5's.
     *
     * @return the entries removed
     */
    private static long drain(NdkSession s, SessionTools t, NdkCq cq, int batch, List<WorkRequest> round, int depth, long before) {
        long start = System.nanoTime();
        long removed = 0;
        int spin = 0;
        while (true) {
            NdkResultEx[] got = new NdkResultEx[batch];
            int n = t.getCqResultsEx(cq, got);
            if (n < 0 || n > batch) {
                throw Violations.of("CQ-1", "NdkGetCqResultsEx(nResults=" + batch + ") on a CQ of depth " + depth,
                        "a count from 0 to " + batch, "returned " + n);
            }
            for (int i = 0; i < n; i++) {
                t.accept(cq, got[i]);
            }
            removed += n;
            WorkRequest missing = round.stream().filter(w -> w.entry() == null).findFirst().orElse(null);
            if (missing == null) {
                return removed;
            }
            if (n == 0 && s.bounds().completionExpired(start)) {
                throw Violations.of("RW-5", missing.detail() + " on a CQ of QueueDepth " + depth + ", with " + round.size()
                                + " entries outstanding, after " + (before + removed) + " entries removed from it",
                        "its CQ entry within " + s.bounds().describeCompletionBound(), "no CQ entry with RequestContext " + missing.context());
            }
            if (n == 0 && ++spin > 64) {
                LockSupport.parkNanos(Math.min(1_000_000L, 10_000L * (spin - 64)));
            }
        }
    }
}
