package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.model.Allowed;
import org.ndktck.tck.model.ModelQp;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.QpCall;
import org.ndktck.tck.model.QpPhase;
import org.ndktck.tck.properties.ModelChainWorld.World;
import org.ndktck.tck.properties.ModelChainWorld.Link;
import org.ndktck.tck.properties.ModelChainWorld.Recv;

import java.util.List;

import static org.ndktck.tck.properties.ModelChainWorld.MAX_PENDING;
import static org.ndktck.tck.properties.ModelChainWorld.MAX_QPS;
import static org.ndktck.tck.properties.ModelChainWorld.PICKS;
import static org.ndktck.tck.properties.ModelChainWorld.SLOT;
import static org.ndktck.tck.properties.ModelChainWorld.step;

/**
 * The adapter-model chain's QP life-cycle steps ({@link AdapterModelChainProperties}): connect, create an unconnected
 * QP, post receives, the peer's sends into them, flush, close the peer's end, close the QP; each judged by the model
 * ({@link QpCall#allowed}).
 */
final class ModelChainQpSteps {
    private ModelChainQpSteps() {
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

}
