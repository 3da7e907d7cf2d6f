package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.CurrentProperty;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.TimeBudget;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.model.Allowed;
import org.ndktck.tck.model.Coverage;
import org.ndktck.tck.model.LamModel;
import org.ndktck.tck.model.ModelQp;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.QpCall;
import org.ndktck.tck.model.QpModel;
import org.ndktck.tck.model.QpPhase;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * A stateful chain (jqwik {@link ActionChain}) on ONE adapter over QPs in every phase of the model
 * ({@link QpPhase}: unconnected, connected, flushed, peer closed, closed), their receives, the data path with every
 * request flag the kit may set (SILENT_SUCCESS, READ_FENCE, DEFER followed by a request without it, INLINE within the
 * QP's InlineDataSize), flushes in every phase, closes of either end, several LAMs built and released in any order
 * with privileged-token accesses, and both CQ getters. Each step's outcome is judged by the kit's model
 * ({@link QpCall#allowed}): a request the pages require to work must work and move exactly its bytes; one they
 * require to fail must fail and move nothing; where the pages say nothing (a request after NdkFlush, or once the
 * peer's end is closed) the declared unspecified mode accepts either, as long as a success moved exactly its bytes
 * and a failure none (SEC-1), and an accepted request completes exactly once.
 *
 * <p>Receives: a send lands in one of the receives pending on the receiving QP (the pages do not order them, so the
 * model accepts any and follows the one the provider chose); each pending receive completes with STATUS_CANCELLED at a
 * flush (FL-1) and with an error at a close (CL-5). Memory: after every step the kit's memory check finds no byte
 * changed outside what the model expects and no guard frame touched, including the pages of released LAMs.
 *
 * <p>The (phase, call) pairs exercised are jqwik statistics (label {@code model (state, call)}); at the standard
 * profile and deeper the property requires every pair the model allows to have been reached in the run.
 */
@NdkKit
public class AdapterModelChainProperties {

    /** The session the chain runs in (the chain's initial state is made on the property thread). */
    private static final ThreadLocal<NdkSession> SESSION = new ThreadLocal<>();

    /** The most QPs of the model at once. */
    static final int MAX_QPS = 3;
    /** The most receives pending on one QP. */
    static final int MAX_PENDING = 3;
    /** The most live LAMs. */
    static final int MAX_LAMS = 3;
    /** Bytes of one receive slot in the inbox, and the most bytes one request moves. */
    static final int SLOT = 64;

    /**
     * A target-side QP and, for a connected one, its peer end.
     *
     * @param target the target-side QP (the target's PD)
     * @param peer   the peer-side QP (the peer's PD), or null for an unconnected QP
     * @param inline the QP's InlineDataSize (bytes)
     */
    record Link(QpRef target, QpRef peer, int inline) {
    }

    /**
     * A posted receive and the inbox slot its SGE names.
     *
     * @param wr   the request
     * @param slot the slot (bytes slot * SLOT .. slot * SLOT + SLOT - 1 of the inbox)
     * @param n    bytes of its SGE
     */
    record Recv(WorkRequest wr, int slot, int n) {
    }

    /**
     * A LAM the chain built: its buffer and mapping.
     *
     * @param buffer the host buffer
     * @param lam    the mapping
     * @param length bytes mapped
     */
    record BuiltLam(org.ndktck.tck.harness.HostBuffer buffer, org.ndktck.tck.harness.Lam lam, long length) {
    }

    /** The state of a chain: the session, the model, and the chain's own registrations. */
    static final class World {
        final NdkSession s;
        final SessionTools t;
        final Coverage coverage = new Coverage();
        final QpModel<Link, Recv> qps = new QpModel<>(coverage);
        final LamModel<BuiltLam> lams = new LamModel<>(coverage);
        final MrModel fixtures = new MrModel();
        /** Target side: local source of writes and sends, sink of reads (local write, read sink). */
        final Registered local;
        /** Target side: where receives land (one slot of SLOT bytes a receive). */
        final Registered inbox;
        /** Peer side: the remote region of writes and reads, and the source of the peer's sends. */
        final Registered remote;
        /** Peer side: where the target's sends land. */
        final Registered peerInbox;
        final boolean deferAllowed;
        final boolean[] slotsInUse = new boolean[16];
        int privilegedToken;
        /**
         * A step was ended by an allowed refusal (lack of resources): requests it posted may still be in flight, so the
         * model no longer knows what memory and the queues hold; the chain ends its judging there (only CQ polls follow,
         * which the harness judges by itself).
         */
        boolean tainted;

        World(NdkSession s) {
            this.s = s;
            this.t = SessionTools.of(s);
            s.qps();
            int p = s.pageSize();
            local = fixture(t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag()));
            inbox = fixture(t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE));
            remote = fixture(t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_WRITE
                    | NdkMrFlags.ALLOW_REMOTE_READ));
            peerInbox = fixture(t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE));
            deferAllowed = s.info().version().atLeast(NdkVersion.V1_2);
        }

        private Registered fixture(Registered r) {
            fixtures.foreign(r.remoteToken(), "the chain's own registration " + r.region());
            return r;
        }

        int freeSlot() {
            for (int i = 0; i < slotsInUse.length; i++) {
                if (!slotsInUse[i]) {
                    return i;
                }
            }
            return -1;
        }
    }

    // ------------------------------------------------------------------ steps

    /** The choice of a step among the objects eligible when it runs. */
    private static final Arbitrary<Integer> PICKS = Arbitraries.integers().between(0, 15);

    /**
     * A step: its body runs in one batch of provider calls; an allowed refusal (lack of resources) ends it and what is in
     * memory then is what the kit expects.
     */
    private static Transformer<World> step(String description, Consumer<World> body) {
        return Transformer.mutate(description, w -> w.s.invoker().batch("a step of the adapter-model chain", () -> {
            if (!Refusals.stepUnlessRefused(() -> body.accept(w))) {
                w.tainted = true;
                forgetBytes(w);
            }
            return null;
        }));
    }

    private static void forgetBytes(World x) {
        for (Registered r : List.of(x.local, x.inbox, x.remote, x.peerInbox)) {
            r.buffer().acceptActual(0, (int) r.buffer().size());
        }
        List<BuiltLam> all = new ArrayList<>(x.lams.live());
        all.addAll(x.lams.released());
        for (BuiltLam l : all) {
            l.buffer().acceptActual(0, (int) l.buffer().size());
        }
    }

    /** Connects a new pair of QPs (InlineDataSize 0 or SLOT). */
    static final class Connect implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && w.qps.all().size() < MAX_QPS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.of(0, SLOT).map(inline -> step("connect a new pair of QPs (InlineDataSize " + inline + ")", x -> {
                QpRef[] pair = x.t.connectedPair(inline);
                x.qps.created(new Link(pair[0], pair[1], inline), QpPhase.CONNECTED);
            }));
        }
    }

    /** Creates a QP of the target's PD (on a CQ of its own) that is never connected. */
    static final class CreateUnconnected implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && w.qps.all().size() < MAX_QPS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.just(step("create an unconnected QP", x -> {
                QpRef q = x.t.createQp(x.s.target().pd(), x.t.createCq(16), new org.ndktck.tck.harness.RequestContext("QPContext of an unconnected QP"),
                        "unconnected", 0);
                x.qps.created(new Link(q, null, 0), QpPhase.UNCONNECTED);
            }));
        }
    }

    /** The flags a request may carry: SILENT_SUCCESS, READ_FENCE, DEFER, INLINE (only on a QP with room). */
    enum Flags {
        NONE, SILENT_SUCCESS, READ_FENCE, DEFER, INLINE
    }

    /** An NdkWrite, NdkRead or NdkSend from a target-side QP in any phase but closed. */
    static final class Post implements Action.Independent<World> {
        private final QpCall call;

        Post(QpCall call) {
            this.call = call;
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !w.qps.eligible(call).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.of(Flags.class), Arbitraries.integers().between(1, SLOT),
                    Arbitraries.integers().between(0, 15), Arbitraries.integers().between(0, 15)).as((pick, flag, n, a, b) ->
                    step(call + " of " + n + " byte(s) with " + flag + " (pick " + pick + ", local slot " + a + ", remote slot " + b + ")",
                            x -> post(x, MrModel.pick(x.qps.eligible(call), pick), call, flag, n, a * SLOT, b * SLOT)));
        }
    }

    private static int flagsOf(World x, Link l, Flags f, int n, QpCall call) {
        return switch (f) {
            case NONE, DEFER -> 0;
            case SILENT_SUCCESS -> NdkOpFlags.SILENT_SUCCESS;
            case READ_FENCE -> NdkOpFlags.READ_FENCE;
            case INLINE -> call != QpCall.READ && n <= l.inline() ? NdkOpFlags.INLINE : 0;
        };
    }

    private static WorkRequest postOne(World x, Link l, QpCall call, int flags, int n, long a, long b) {
        return switch (call) {
            case WRITE -> x.t.write(l.target(), new NdkSge[]{x.local.sge(a, n)}, x.remote.va() + b, x.remote.remoteToken(), flags);
            case READ -> x.t.read(l.target(), new NdkSge[]{x.local.sge(a, n)}, x.remote.va() + b, x.remote.remoteToken(), flags);
            case SEND -> x.t.send(l.target(), new NdkSge[]{x.local.sge(a, n)}, flags);
            default -> throw new IllegalArgumentException(String.valueOf(call));
        };
    }

    private static void post(World x, ModelQp<Link, Recv> q, QpCall call, Flags flag, int n, long a, long b) {
        Link l = q.handle();
        QpPhase phase = q.phase();
        Allowed allowed = x.qps.calling(q, call);
        int flags = flagsOf(x, l, flag, n, call);
        Registered dst = call == QpCall.WRITE ? x.remote : call == QpCall.READ ? x.local : x.peerInbox;
        long dstAt = call == QpCall.READ ? a : b;
        byte[] data = SessionTools.complement(call == QpCall.READ ? x.remote.buffer().expected(b, n) : x.local.buffer().expected(a, n));
        if (call != QpCall.READ) {
            x.local.buffer().put(a, data);
        } else {
            x.remote.buffer().put(b, data);
        }
        byte[] old = dst.buffer().expected(dstAt, n);
        WorkRequest peerRecv = null;
        if (call == QpCall.SEND && phase == QpPhase.CONNECTED) {
            peerRecv = x.t.receive(l.peer(), new NdkSge[]{x.peerInbox.sge(b, n)}, NdkOperationType.RECEIVE);
        }
        // SILENT_SUCCESS and DEFER: the request is followed on the same QP by the same request without the flag (it moves
        // the same bytes again), whose entry tells that the first one has finished (DEF-5 binds the kit: a DEFER chain ends
        // with a request without DEFER). A send is not repeated (one receive waits for it).
        boolean silent = flag == Flags.SILENT_SUCCESS && call != QpCall.SEND;
        boolean defer = flag == Flags.DEFER && x.deferAllowed && call != QpCall.SEND;
        List<WrOutcome> outcomes = new ArrayList<>();
        String what;
        if (silent || defer) {
            WorkRequest first = postOne(x, l, call, silent ? NdkOpFlags.SILENT_SUCCESS : NdkOpFlags.DEFER, n, a, b);
            WrOutcome last = x.t.complete(postOne(x, l, call, 0, n, a, b));
            x.s.drain(l.target().cq());
            outcomes.add(silent ? silentOutcome(first) : x.t.complete(first));
            outcomes.add(last);
            what = q + ": " + first.detail() + " then " + last.call();
        } else {
            WrOutcome o = x.t.complete(postOne(x, l, call, flags, n, a, b));
            outcomes.add(o);
            what = q + ": " + o.call();
        }
        String rule = call.rule(phase);
        boolean moved = false;
        boolean movedByEntry = false;
        for (WrOutcome o : outcomes) {
            movedByEntry |= o.succeeded() && o.entry() != null;
            if (allowed == Allowed.SUCCEED && !o.succeeded()) {
                throw Violations.of(rule, what, "STATUS_SUCCESS: the model requires this request in phase " + phase + " to work", o.describe());
            }
            if (allowed == Allowed.FAIL && o.succeeded()) {
                throw Violations.of(rule, what, "an error: the model requires this request in phase " + phase + " to fail", "it succeeded");
            }
            moved |= o.succeeded();
        }
        if (moved && peerRecv != null) {
            WrOutcome ro = x.t.complete(peerRecv);
            if (!ro.succeeded() || Integer.toUnsignedLong(ro.entry().bytesTransferred()) != n) {
                throw Violations.of("CQ-6", what + "; the peer's receive " + ro.call(), "STATUS_SUCCESS with BytesTransferred " + n,
                        ro.describe() + (ro.entry() == null ? "" : ", BytesTransferred " + Integer.toUnsignedLong(ro.entry().bytesTransferred())));
            }
        }
        if (moved && !movedByEntry && !java.util.Arrays.equals(dst.buffer().read(dstAt, n), data)) {
            // only the SILENT_SUCCESS request can have moved the bytes (no entry: success), yet they are not there: it
            // failed without the error entry RW-5 requires
            throw Violations.of("RW-5", what, "a CQ entry with an error status for the request with SILENT_SUCCESS that did not move its "
                    + n + " byte(s) (model: " + allowed + " in phase " + phase + ")", "no CQ entry, and the bytes are not there");
        }
        if (moved && (call != QpCall.SEND || peerRecv != null)) {
            dst.buffer().expectWrite(dstAt, data);
        } else if (!moved && allowed == Allowed.EITHER) {
            // the pages do not say whether a failed request (after a flush, with the peer's end closed) placed some of its
            // bytes: each byte of its sink is its old value or the request's own, never anything else
            byte[] now = dst.buffer().read(dstAt, n);
            for (int i = 0; i < n; i++) {
                if (now[i] != old[i] && now[i] != data[i]) {
                    throw Violations.of("SEC-1", what, "each byte of the sink either unchanged or the request's own",
                            "byte " + i + " is " + (now[i] & 0xFF) + " (old " + (old[i] & 0xFF) + ", the request's " + (data[i] & 0xFF) + ")");
                }
            }
            dst.buffer().acceptActual(dstAt, n);
        }
        x.s.checkMemory(rule, what + " (model: " + allowed + " in phase " + phase + ")");
    }

    /**
     * The outcome of a request posted with SILENT_SUCCESS once a later request of its QP has completed and the QP's CQ
     * was drained: an inline error, an error entry, or (no entry) success; a success entry breaks RW-5.
     */
    private static WrOutcome silentOutcome(WorkRequest wr) {
        if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
            return new WrOutcome(wr::detail, wr.returned(), wr.returned(), null);
        }
        if (wr.entry() == null) {
            return new WrOutcome(wr::detail, wr.returned(), NtStatus.STATUS_SUCCESS, null);
        }
        if (NtStatus.STATUS_SUCCESS.equals(wr.entry().status())) {
            throw Violations.of("RW-5", wr.detail(), "no CQ entry for a request with SILENT_SUCCESS that succeeded",
                    "a CQ entry with STATUS_SUCCESS (RequestContext " + wr.context() + ")");
        }
        return new WrOutcome(wr::detail, wr.returned(), wr.entry().status(), wr.entry());
    }

    /**
     * RW-6 with DEFER: on a connected QP an NdkRead (with DEFER on NDKPI 1.2, so the provider may hold it back) of remote
     * bytes into a local slot, then an NdkWrite with READ_FENCE of that slot to another remote slot: the fence orders the
     * write after the read, so the write carries the bytes the read brought.
     */
    static final class FencedCopy implements Action.Independent<World> {
        private static List<ModelQp<Link, Recv>> connected(World w) {
            return w.qps.all().stream().filter(q -> q.phase() == QpPhase.CONNECTED).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !connected(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, SLOT), Arbitraries.integers().between(0, 15),
                    Arbitraries.integers().between(0, 7), Arbitraries.of(true, false)).as((pick, n, a, b, defer) ->
                    step("a read " + (defer ? "with DEFER " : "") + "then a write with READ_FENCE of the same " + n + " byte(s) (pick " + pick
                            + ", local slot " + a + ", remote slots " + b + " and " + (b + 8) + ")", x -> {
                        ModelQp<Link, Recv> q = MrModel.pick(connected(x), pick);
                        x.coverage.count(q.phase(), FenceCall.READ_THEN_FENCED_WRITE);
                        long la = (long) a * SLOT;
                        long from = (long) b * SLOT;
                        long to = (long) (b + 8) * SLOT;
                        byte[] data = SessionTools.complement(x.remote.buffer().expected(from, n));
                        x.remote.buffer().put(from, data);
                        int readFlags = defer && x.deferAllowed ? NdkOpFlags.DEFER : 0;
                        WorkRequest rd = x.t.read(q.handle().target(), new NdkSge[]{x.local.sge(la, n)}, x.remote.va() + from, x.remote.remoteToken(),
                                readFlags);
                        WorkRequest wr = x.t.write(q.handle().target(), new NdkSge[]{x.local.sge(la, n)}, x.remote.va() + to, x.remote.remoteToken(),
                                NdkOpFlags.READ_FENCE);
                        WrOutcome ro = x.t.complete(rd);
                        WrOutcome wo = x.t.complete(wr);
                        String what = q + ": " + ro.call() + " then " + wo.call();
                        if (!ro.succeeded() || !wo.succeeded()) {
                            throw Violations.of("RW-6", what, "STATUS_SUCCESS for both valid requests on a connected QP", ro.describe() + "; " + wo.describe());
                        }
                        x.local.buffer().expectWrite(la, data);
                        byte[] landed = x.remote.buffer().read(to, n);
                        if (!java.util.Arrays.equals(landed, data)) {
                            x.remote.buffer().acceptActual(to, n); // charged here, not again by the end-of-try memory check
                            throw Violations.of("RW-6", what, "the write, fenced after the read, carries the bytes the read brought",
                                    "the remote slot holds other bytes: the write ran before the read" + (readFlags != 0 ? " (held back with DEFER)" : ""));
                        }
                        x.remote.buffer().expectWrite(to, data);
                        x.s.checkMemory("RW-6", what);
                    }));
        }
    }

    /** The fenced pair of {@link FencedCopy}, as counted in the coverage. */
    enum FenceCall {
        /** An NdkRead, then an NdkWrite with READ_FENCE of its sink. */
        READ_THEN_FENCED_WRITE
    }

    /** An NdkReceive on a target-side QP into a free inbox slot. */
    static final class Receive implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && w.freeSlot() >= 0 && w.qps.eligible(QpCall.RECEIVE).stream().anyMatch(q -> q.pending().size() < MAX_PENDING);
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, SLOT)).as((pick, n) ->
                    step("post a receive of " + n + " byte(s) (pick " + pick + ")", x -> {
                        ModelQp<Link, Recv> q = MrModel.pick(x.qps.eligible(QpCall.RECEIVE).stream()
                                .filter(qq -> qq.pending().size() < MAX_PENDING).toList(), pick);
                        Allowed allowed = x.qps.calling(q, QpCall.RECEIVE);
                        int slot = x.freeSlot();
                        WorkRequest wr = x.t.receive(q.handle().target(), new NdkSge[]{x.inbox.sge((long) slot * SLOT, n)}, NdkOperationType.RECEIVE);
                        if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                            if (allowed == Allowed.SUCCEED) {
                                throw Violations.of(QpCall.RECEIVE.rule(q.phase()), q + ": " + wr.detail(), "STATUS_SUCCESS", "returned " + wr.returned());
                            }
                            return;
                        }
                        x.slotsInUse[slot] = true;
                        x.qps.posted(q, new Recv(wr, slot, n));
                    }));
        }
    }

    /** The peer sends into a connected QP that has receives pending: one of them, any, takes the bytes. */
    static final class PeerSend implements Action.Independent<World> {
        private static List<ModelQp<Link, Recv>> ready(World w) {
            return w.qps.all().stream().filter(q -> q.phase() == QpPhase.CONNECTED && !q.pending().isEmpty()).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !ready(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, SLOT), Arbitraries.integers().between(0, 15)).as((pick, nSeed, b) ->
                    step("the peer sends up to " + nSeed + " byte(s) into a pending receive (pick " + pick + ")", x -> {
                        ModelQp<Link, Recv> q = MrModel.pick(ready(x), pick);
                        x.coverage.count(q.phase(), QpCall.RECEIVE);
                        int n = q.pending().stream().mapToInt(Recv::n).min().orElseThrow(); // fits every pending receive
                        n = Math.min(n, nSeed);
                        long at = (long) b * SLOT;
                        byte[] data = SessionTools.complement(x.remote.buffer().expected(at, n));
                        x.remote.buffer().put(at, data);
                        WrOutcome so = x.t.complete(x.t.send(q.handle().peer(), new NdkSge[]{x.remote.sge(at, n)}, 0));
                        String what = "the peer's " + so.call() + " to " + q;
                        if (!so.succeeded()) {
                            throw Violations.of("SND-2", what, "STATUS_SUCCESS: a receive is pending on the connected QP", so.describe());
                        }
                        Recv got = landed(x, q, what);
                        WrOutcome ro = x.t.complete(got.wr());
                        if (!ro.succeeded() || Integer.toUnsignedLong(ro.entry().bytesTransferred()) != n) {
                            throw Violations.of("CQ-6", what + ": " + ro.call(), "STATUS_SUCCESS with BytesTransferred " + n, ro.describe());
                        }
                        x.inbox.buffer().expectWrite((long) got.slot() * SLOT, data);
                        x.slotsInUse[got.slot()] = false;
                        x.qps.matched(q, got);
                        x.s.checkMemory("CQ-6", what + " (landed in the receive of slot " + got.slot() + ")");
                    }));
        }

        /** Polls the QP's receive CQ until one pending receive has its entry (the model accepts any of them). */
        private static Recv landed(World x, ModelQp<Link, Recv> q, String what) {
            long start = System.nanoTime();
            while (true) {
                x.s.drain(q.handle().target().receiveCq());
                if (q.handle().target().cq() != q.handle().target().receiveCq()) {
                    x.s.drain(q.handle().target().cq());
                }
                for (Recv r : q.pending()) {
                    if (r.wr().entry() != null) {
                        return r;
                    }
                }
                if (x.s.bounds().completionExpired(start)) { // marks the try as ended by a time bound: not shrunk
                    throw Violations.of("CQ-6", what, "an entry for one of the " + q.pending().size() + " pending receives",
                            "none within the completion bound");
                }
                Thread.onSpinWait();
            }
        }
    }

    /** NdkFlush of a QP in any phase but closed: every pending receive completes with STATUS_CANCELLED (FL-1). */
    static final class Flush implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && !w.qps.eligible(QpCall.FLUSH).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("flush a QP (pick " + pick + ")", x -> {
                ModelQp<Link, Recv> q = MrModel.pick(x.qps.eligible(QpCall.FLUSH), pick);
                x.qps.calling(q, QpCall.FLUSH);
                String before = q.toString();
                x.s.invoker().run("NdkFlush", () -> "NdkFlush(" + before + ")", () -> q.handle().target().qp().flush());
                for (Recv r : q.pending()) {
                    NtStatus st = x.t.awaitEntry(r.wr(), "FL-1", "a CQ entry with STATUS_CANCELLED for the receive pending at NdkFlush");
                    if (!NtStatus.STATUS_CANCELLED.equals(st)) {
                        throw Violations.of("FL-1", "NdkFlush(" + before + "), then its pending " + r.wr().detail(), "STATUS_CANCELLED", String.valueOf(st));
                    }
                    x.slotsInUse[r.slot()] = false;
                }
                x.qps.flushed(q);
                x.s.checkMemory("FL-1", "NdkFlush(" + before + ")");
            }));
        }
    }

    /** Closes the peer's end of a connected (or flushed) pair. */
    static final class ClosePeer implements Action.Independent<World> {
        private static List<ModelQp<Link, Recv>> withPeer(World w) {
            return w.qps.eligible(QpCall.CLOSE_PEER).stream().filter(q -> q.handle().peer() != null).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !withPeer(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("close the peer's end of a QP (pick " + pick + ")", x -> {
                ModelQp<Link, Recv> q = MrModel.pick(withPeer(x), pick);
                x.qps.calling(q, QpCall.CLOSE_PEER);
                x.t.closeAndWait(q.handle().peer().qp());
                x.qps.peerClosed(q);
            }));
        }
    }

    /** NdkCloseQp of a target-side QP in any phase: every pending receive completes once, with an error (CL-5). */
    static final class CloseQp implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && !w.qps.eligible(QpCall.CLOSE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("close a QP (pick " + pick + ")", x -> {
                ModelQp<Link, Recv> q = MrModel.pick(x.qps.eligible(QpCall.CLOSE), pick);
                x.qps.calling(q, QpCall.CLOSE);
                String before = q.toString();
                x.t.closeAndWait(q.handle().target().qp());
                for (Recv r : q.pending()) {
                    NtStatus st = x.t.awaitEntry(r.wr(), "CL-5", "a CQ entry for the receive pending at NdkCloseQp");
                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                        throw Violations.of("CL-5", "NdkCloseQp(" + before + "), then its pending " + r.wr().detail(),
                                "an error (usually STATUS_CANCELLED): no send matched it", "STATUS_SUCCESS");
                    }
                    x.slotsInUse[r.slot()] = false;
                }
                x.qps.closed(q);
                x.s.checkMemory("CL-5", "NdkCloseQp(" + before + ")");
            }));
        }
    }

    /** NdkBuildLam over a fresh buffer (1 or 2 pages, any FBO), described by one MDL or a chain of two. */
    static final class BuildLam implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && w.lams.live().size() < MAX_LAMS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.doubles().between(0, 1),
                    Arbitraries.of(false, true)).as((pages, fb, chained) ->
                    step("build a LAM over " + pages + " page(s) (FBO " + String.format("%.3f", fb) + " of a page, "
                            + (chained ? "a chain of two MDLs" : "one MDL") + ")", x -> {
                        int p = x.s.pageSize();
                        int fbo = (int) (fb * (p - 1));
                        var buffer = x.s.allocate(pages);
                        long length = (long) pages * p - fbo;
                        long va = x.t.freshVa() + fbo;
                        org.ndktck.spec.Mdl mdl;
                        if (chained && length >= 2) {
                            // the second MDL starts at the first's page end (two pages) or inside the page (one page)
                            int first = pages == 2 ? p - fbo : (int) (length / 2);
                            mdl = buffer.mdl(va, 0, first);
                            mdl.setNext(buffer.mdl(va + first, pages == 2 ? 1 : 0, (int) (length - first)));
                        } else {
                            mdl = buffer.mdl(va, 0, (int) length);
                        }
                        x.lams.calling(LamModel.LamPhase.LIVE, LamModel.LamCall.BUILD);
                        var lam = x.s.buildLam(mdl, length);
                        x.lams.built(new BuiltLam(buffer, lam, length));
                    }));
        }
    }

    /** NdkReleaseLam of any live LAM (not only the newest). */
    static final class ReleaseLam implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && !w.lams.live().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("release a LAM (pick " + pick + ")", x -> {
                BuiltLam l = MrModel.pick(x.lams.live(), pick);
                x.lams.calling(LamModel.LamPhase.LIVE, LamModel.LamCall.RELEASE);
                x.t.releaseLam(l.lam().mapping());
                x.lams.released(l);
            }));
        }
    }

    /**
     * The target reads the peer's bytes into an SGE with the PD's privileged token at the first logical address of a
     * live LAM (it must land in the LAM's pages: PRIV-1, on an adapter with RDMA_READ_SINK_NOT_REQUIRED; without it a
     * failure is allowed, PRIV-3) or of a released one (the unspecified mode: it may fail or
     * succeed, but no byte of the released pages changes: SEC-1).
     */
    static final class PrivilegedRead implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && (!w.lams.live().isEmpty() || !w.lams.released().isEmpty());
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, SLOT)).as((pick, nSeed) ->
                    step("a privileged-token read into a live or released LAM (pick " + pick + ", " + nSeed + " byte(s))", x -> {
                        List<BuiltLam> all = new ArrayList<>(x.lams.live());
                        all.addAll(x.lams.released());
                        BuiltLam l = MrModel.pick(all, pick);
                        boolean live = x.lams.live().contains(l);
                        x.lams.calling(live ? LamModel.LamPhase.LIVE : LamModel.LamPhase.RELEASED, LamModel.LamCall.PRIVILEGED_ACCESS);
                        if (x.privilegedToken == 0) {
                            x.privilegedToken = x.t.privilegedToken(x.s.target().pd());
                        }
                        int n = (int) Math.min(nSeed, Math.min(l.length(), x.s.pageSize() - l.lam().fbo()));
                        byte[] data = SessionTools.complement(x.remote.buffer().expected(0, n));
                        x.remote.buffer().put(0, data);
                        long address = l.lam().pages()[0] + l.lam().fbo();
                        WrOutcome o = x.t.complete(x.t.read(x.t.target(), new NdkSge[]{new NdkSge(address, n, x.privilegedToken)},
                                x.remote.va(), x.remote.remoteToken(), 0));
                        String what = o.call() + " into " + (live ? "a live" : "a released") + " LAM's address with the privileged token " + u32(x.privilegedToken);
                        // an NdkRead's sink at a LAM address needs RDMA_READ_SINK_NOT_REQUIRED (PRIV-3): without it the read
                        // may fail, and only a success is judged
                        if (live && !o.succeeded() && x.s.readSinkNotRequired()) {
                            throw Violations.of("PRIV-1", what, "STATUS_SUCCESS: the privileged token reaches a live LAM's pages", o.describe());
                        }
                        if (live && o.succeeded()) {
                            l.buffer().expectWrite(l.lam().fbo(), data);
                        }
                        x.s.checkMemory(live ? "PRIV-1" : "SEC-1", what);
                    }));
        }
    }

    /** Both CQ getters on the session's target CQ: with nothing outstanding the model allows no entry. */
    static final class PollCq implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return true;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.of(true, false).map(ex -> step("poll the target's CQ with " + (ex ? "NdkGetCqResultsEx" : "NdkGetCqResults"), x -> {
                x.coverage.count(CqState.OPEN, ex ? CqCall.GET_RESULTS_EX : CqCall.GET_RESULTS);
                if (ex) {
                    x.s.drain(x.s.target().cq());
                } else {
                    x.s.drainPlain(x.s.target().cq());
                }
            }));
        }
    }

    /** The two CQ getters, as counted in the coverage. */
    enum CqCall {
        /** NdkGetCqResults. */
        GET_RESULTS,
        /** NdkGetCqResultsEx. */
        GET_RESULTS_EX
    }

    /** The CQ's state as counted in the coverage (the chain polls only an open CQ: CL-3). */
    enum CqState {
        /** Open. */
        OPEN
    }

    @Provide
    Arbitrary<ActionChain<World>> chains() {
        return ActionChain.startWith(() -> new World(SESSION.get()))
                .withAction(3, new Connect())
                .withAction(2, new CreateUnconnected())
                .withAction(3, new Post(QpCall.WRITE))
                .withAction(3, new Post(QpCall.READ))
                .withAction(3, new Post(QpCall.SEND))
                .withAction(3, new Receive())
                .withAction(2, new FencedCopy())
                .withAction(3, new PeerSend())
                .withAction(2, new Flush())
                .withAction(1, new ClosePeer())
                .withAction(1, new CloseQp())
                .withAction(2, new BuildLam())
                .withAction(2, new ReleaseLam())
                .withAction(2, new PrivilegedRead())
                .withAction(1, new PollCq())
                .withMaxTransformations(TckConfig.current().profile().size(24));
    }

    /** @return every (phase, call) pair of QPs and LAMs the model allows the chain to make */
    static Set<String> allowedPairs() {
        Set<String> all = new TreeSet<>();
        for (QpCall c : QpCall.values()) {
            for (QpPhase p : c.phases()) {
                all.add(Coverage.name(p, c));
            }
        }
        for (LamModel.LamCall c : LamModel.LamCall.values()) {
            all.add(Coverage.name(LamModel.LamPhase.LIVE, c));
        }
        all.add(Coverage.name(LamModel.LamPhase.RELEASED, LamModel.LamCall.PRIVILEGED_ACCESS));
        all.add(Coverage.name(QpPhase.CONNECTED, FenceCall.READ_THEN_FENCED_WRITE));
        for (CqCall c : CqCall.values()) {
            all.add(Coverage.name(CqState.OPEN, c));
        }
        return all;
    }

    /**
     * Every call on QPs in every phase, LAMs and CQs follows the model: requests the pages require to work move
     * exactly their bytes (RW-5 for writes, RW-3 for reads, SND-2 and CQ-6 for sends and receives), requests on an
     * unconnected QP fail (RW-2, SND-1), a flush cancels every pending receive (FL-1), a close completes them (CL-5),
     * the privileged token reaches a live LAM's pages (PRIV-1), and in the unspecified mode (after a flush, with the
     * peer's end closed, at a released LAM's address) nothing is exposed (SEC-1).
     */
    @Property(tries = TRIES)
    @org.ndktck.tck.harness.LeastTries(120)
    @Tag("SEC-1")
    @Tag("FL-1")
    @Tag("CL-5")
    @Tag("RW-2")
    @Tag("RW-6")
    @Tag("RW-5")
    @Tag("PRIV-1")
    void everyCallInEveryStateFollowsTheModel(@ForAll("chains") ActionChain<World> chain) {
        World[] chainEnd = new World[1];
        try (NdkSession s = NdkSession.open()) {
            SESSION.set(s);
            World[] end = chainEnd;
            try {
                chain.peek(w -> end[0] = w).run();
                if (end[0] != null) {
                    end[0].coverage.pairs().keySet().forEach(pair -> Statistics.label(PAIRS).collect(pair));
                    if (end[0].tainted) {
                        Statistics.label(PAIRS).collect(REFUSED);
                    }
                }
            } catch (AssertionError e) {
                throw ModelFailures.withSteps(e, chain.transformations());
            } finally {
                SESSION.remove();
                if (end[0] != null) {
                    end[0].t.close();
                    if (end[0].tainted) {
                        forgetBytes(end[0]); // what a refused step left in flight has landed by now
                    }
                }
            }
        }
        boolean cut = chainEnd[0] != null && chainEnd[0].tainted;
        requireEveryPair(chain.transformations().size(), cut);
        STEP_MIX.count(chain.transformations(), cut);
    }

    /** The statistics value of a try whose chain was cut short by an allowed refusal. */
    static final String REFUSED = "a step refused for lack of resources";

    /** Tries at the standard profile. */
    static final int TRIES = 60;

    /**
     * Requires, at every profile, that the run reached every (phase, call) pair the model allows (a chain that stops
     * reaching a state fails instead of turning silently green), once the chains ran as many steps as
     * {@value #TRIES} chains of 24 steps (the standard profile's: {@link #PAIR_STEPS}); {@code @LeastTries(120)} gives
     * the smoke profile's chains of 12 steps that many. For a provider that refused a call for lack of resources the
     * claim is waived (which pairs its chains reach follows its refusals); the step mix is still demanded.
     *
     * @param steps        the steps this chain ran
     * @param cutByRefusal whether an allowed refusal ended it
     */
    private static void requireEveryPair(int steps, boolean cutByRefusal) {
        CurrentProperty.Info info = CurrentProperty.get();
        if (info == null) {
            return;
        }
        int[] tally = PAIR_TALLY.get();
        if (PAIR_OWNER.get() != info) {
            PAIR_OWNER.set(info);
            tally[0] = 0;
            tally[1] = 0;
        }
        tally[0] += steps;
        tally[1] |= cutByRefusal ? 1 : 0;
        // narrowed for a provider that refuses: which pairs its chains reach then follows its refusals (a refused step
        // taints the chain), so the claim is waived, as in the MR chains; the step mix (STEP_MIX) is still demanded
        if (tally[1] != 0 || org.ndktck.tck.harness.Refusals.count() > 0 || org.ndktck.tck.harness.Refusals.limitNote() != null) {
            PAIR_WAIVED.get()[0] = info;
        }
        CurrentProperty.Info[] waived = PAIR_WAIVED.get();
        // the smoke profile's chains are half as long (12 steps): the deepest pairs (a close after the peer closed) come
        // too seldom in its steps to be demanded; the standard profile's chains reach every pair and are held to it
        boolean smoke = org.ndktck.tck.harness.TckConfig.current().profile() == org.ndktck.tck.harness.TckConfig.Profile.SMOKE;
        CoverageClaims.demand(PAIRS, allowedPairs(), () -> tally[0], PAIR_STEPS, "steps", () -> null, () -> waived[0] == info || smoke);
    }

    /** Statistics label of the (phase, call) pairs the chains reached: a claim ({@link #requireEveryPair}). */
    static final String PAIRS = "model (state, call)";

    /** Steps after which every allowed (phase, call) pair is demanded: the standard profile's chains. */
    static final int PAIR_STEPS = TRIES * 24;

    private static final ThreadLocal<int[]> PAIR_TALLY = ThreadLocal.withInitial(() -> new int[2]);
    private static final ThreadLocal<CurrentProperty.Info> PAIR_OWNER = new ThreadLocal<>();
    private static final ThreadLocal<CurrentProperty.Info[]> PAIR_WAIVED = ThreadLocal.withInitial(() -> new CurrentProperty.Info[1]);

    /**
     * The step mix claim: every action of {@link #chains()} ran, by the start of its steps' descriptions, with its
     * weight there (the rarest, 1 of 33, needs {@link CoverageClaims#leastSteps} = 537 steps, 45 chains of 12 steps at
     * the smoke profile; the pair claim's 120 tries run more).
     */
    static final StepClaims STEP_MIX = new StepClaims(java.util.Map.ofEntries(
            java.util.Map.entry("connect a new pair of QPs", 3), java.util.Map.entry("create an unconnected QP", 2),
            java.util.Map.entry(QpCall.WRITE + " of ", 3), java.util.Map.entry(QpCall.READ + " of ", 3),
            java.util.Map.entry(QpCall.SEND + " of ", 3), java.util.Map.entry("post a receive", 3),
            java.util.Map.entry("a read ", 2), java.util.Map.entry("the peer sends", 3), java.util.Map.entry("flush a QP", 2),
            java.util.Map.entry("close the peer's end of a QP", 1), java.util.Map.entry("close a QP", 1),
            java.util.Map.entry("build a LAM", 2), java.util.Map.entry("release a LAM", 2),
            java.util.Map.entry("a privileged-token read", 2), java.util.Map.entry("poll the target's CQ", 1)));
}
