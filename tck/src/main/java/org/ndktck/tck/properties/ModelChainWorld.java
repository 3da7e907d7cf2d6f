package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkVersion;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.model.Coverage;
import org.ndktck.tck.model.LamModel;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.PdModel;
import org.ndktck.tck.model.QpModel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The state of one adapter-model chain ({@link AdapterModelChainProperties}): its limits, the records of QPs, receives
 * and LAMs it made, the model they are judged by, and how a step runs (one batch of provider calls; an allowed refusal
 * taints the chain). Sizes are bytes.
 */
final class ModelChainWorld {
    private ModelChainWorld() {
    }

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
        /** The chain's own PDs, their MRs and QPs ({@link ModelChainPdSteps}). */
        final PdModel<ModelChainPdSteps.ChildPd> pds = new PdModel<>(coverage);
        /** CQs of closed QPs of the chain's PDs, still open. */
        final List<ModelChainPdSteps.SpareCq> spareCqs = new ArrayList<>();
        /** Peer side, made at the first access to a chain PD's MR: the source of the peer's writes, the sink of its reads. */
        Registered peerScratch;
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
    static final Arbitrary<Integer> PICKS = Arbitraries.integers().between(0, 15);

    /**
     * A step: its body runs in one batch of provider calls; an allowed refusal (lack of resources) ends it and what is in
     * memory then is what the kit expects.
     */
    static Transformer<World> step(String description, Consumer<World> body) {
        return Transformer.mutate(description, w -> w.s.invoker().batch("a step of the adapter-model chain", () -> {
            if (!Refusals.stepUnlessRefused(() -> body.accept(w))) {
                w.tainted = true;
                forgetBytes(w);
            }
            return null;
        }));
    }

    static void forgetBytes(World x) {
        for (Registered r : List.of(x.local, x.inbox, x.remote, x.peerInbox)) {
            r.buffer().acceptActual(0, (int) r.buffer().size());
        }
        List<BuiltLam> all = new ArrayList<>(x.lams.live());
        all.addAll(x.lams.released());
        for (BuiltLam l : all) {
            l.buffer().acceptActual(0, (int) l.buffer().size());
        }
        for (var pd : x.pds.all()) {
            for (var m : pd.mrs().lives()) {
                m.grant().region().buffer().acceptActual(0, (int) m.grant().region().buffer().size());
            }
            for (var r : pd.mrs().revoked()) {
                r.grant().region().buffer().acceptActual(0, (int) r.grant().region().buffer().size());
            }
        }
        if (x.peerScratch != null) {
            x.peerScratch.buffer().acceptActual(0, (int) x.peerScratch.buffer().size());
        }
    }

}
