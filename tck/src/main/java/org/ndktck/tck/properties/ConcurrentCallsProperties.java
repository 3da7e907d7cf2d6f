package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.Schedule;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.properties.ConcurrentThreadSteps.FrMade;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.SLOT;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.poll;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.slot;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.pattern;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.fastRegisterOrInvalidate;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.deregisterThenProbe;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.writeSlot;
import static org.ndktck.tck.properties.ConcurrentThreadSteps.readOwnSlot;
import static org.ndktck.tck.properties.ConcurrentReachChecks.reachesOwnRegionOnly;
import static org.ndktck.tck.properties.ConcurrentReachChecks.deniedAt;

/**
 * Concurrent calls on one adapter: several kit threads call into ONE adapter at once, as the
 * pages allow (every MR, work-request and CQ function may be called at up to DISPATCH_LEVEL, from any
 * processor). Each try draws the number of threads (2 to 4 at the standard profile, up to 2 at smoke, up to 8
 * at deep), the steps per thread (2 to 6 at standard), and a schedule seed from which every thread's operation
 * list and its seeded delays come ({@link Schedule}); the threads meet at a barrier before every step, so the
 * calls of one step really overlap.
 *
 * <p><b>The sequential model.</b> Every outcome must be explainable by some order of the calls: each accepted
 * request has exactly one CQ entry, with its own RequestContext and its QP's QPContext (CQ-2; none lost: RW-5,
 * MR-FR-8, INV-3), whatever thread polled it; the bytes a write carried are exactly where it wrote them; the
 * tokens of registrations that are live at the same time are distinct (MR-TOK-6), a token read twice from an
 * unchanged registration is the same (MR-TOK-5), each live token reaches its own region and no other, and a
 * token whose registration was invalidated (INV-4) or deregistered (MR-DEREG-3) reaches nothing once that call
 * has completed. Calls whose order the model cannot know (which of two overlapping posts completes first) are
 * never judged by order. A failure message carries the schedule (seed, delays, and which thread made which call
 * in which step).
 *
 * <p><b>What the kit itself obeys.</b> No two kit threads poll one CQ at once (CQ-4) or post on one QP at once:
 * each thread has its own {@link ConcurrentLane}, except in the shared-CQ property, where one thread polls the
 * CQ the other threads' QPs share. No token is read before its registration has completed (MR-TOK-3).
 */
@NdkKit
public class ConcurrentCallsProperties {
    private static final int REMOTE_RW = NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE;

    /** @return kit threads: 2 to 4 at the standard profile (2 at smoke, up to 8 at deep) */
    @Provide
    Arbitrary<Integer> threads() {
        return Arbitraries.integers().between(2, Math.max(2, TckConfig.current().profile().size(4)));
    }

    /** @return steps per thread: 2 to 6 at the standard profile (up to 3 at smoke, 12 at deep) */
    @Provide
    Arbitrary<Integer> steps() {
        return Arbitraries.integers().between(2, Math.max(2, TckConfig.current().profile().size(6)));
    }

    /** @return the schedule seed: the threads' operation lists and delays */
    @Provide
    Arbitrary<Long> scheduleSeeds() {
        return Arbitraries.longs();
    }

    // ------------------------------------------------------------------ (a) posts on QPs sharing one CQ, one poller

