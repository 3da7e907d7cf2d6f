package org.ndktck.tck.properties;

import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Bounds;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * DEFER after an inline failure (catalog section "Deferred processing"): once a request
 * with DEFER has failed inline while earlier DEFER requests were held, the QP goes on as before. The held
 * requests were handed on once (DEF-4): none is lost, none is processed or completed again by a later post;
 * and the DEFER requests posted after the failure are held and handed on like any others (DEF-3). Gated on
 * NDKPI 1.2 through the rules' {@code requires}.
 */
@NdkKit
public class DeferAfterFailureProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;
    /** Bytes each write of a try moves; each write has its own slot of the peer's buffer. */
    private static final int SLOT = 32;

    /** The requests of one try, with the rule a missing or second entry breaks. */
    private static final class Posted {
        final Map<WorkRequest, String> rules = new LinkedHashMap<>();
        /** slot → the write that filled it (its bytes must be there at the end) */
        final Map<Integer, WorkRequest> writes = new LinkedHashMap<>();
    }

    /**
     * DEF-4 and DEF-3 (NDKPI 1.2): on the target's QP, 1 to 3 valid requests with DEFER (writes into their own
     * slots of a peer buffer, fast registrations of fresh MRs) are held; a request with DEFER then fails inline
     * (a fast registration with remote flags on an MR initialized without remote access, or an NdkWrite with
     * more SGEs than the QP's MaxInitiatorRequestSge); then 0 to 3 more valid DEFER requests (with, in some
     * tries, a second inline failure among them), a valid write without DEFER, and after its entry one more
     * write without DEFER. Every accepted request must produce exactly one CQ entry within the completion
     * bound: a held request's entry missing fails DEF-4, a later request's DEF-3, and any entry seen twice
     * (a request replayed by a later post after an inline failure) DEF-4; and every write's slot must hold that write's bytes.
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("DEF-4")
    @Tag("DEF-3")
    void heldRequestsAreNeitherLostNorReplayedAfterAnInlineFailure(@ForAll @IntRange(min = 1, max = 3) int before,
                                                                   @ForAll @IntRange(min = 0, max = 3) int after,
                                                                   @ForAll @IntRange(min = 0, max = 63) int kinds,
                                                                   @ForAll boolean dataFailure, @ForAll boolean secondFailure) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Mdl lamMdl = s.allocate(1).mdl(t.freshVa(), 0, p);
                Lam lam = s.buildLam(lamMdl, p);
                Registered local = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
                Registered remote = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                int slots = Math.min(p / SLOT, 16);
                Posted posted = new Posted();
                int[] nextSlot = {0};
                // a valid request; write when the kind bit is clear (or no slot is left), else a fast registration
                java.util.function.IntFunction<WorkRequest> valid = flags -> {
                    int i = posted.rules.size();
                    boolean write = ((kinds >> (i % 6)) & 1) == 0 && nextSlot[0] < slots - 2;
                    if (write) {
                        int slot = nextSlot[0]++;
                        WorkRequest wr = t.write(t.target(), new NdkSge[]{local.sge((long) slot * SLOT, SLOT)},
                                remote.va() + (long) slot * SLOT, remote.remoteToken(), flags);
                        posted.writes.put(slot, wr);
                        return wr;
                    }
                    return t.fastRegister(t.target(), s.fastRegisterMr(1, true), 1, lam.pages(), 0, p, t.freshVa(), RW | flags);
                };
                java.util.function.Supplier<WorkRequest> failing = () -> dataFailure
                        ? t.write(t.target(), new NdkSge[]{local.sge(0, 16), local.sge(16, 16)}, remote.va(), remote.remoteToken(),
                        NdkOpFlags.DEFER)
                        : t.fastRegister(t.target(), s.fastRegisterMr(1, false), 1, lam.pages(), 0, p, t.freshVa(), RW | NdkOpFlags.DEFER);

                for (int i = 0; i < before; i++) {
                    accepted(posted, valid.apply(NdkOpFlags.DEFER), "DEF-4", "a valid request with DEFER");
                }
                WorkRequest bad = failing.get();
                boolean refused = !NtStatus.STATUS_SUCCESS.equals(bad.returned());
                if (!refused) {
                    posted.rules.put(bad, "DEF-3");
                }
                for (int i = 0; i < after; i++) {
                    accepted(posted, valid.apply(NdkOpFlags.DEFER), "DEF-3", "a valid request with DEFER after an inline failure");
                    if (secondFailure && i == 0) {
                        WorkRequest again = failing.get();
                        if (NtStatus.STATUS_SUCCESS.equals(again.returned())) {
                            posted.rules.put(again, "DEF-3");
                        }
                    }
                }
                accepted(posted, valid.apply(0), "DEF-3", "a valid request without DEFER");
                String story = "after " + bad.detail() + " returned " + bad.returned() + " with " + before + " DEFER request(s) held";
                awaitAll(s, t, posted, story);
                // one more request without DEFER: a provider that kept the held requests would replay them now
                accepted(posted, valid.apply(0), "DEF-3", "a valid request without DEFER");
                awaitAll(s, t, posted, story);
                for (Map.Entry<Integer, WorkRequest> w : posted.writes.entrySet()) {
                    long off = (long) w.getKey() * SLOT;
                    byte[] want = local.buffer().read(local.bufferOffset() + off, SLOT);
                    byte[] got = remote.buffer().read(remote.bufferOffset() + off, SLOT);
                    if (!Arrays.equals(want, got)) {
                        throw Violations.of(posted.rules.get(w.getValue()), w.getValue().detail() + " " + story,
                                "its bytes " + Hex.bytes(want) + " at the peer", "the peer's slot holds " + Hex.bytes(got));
                    }
                    remote.buffer().expectWrite(remote.bufferOffset() + off, want);
                }
                // a try whose failing request was accepted judged no inline failure
                Assume.that(refused);
            }
        });
    }

    private static void accepted(Posted posted, WorkRequest wr, String rule, String what) {
        if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
            throw Violations.of(rule, wr.detail(), "STATUS_SUCCESS for " + what, "returned " + wr.returned());
        }
        posted.rules.put(wr, rule);
    }

    /**
     * Drains the target's initiator CQ itself until every posted request has its entry, charging a missing entry,
     * or a second entry with a request's RequestContext, to the request's rule; other entries go to the session.
     */
    private static void awaitAll(NdkSession s, SessionTools t, Posted posted, String story) {
        NdkCq cq = t.target().cq();
        NdkResultEx[] batch = new NdkResultEx[16];
        long start = System.nanoTime();
        int round = 0;
        while (true) {
            int n = t.getCqResultsEx(cq, batch);
            for (int i = 0; i < Math.max(0, Math.min(n, batch.length)); i++) {
                NdkResultEx e = batch[i];
                for (Map.Entry<WorkRequest, String> p : posted.rules.entrySet()) {
                    WorkRequest wr = p.getKey();
                    if (e != null && e.requestContext() == wr.context() && wr.entry() != null) {
                        // a held request handed on again after an inline failure: DEF-4's hand-on happens once
                        throw Violations.of("DEF-4", wr.detail() + " " + story, "one CQ entry: the request is handed on once",
                                "a second CQ entry {Status=" + e.status() + "} with its RequestContext (the request was processed again)");
                    }
                }
                t.accept(cq, e);
            }
            List<WorkRequest> missing = new ArrayList<>();
            posted.rules.keySet().stream().filter(wr -> wr.entry() == null).forEach(missing::add);
            if (missing.isEmpty() && n == 0) {
                return;
            }
            if (!missing.isEmpty() && s.bounds().completionExpired(start)) {
                WorkRequest first = missing.get(0);
                throw Violations.of(posted.rules.get(first), first.detail() + " " + story,
                        "its CQ entry within " + s.bounds().describeCompletionBound(), "no CQ entry with RequestContext " + first.context());
            }
            if (missing.isEmpty()) {
                Bounds.completionArrived(start);
                continue;
            }
            round++;
            if (round < 64) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(Math.min(1_000_000L, 10_000L * (round - 63)));
            }
        }
    }
}