    /**
     * RW-5, CQ-2: {@code threads} kit threads post NdkWrite on QPs of their own that share ONE initiator CQ, while
     * one more thread polls that CQ (NdkGetCqResultsEx or NdkGetCqResults, 1 to 4 entries a call). Every accepted
     * write has exactly one entry, with its own RequestContext and its QP's QPContext, whichever poll returned it
     * (an entry of a write whose post had not yet returned on its thread is fine: the post came first); no entry
     * is lost (RW-5) or repeated (CQ-2); each write completes with success and its bytes are exactly at the
     * peer's slot it named (MR-REG-3).
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("RW-5")
    @Tag("CQ-2")
    void postsOnQpsSharingOneCqArePolledExactlyOnce(@ForAll("threads") int posters, @ForAll("steps") int steps,
                                                   @ForAll("scheduleSeeds") long seed) {
        Schedule schedule = Schedule.draw(seed, posters + 1, steps + 1);
        SplittableRandom ops = new SplittableRandom(~seed);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                t.onRefusedPost(Refusals.OnRefusal.KEEP);
                int p = s.pageSize();
                NdkCq shared = t.createCq(Integer.highestOneBit(posters * steps) * 2 + 16);
                List<ConcurrentLane> lanes = new ArrayList<>();
                for (int i = 0; i < posters; i++) {
                    lanes.add(ConcurrentLane.open(s, t, "poster " + (i + 1), shared));
                }
                Registered sink = t.registered(s.peer(), 1, 0, p, REMOTE_RW);
                Registered source = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                WorkRequest[][] posted = new WorkRequest[posters][steps + 1];
                List<Object> polled = new ArrayList<>();
                List<List<Schedule.Action>> actions = new ArrayList<>();
                List<Schedule.Action> poller = new ArrayList<>();
                for (int k = 0; k <= steps; k++) {
                    int want = 1 + ops.nextInt(4);
                    boolean ex = ops.nextInt(3) != 0;
                    poller.add(() -> poll(s, shared, want, ex, polled));
                }
                actions.add(poller);
                for (int i = 0; i < posters; i++) {
                    int me = i;
                    QpRef q = lanes.get(i).target();
                    List<Schedule.Action> mine = new ArrayList<>();
                    for (int k = 0; k < steps; k++) {
                        int step = k;
                        if (ops.nextInt(4) == 0) {
                            mine.add(null);
                            continue;
                        }
                        long off = slot(me, step, steps);
                        NdkSge sge = source.sge(off, SLOT);
                        mine.add(() -> {
                            WorkRequest wr = t.write(q, new NdkSge[]{sge}, sink.va() + off, sink.remoteToken(), 0);
                            posted[me][step] = wr;
                            return wr.detail() + " on " + q.name() + " -> " + wr.returned();
                        });
                    }
                    actions.add(mine);
                }
                for (int i = 0; i < posters; i++) {
                    for (int k = 0; k < steps; k++) {
                        source.buffer().put(source.bufferOffset() + slot(i, k, steps), pattern(seed, i, k));
                    }
                }
                try {
                    schedule.run(actions);
                    // the kit's own matching, on this thread, in the order the poller got the entries
                    for (Object e : polled) {
                        if (e instanceof NdkResultEx x) {
                            s.completions().accept(shared, x);
                        } else {
                            s.completions().accept(shared, (NdkResult) e);
                        }
                    }
                    for (int i = 0; i < posters; i++) {
                        for (int k = 0; k < steps; k++) {
                            WorkRequest wr = posted[i][k];
                            if (wr == null || !NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                                continue;
                            }
                            if (wr.entry() == null) {
                                s.completions().awaitEntry(wr);
                            }
                        }
                    }
                    s.completions().drain(shared);
                    for (int i = 0; i < posters; i++) {
                        for (int k = 0; k < steps; k++) {
                            WorkRequest wr = posted[i][k];
                            if (wr == null || !NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                                continue;
                            }
                            NtStatus st = wr.entry().status();
                            if (Refusals.isAllowedRefusal(st)) {
                                continue;
                            }
                            long off = slot(i, k, steps);
                            byte[] want = pattern(seed, i, k);
                            byte[] got = sink.buffer().read(sink.bufferOffset() + off, SLOT);
                            if (!NtStatus.STATUS_SUCCESS.equals(st) || !Arrays.equals(want, got)) {
                                throw Violations.of("MR-REG-3", wr.detail(), "STATUS_SUCCESS and the " + SLOT + " bytes " + Hex.bytes(want)
                                        + " at the peer's RemoteAddress " + u64(sink.va() + off), "status " + st + ", bytes there " + Hex.bytes(got));
                            }
                            sink.buffer().expectWrite(sink.bufferOffset() + off, want);
                        }
                    }
                } catch (RuleViolation v) {
                    throw schedule.explain(v);
                }
            }
        });
    }

    // ------------------------------------------------------------------ (b) fast-register and invalidate, one PD

    /**
     * MR-TOK-6, INV-4, MR-FR-10: {@code threads} kit threads fast-register and invalidate MRs of ONE PD at once,
     * each thread its own 1 or 2 MRs (initialized beforehand) on its own connection: at each step a thread
     * fast-registers an MR of its own that is not registered (at the MR's usual base or a fresh one) or
     * invalidates one that is, and awaits the CQ entry; after a fast registration it reads the new remote token.
     * Then, one access at a time: the remote tokens of the live registrations are pairwise distinct (MR-TOK-6);
     * each live token reaches its own region (a peer write and read back at its first and last bytes:
     * MR-FR-10) and no other region's byte changes (MR-TOK-6); each token of an invalidated registration
     * (unless a live registration holds the same value again) reaches nothing, neither at its old addresses nor
     * at its MR's new ones (INV-4).
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("MR-TOK-6")
    @Tag("INV-4")
    @Tag("MR-FR-10")
    void fastRegisterAndInvalidateOfOnePdsMrsFromSeveralThreads(@ForAll("threads") int threads, @ForAll("steps") int steps,
                                                              @ForAll("scheduleSeeds") long seed) {
        Schedule schedule = Schedule.draw(seed, threads, steps);
        SplittableRandom ops = new SplittableRandom(~seed);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                t.onRefusedPost(Refusals.OnRefusal.KEEP);
                int p = s.pageSize();
                List<List<Schedule.Action>> actions = new ArrayList<>();
                List<FrMade> made = java.util.Collections.synchronizedList(new ArrayList<>());
                Map<NdkMr, FrMade[]> current = new java.util.concurrent.ConcurrentHashMap<>();
                for (int i = 0; i < threads; i++) {
                    int me = i;
                    ConcurrentLane lane = ConcurrentLane.open(s, t, "thread " + i, null);
                    int mrs = 1 + ops.nextInt(2);
                    List<Object[]> own = new ArrayList<>();
                    for (int j = 0; j < mrs; j++) {
                        int pages = 1 + ops.nextInt(2);
                        int fbo = ops.nextInt(2) == 0 ? 0 : 8 * ops.nextInt(p / 8);
                        HostBuffer b = s.allocate(pages);
                        long length = (long) pages * p - fbo;
                        Mdl mdl = b.mdl(t.freshVa() + fbo, 0, (int) length);
                        Lam lam = s.buildLam(mdl, length);
                        NdkMr mr = s.fastRegisterMr(pages, true);
                        long usualBase = t.freshVa() + fbo;
                        own.add(new Object[]{b, mdl, lam, mr, pages, fbo, length, usualBase});
                        current.put(mr, new FrMade[1]);
                    }
                    List<Schedule.Action> mine = new ArrayList<>();
                    for (int k = 0; k < steps; k++) {
                        Object[] m = own.get(ops.nextInt(own.size()));
                        long base = ops.nextInt(2) == 0 ? (long) m[7] : t.freshVa() + (int) m[5];
                        mine.add(() -> fastRegisterOrInvalidate(s, t, lane.target(), me, m, base, made, current));
                    }
                    actions.add(mine);
                }
                try {
                    schedule.run(actions);
                    schedule.note("check: the tokens of the live registrations, then one peer access at a time");
                    List<FrMade> live = new ArrayList<>();
                    for (FrMade f : made) {
                        if (f.live()[0]) {
                            live.add(f);
                        }
                    }
                    Map<Integer, FrMade> byToken = new HashMap<>();
                    for (FrMade f : live) {
                        FrMade other = byToken.putIfAbsent(f.region().token(), f);
                        if (other != null) {
                            throw Violations.of("MR-TOK-6", "NdkGetRemoteTokenFromMr of two fast-registered MRs of one PD (threads "
                                            + other.thread() + " and " + f.thread() + ")",
                                    "distinct remote tokens for two registrations live at the same time",
                                    "both are " + u32(f.region().token()));
                        }
                    }
                    for (FrMade f : live) {
                        reachesOwnRegionOnly(s, f.region().region(), "MR-FR-10", "the live fast registration of thread " + f.thread());
                    }
                    for (FrMade f : made) {
                        if (f.live()[0] || byToken.containsKey(f.region().token())) {
                            continue;
                        }
                        Region old = f.region().region();
                        FrMade now = current.get(f.region().mr())[0];
                        deniedAt(s, old, old.base(), "INV-4", "the invalidated fast registration of thread " + f.thread());
                        if (now != null && now.live()[0]) {
                            deniedAt(s, old, now.region().base(), "INV-4", "the invalidated fast registration of thread " + f.thread()
                                    + ", at the addresses of its MR's new registration");
                        }
                    }
                } catch (RuleViolation v) {
                    throw schedule.explain(v);
                }
            }
        });
    }

    // ------------------------------------------------------------------ (c) token reads while registrations complete

    /**
     * MR-TOK-5, MR-TOK-6: {@code threads} kit threads at once, at each step, either register a new MR of the
     * target PD (NdkRegisterMr, awaited, then its tokens are read on that thread) or read the remote and local
     * tokens of a registration made before the schedule began. Each read of an unchanged registration returns
     * the token read before (MR-TOK-5); the remote tokens of all live registrations are pairwise distinct
     * (MR-TOK-6); each reaches its own region and no other (a peer write and read back, then a memory check).
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("MR-TOK-6")
    @Tag("MR-TOK-5")
    void tokenReadsWhileRegistrationsComplete(@ForAll("threads") int threads, @ForAll("steps") int steps,
                                              @ForAll("scheduleSeeds") long seed) {
        Schedule schedule = Schedule.draw(seed, threads, steps);
        SplittableRandom ops = new SplittableRandom(~seed);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                s.qps();
                List<Registered> before = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    before.add(t.registered(s.target(), 1, 0, p, REMOTE_RW));
                }
                List<Object[]> madeNow = java.util.Collections.synchronizedList(new ArrayList<>());
                List<List<Schedule.Action>> actions = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    List<Schedule.Action> mine = new ArrayList<>();
                    for (int k = 0; k < steps; k++) {
                        if (ops.nextInt(2) == 0) {
                            HostBuffer b = s.allocate(1);
                            int offset = 8 * ops.nextInt(p / 16);
                            long va = t.freshVa() + offset;
                            long length = p - offset;
                            Mdl mdl = b.mdl(va, 0, (int) length);
                            NdkMr mr = s.createMr(s.target(), false);
                            mine.add(() -> {
                                Outcome o = s.register(mr, mdl, length, REMOTE_RW);
                                if (!o.succeeded()) {
                                    if (Refusals.isAllowedRefusal(o.status())) {
                                        return o.call() + " -> " + o.describe();
                                    }
                                    throw Violations.of("MR-REG-10", o.call(), "STATUS_SUCCESS for a valid registration", o.describe());
                                }
                                int local = s.localToken(mr);
                                int remote = s.remoteToken(mr);
                                madeNow.add(new Object[]{new Registered(s.target(), b, mdl, va, length, REMOTE_RW, mr, local, remote)});
                                return o.call() + " -> " + o.describe() + ", remote token " + u32(remote) + ", local token " + u32(local);
                            });
                        } else {
                            Registered r = before.get(ops.nextInt(before.size()));
                            mine.add(() -> {
                                int remote = s.remoteToken(r.mr());
                                int local = s.localToken(r.mr());
                                String call = "NdkGetRemoteTokenFromMr and NdkGetLocalTokenFromMr of a registration made before the schedule";
                                if (remote != r.remoteToken() || local != r.localToken()) {
                                    throw Violations.of("MR-TOK-5", call, "the tokens read before: remote " + u32(r.remoteToken())
                                            + ", local " + u32(r.localToken()), "remote " + u32(remote) + ", local " + u32(local));
                                }
                                return call + " -> remote " + u32(remote) + ", local " + u32(local);
                            });
                        }
                    }
                    actions.add(mine);
                }
                try {
                    schedule.run(actions);
                    schedule.note("check: the tokens of the live registrations, then one peer access at a time");
                    List<Registered> live = new ArrayList<>(before);
                    for (Object[] o : madeNow) {
                        live.add((Registered) o[0]);
                    }
                    Map<Integer, Registered> byToken = new HashMap<>();
                    for (Registered r : live) {
                        if (byToken.putIfAbsent(r.remoteToken(), r) != null) {
                            throw Violations.of("MR-TOK-6", "NdkGetRemoteTokenFromMr of " + live.size() + " registrations of one PD, "
                                            + (live.size() - before.size()) + " of them made by threads at once",
                                    "distinct remote tokens for registrations live at the same time", "two are " + u32(r.remoteToken()));
                        }
                    }
                    for (Registered r : live) {
                        reachesOwnRegionOnly(s, r.region(), "MR-REG-3", "a registration with remote token " + u32(r.remoteToken()));
                    }
                } catch (RuleViolation v) {
                    throw schedule.explain(v);
                }
            }
        });
    }

    // ------------------------------------------------------------------ (d) deregistration while remote accesses run

    /**
     * MR-DEREG-3, RW-5: thread 0 deregisters MRs of the target PD one per step and, right after each
     * NdkDeregisterMr has completed, has its peer QP write with the old remote token (which must fail); at the
     * same time the other threads' peer QPs write and read through the tokens of MRs that stay registered, each
     * at a slot of its own. Every access through a kept MR completes with success (RW-5: its entry is not lost)
     * and its bytes are exact (MR-REG-3); a deregistered MR's token reaches nothing once the deregistration has
     * completed, during the schedule and after it (MR-DEREG-3), and none of its bytes change.
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("MR-DEREG-3")
    @Tag("RW-5")
    void deregistrationWhileRemoteAccessesRun(@ForAll("threads") int threads, @ForAll("steps") int steps,
                                              @ForAll("scheduleSeeds") long seed) {
        Schedule schedule = Schedule.draw(seed, threads, steps);
        SplittableRandom ops = new SplittableRandom(~seed);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                t.onRefusedPost(Refusals.OnRefusal.KEEP);
                int p = s.pageSize();
                s.qps();
                List<Registered> victims = new ArrayList<>();
                for (int k = 0; k < steps; k++) {
                    victims.add(t.registered(s.target(), 1, 0, p, REMOTE_RW));
                }
                List<Registered> kept = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    kept.add(t.registered(s.target(), 1, 0, p, REMOTE_RW));
                }
                boolean[] deregistered = new boolean[victims.size()];
                List<List<Schedule.Action>> actions = new ArrayList<>();
                List<ConcurrentLane> lanes = new ArrayList<>();
                List<Registered> scratch = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    lanes.add(ConcurrentLane.open(s, t, "thread " + i, null));
                    scratch.add(t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag()));
                }
                // thread 0: deregister victim k at step k, then write with its old token through its own connection
                List<Schedule.Action> deregisterer = new ArrayList<>();
                for (int k = 0; k < steps; k++) {
                    int v = k;
                    deregisterer.add(() -> deregisterThenProbe(s, t, lanes.get(0).peer(), scratch.get(0), victims.get(v), deregistered, v));
                }
                actions.add(deregisterer);
                byte[][][] wrote = new byte[threads][steps][];
                int[][] keptOf = new int[threads][steps];
                for (int i = 1; i < threads; i++) {
                    int me = i;
                    QpRef q = lanes.get(i).peer();
                    Registered own = scratch.get(i);
                    List<Schedule.Action> mine = new ArrayList<>();
                    for (int k = 0; k < steps; k++) {
                        int step = k;
                        int which = ops.nextInt(kept.size());
                        keptOf[me][step] = which;
                        Registered r = kept.get(which);
                        long off = slot(me, step, steps);
                        boolean readBack = step > 0 && ops.nextInt(3) == 0;
                        own.buffer().put(own.bufferOffset() + off, pattern(seed, me, step));
                        mine.add(() -> readBack && wrote[me][step - 1] != null
                                ? readOwnSlot(t, q, own, kept.get(keptOf[me][step - 1]), slot(me, step - 1, steps), wrote[me][step - 1], off)
                                : writeSlot(t, q, own, r, off, pattern(seed, me, step), wrote[me], step));
                    }
                    actions.add(mine);
                }
                try {
                    schedule.run(actions);
                    schedule.note("check: the kept MRs' bytes, then the deregistered MRs' tokens, one peer access at a time");
                    for (int i = 1; i < threads; i++) {
                        for (int k = 0; k < steps; k++) {
                            if (wrote[i][k] == null) {
                                continue;
                            }
                            Registered r = kept.get(keptOf[i][k]);
                            long off = slot(i, k, steps);
                            byte[] got = r.buffer().read(r.bufferOffset() + off, SLOT);
                            if (!Arrays.equals(got, wrote[i][k])) {
                                throw Violations.of("MR-REG-3", "NdkWrite by thread " + i + " at step " + k + " to RemoteAddress "
                                                + u64(r.va() + off) + " with RemoteToken " + u32(r.remoteToken()),
                                        "its bytes " + Hex.bytes(wrote[i][k]) + " there", "bytes there " + Hex.bytes(got));
                            }
                            r.buffer().expectWrite(r.bufferOffset() + off, wrote[i][k]);
                        }
                    }
                    s.checkMemory("MR-DEREG-3", "the schedule's writes (only the kept MRs' slots may change; no byte of a deregistered MR)");
                    for (int v = 0; v < victims.size(); v++) {
                        if (deregistered[v]) {
                            Region r = victims.get(v).region();
                            deniedAt(s, r, r.base(), "MR-DEREG-3", "a deregistered MR");
                        }
                    }
                } catch (RuleViolation v) {
                    throw schedule.explain(v);
                }
            }
        });
    }
}
