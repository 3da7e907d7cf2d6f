package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.AsyncOp;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.KitSetupError;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.RequestContext;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.model.AccessKind;
import org.ndktck.tck.model.Grant;
import org.ndktck.tck.model.Judgement;
import org.ndktck.tck.model.ModelMr;
import org.ndktck.tck.model.ModelPd;
import org.ndktck.tck.model.MrCall;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.PdCall;
import org.ndktck.tck.model.PdPhase;
import org.ndktck.tck.model.Revoked;
import org.ndktck.tck.properties.ModelChainWorld.World;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.bytes;
import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;
import static org.ndktck.tck.properties.ModelChainWorld.PICKS;
import static org.ndktck.tck.properties.ModelChainWorld.step;

/**
 * The adapter-model chain's PD steps ({@link AdapterModelChainProperties}): the chain's own PDs, their MRs (normal,
 * one page, remote read and write), their QPs (each on a CQ of its own, connected to a QP of the peer's PD) and those
 * CQs, created and closed in every order the pages allow, judged by the model ({@link org.ndktck.tck.model.PdModel}
 * and one {@link MrModel} a PD).
 *
 * <ul>
 *   <li>NdkClosePd while an MR or a QP of the PD is open returns STATUS_PENDING, and its callback comes only after
 *       the last child has closed (CL-6). Until then the PD's MRs keep granting what they granted through its QPs: an
 *       access that succeeds but moved other bytes than its own loses data and FAILs CL-6; one that fails is ADVISORY
 *       (that the MRs keep working is the kit's reading of "the provider must not close the PD"; the page lets the
 *       close have side effects), and a failed access changes no byte. Calls on the children of a closing PD may be
 *       refused (CL-7): a refused NdkDeregisterMr leaves the MR out of further judging.</li>
 *   <li>After every step in which the peer accesses a PD's MR, the token of a deregistered or closed MR of that PD
 *       reaches nothing (MR-DEREG-3, SEC-1): the access fails and no byte of its old buffer changes.</li>
 *   <li>A QP's CQ is closed only after that QP (the pages do not say whether a CQ may close before its QPs, so the
 *       model does not make that call), in any order relative to the PD's close.</li>
 * </ul>
 */
final class ModelChainPdSteps {
    private ModelChainPdSteps() {
    }

    /** The most PDs of the chain's own at once. */
    static final int MAX_PDS = 2;
    /** The most MRs (and, separately, QPs) of one PD at once. */
    static final int MAX_CHILDREN = 2;

    /** A chain's own PD, its open QPs, and its close once requested. */
    static final class ChildPd {
        final NdkPd pd;
        final List<ChildConn> conns = new ArrayList<>();
        /** NdkClosePd once called (STATUS_PENDING while children are open), else null. */
        AsyncOp<NdkMr> close;
        /** The PD's close has completed. */
        boolean gone;

        ChildPd(NdkPd pd) {
            this.pd = pd;
        }
    }

    /**
     * A QP of a chain's own PD connected to a QP of the peer's PD.
     *
     * @param target the QP of the chain's PD (on its own CQ)
     * @param peer   the peer's QP (the peer's PD, the session's peer CQ): the peer's accesses are posted on it
     * @param cq     the CQ of {@code target}
     */
    record ChildConn(QpRef target, QpRef peer, NdkCq cq) {
    }

    /**
     * The CQ of a closed QP of a chain's PD, still open.
     *
     * @param cq the CQ
     * @param pd the PD of the QP that used it
     */
    record SpareCq(NdkCq cq, ModelPd<ChildPd> pd) {
    }

    /** The phase in which a CQ is closed after its QP's PD has closed (the model's PDs then are gone). */
    enum PdGone {
        /** The PD's close completed. */
        CLOSED
    }

    /** NdkCreatePd: a PD of the chain's own. */
    static final class CreatePd implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && w.pds.all().size() < MAX_PDS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.just(step("create a chain PD", x -> x.pds.created(new ChildPd(x.t.createPd()))));
        }
    }

    /** NdkCreateMr and NdkRegisterMr on an open PD of the chain's own: one page, any offset and Length. */
    static final class RegisterOnPd implements Action.Independent<World> {
        private static List<ModelPd<ChildPd>> roomy(World w) {
            return w.pds.eligible(PdCall.REGISTER_MR).stream().filter(pd -> pd.mrs().all().size() < MAX_CHILDREN).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !roomy(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1)).as((pick, of, f) ->
                    step("register an MR on a chain PD (pick " + pick + ", offset " + String.format("%.3f", of) + " of a page, Length "
                            + String.format("%.3f", f) + " of the room)", x -> {
                        ModelPd<ChildPd> pd = MrModel.pick(roomy(x), pick);
                        x.pds.calling(pd, PdCall.REGISTER_MR);
                        NdkMr mr = x.t.createMrUnlessRefused(pd.handle().pd, false);
                        if (mr == null) {
                            return; // an allowed refusal: the PD has no new child
                        }
                        ModelMr m = pd.mrs().created(mr, false);
                        pd.mrs().calling(m, MrCall.REGISTER);
                        int p = x.s.pageSize();
                        int off = (int) (of * (p - 1));
                        long length = Math.max(1, (long) (f * (p - off)));
                        HostBuffer b = x.s.allocate(1);
                        Mdl mdl = b.mdl(x.t.freshVa() + off, 0, (int) length);
                        int flags = NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE;
                        Outcome o = x.s.register(mr, mdl, length, flags);
                        if (Refusals.isAllowedRefusal(o.status())) {
                            return; // the MR stays new (a child of the PD all the same)
                        }
                        SectionChecks.requireRegistered(x.s, o);
                        int token = x.s.remoteToken(mr);
                        pd.mrs().registered(m, new Grant(new Region(b, off, mdl.virtualAddress(), length, token), x.s.localToken(mr),
                                true, true, true, false, false, o.call() + " on " + pd));
                    }));
        }
    }

    /** A QP of an open PD of the chain's own, on a new CQ, connected to a new QP of the peer's PD. */
    static final class ConnectOnPd implements Action.Independent<World> {
        private static List<ModelPd<ChildPd>> roomy(World w) {
            return w.pds.eligible(PdCall.CONNECT_QP).stream().filter(pd -> pd.openQps() < MAX_CHILDREN).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !roomy(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("connect a QP of a chain PD (pick " + pick + ")", x -> {
                ModelPd<ChildPd> pd = MrModel.pick(roomy(x), pick);
                x.pds.calling(pd, PdCall.CONNECT_QP);
                NdkCq cq = x.t.createCq(16);
                QpRef a = x.t.createQp(pd.handle().pd, cq, new RequestContext("QPContext of a QP of " + pd), "QP of PD#" + pd.id(), 0);
                QpRef b = x.t.createQp(x.s.peer().pd(), x.s.peer().cq(), new RequestContext("QPContext of the peer of a QP of PD#" + pd.id()),
                        "peer of a QP of PD#" + pd.id(), 0);
                NtStatus st = x.s.invoker().call("connectLoopback", () -> "connectLoopback(QP of PD#" + pd.id() + ", peer QP)",
                        () -> x.s.adapter().connectLoopback(a.qp(), b.qp()));
                if (!NtStatus.STATUS_SUCCESS.equals(st)) {
                    throw new KitSetupError("connectLoopback(QP of PD#" + pd.id() + ", peer QP)", String.valueOf(st));
                }
                pd.handle().conns.add(new ChildConn(a, b, cq));
                x.pds.qpOpened(pd);
            }));
        }
    }

    /** The registrations of a PD's MRs an access may name now: live ones, and ended ones whose token no live one has. */
    private static List<Object> targets(ModelPd<ChildPd> pd, boolean live) {
        if (live) {
            return new ArrayList<>(pd.mrs().lives());
        }
        List<Object> ended = new ArrayList<>();
        for (Revoked r : pd.mrs().revoked()) {
            // a provider may issue an ended registration's token value again (MR-TOK-6 asks uniqueness among live ones)
            if (pd.mrs().lives().stream().noneMatch(m -> m.grant().remoteToken() == r.grant().remoteToken())) {
                ended.add(r);
            }
        }
        return ended;
    }

    private static List<ModelPd<ChildPd>> accessible(World w, boolean live) {
        return w.pds.eligible(live ? PdCall.ACCESS_LIVE : PdCall.ACCESS_ENDED).stream()
                .filter(pd -> !pd.handle().conns.isEmpty() && !targets(pd, live).isEmpty()).toList();
    }

    /**
     * The peer reads or writes through the remote token of a live, deregistered or closed MR of a PD of the chain's own
     * (open or closing), over a QP of that PD.
     */
    static final class AccessOnPd implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && (!accessible(w, true).isEmpty() || !accessible(w, false).isEmpty());
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, PICKS, Arbitraries.of(true, false), Arbitraries.of(true, false), Arbitraries.doubles().between(0, 1),
                    Arbitraries.integers().between(1, 48)).as((pick, via, liveSeed, write, kf, nSeed) ->
                    step("peer access through a token of a chain PD (" + (write ? "a write" : "a read") + ", pick " + pick + ", QP " + via + ", "
                            + nSeed + " byte(s))", x -> {
                        boolean live = accessible(x, false).isEmpty() || (liveSeed && !accessible(x, true).isEmpty());
                        ModelPd<ChildPd> pd = MrModel.pick(accessible(x, live), pick);
                        x.pds.calling(pd, live ? PdCall.ACCESS_LIVE : PdCall.ACCESS_ENDED);
                        access(x, pd, MrModel.pick(pd.handle().conns, via), MrModel.pick(targets(pd, live), pick), write, kf, nSeed);
                    }));
        }
    }

    private static Registered peerScratch(World x) {
        if (x.peerScratch == null) {
            x.peerScratch = x.t.registered(x.s.peer(), 1, 0, x.s.pageSize(), NdkMrFlags.ALLOW_LOCAL_WRITE | x.t.readSinkFlag());
        }
        return x.peerScratch;
    }

    private static void access(World x, ModelPd<ChildPd> pd, ChildConn c, Object tg, boolean write, double kf, int nSeed) {
        requireNotClosedEarly(pd, "an access through a token of its MR");
        Grant g = tg instanceof ModelMr mm ? mm.grant() : ((Revoked) tg).grant();
        Revoked ended = tg instanceof Revoked rv ? rv : null;
        Region r = g.region();
        int n = (int) Math.min(nSeed, r.length());
        long k = (long) (kf * (r.length() - n));
        Judgement j = Judgement.of(g, ended, write ? AccessKind.REMOTE_WRITE : AccessKind.REMOTE_READ, k, n, x.s.readSinkNotRequired(), false);
        // while the PD's close pends, its MRs grant what they granted (CL-6): a refusal or wrong bytes are charged there
        String granted = pd.phase() == PdPhase.CLOSING ? "CL-6" : j.grantedRule();
        Registered scratch = peerScratch(x);
        long at = x.s.pageSize() / 2 - n / 2;
        long bufferOffset = r.bufferOffset() + k;
        byte[] data = SessionTools.complement(r.buffer().expected(bufferOffset, n));
        WrOutcome o;
        byte[] read = null;
        if (write) {
            scratch.buffer().put(at, data);
            o = x.t.complete(x.t.write(c.peer(), new NdkSge[]{scratch.sge(at, n)}, r.base() + k, r.remoteToken(), 0));
            if (o.succeeded() && j.allowed()) {
                r.buffer().expectWrite(bufferOffset, data);
            }
        } else {
            o = x.t.complete(x.t.read(c.peer(), new NdkSge[]{scratch.sge(at, n)}, r.base() + k, r.remoteToken(), 0));
            read = scratch.buffer().read(at, n);
            scratch.buffer().acceptActual(at, n);
        }
        String what = o.call() + " (" + (write ? "write" : "read") + " of " + n + " byte(s) at region byte " + u64(k) + " of "
                + (ended == null ? "the live " : "the " + ended.why() + " ") + r + " with token " + u32(r.remoteToken()) + ", over a QP of " + pd
                + ", made by " + g.what() + ")";
        if (j.allowed() && !o.succeeded()) {
            if (pd.phase() == PdPhase.CLOSING) {
                // the page binds the provider not to close the PD before its children; that its MRs keep granting until
                // then is the kit's reading (the page also lets a PD's close have side effects), so a refusal is
                // ADVISORY; a success that moved other bytes than its own loses data and FAILs below
                Violations.advisory("CL-6", what, "STATUS_SUCCESS: the PD's close pends until its MRs and QPs are closed; until then"
                        + " its MRs grant what they granted", o.describe());
                x.s.checkMemory("CL-6", what);
                return;
            }
            throw Violations.of(granted, what, "STATUS_SUCCESS: the model allows this access", o.describe());
        }
        if (!j.allowed() && o.succeeded()) {
            throw Violations.of(j.refusedRule(), what, "an error: the model forbids this access (" + j.why() + ")", "it succeeded");
        }
        if (!write && j.allowed()) {
            byte[] expected = r.buffer().expected(bufferOffset, n);
            if (!Arrays.equals(read, expected)) {
                throw Violations.of(granted, what, "the region's bytes " + bytes(expected), "read " + bytes(read));
            }
        }
        x.s.checkMemory(j.allowed() ? granted : j.refusedRule(), what);
    }

    /** CL-6: a PD whose close pends has not completed it while a child is open. */
    private static void requireNotClosedEarly(ModelPd<ChildPd> pd, String before) {
        AsyncOp<NdkMr> close = pd.handle().close;
        if (close != null && close.callbacks() > 0 && pd.hasChildren()) {
            throw Violations.of("CL-6", close.detail() + " of " + pd + ", then " + before,
                    "no close callback while an MR or a QP of the PD is open", "the PD's close callback has come");
        }
    }

    /** After a child of a closing PD closed: once it was the last, the PD's close completes (CL-6, CL-1). */
    private static void childClosed(World x, ModelPd<ChildPd> pd) {
        if (pd.phase() == PdPhase.CLOSING && !pd.hasChildren()) {
            x.t.finishClose(pd.handle().close);
            x.pds.closed(pd);
            pd.handle().gone = true;
        }
    }

    /** NdkDeregisterMr of a registered MR of a PD of the chain (open or closing). */
    static final class DeregisterOnPd implements Action.Independent<World> {
        private static List<ModelPd<ChildPd>> withRegistered(World w) {
            return w.pds.eligible(PdCall.DEREGISTER_MR).stream().filter(pd -> !pd.mrs().eligible(MrCall.DEREGISTER).isEmpty()).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !withRegistered(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("deregister an MR of a chain PD (pick " + pick + ")", x -> {
                ModelPd<ChildPd> pd = MrModel.pick(withRegistered(x), pick);
                x.pds.calling(pd, PdCall.DEREGISTER_MR);
                requireNotClosedEarly(pd, "NdkDeregisterMr of its MR");
                ModelMr m = MrModel.pick(pd.mrs().eligible(MrCall.DEREGISTER), pick);
                pd.mrs().calling(m, MrCall.DEREGISTER);
                Outcome o = x.s.deregister(m.mr());
                if (Refusals.isAllowedRefusal(o.status())) {
                    pd.mrs().unsettle(m);
                    return;
                }
                if (!o.succeeded() && pd.phase() == PdPhase.CLOSING) {
                    // a provider may refuse calls under a PD whose close was requested (CL-7): the MR's registration is
                    // then not known to have ended, and no access through it is judged again
                    pd.mrs().unsettle(m);
                    return;
                }
                if (!o.succeeded()) {
                    throw Violations.of("MR-DEREG-2", o.call() + " of " + m + " of " + pd, "STATUS_SUCCESS for a registered MR", o.describe());
                }
                pd.mrs().deregistered(m);
            }));
        }
    }

    /** NdkCloseMr of an MR of a PD of the chain (registered, deregistered or new). */
    static final class CloseMrOnPd implements Action.Independent<World> {
        private static List<ModelPd<ChildPd>> withMr(World w) {
            return w.pds.eligible(PdCall.CLOSE_MR).stream().filter(pd -> !pd.mrs().all().isEmpty()).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !withMr(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("close an MR of a chain PD (pick " + pick + ")", x -> {
                ModelPd<ChildPd> pd = MrModel.pick(withMr(x), pick);
                x.pds.calling(pd, PdCall.CLOSE_MR);
                requireNotClosedEarly(pd, "NdkCloseMr of its MR");
                ModelMr m = MrModel.pick(pd.mrs().all(), pick);
                pd.mrs().calling(m, MrCall.CLOSE);
                x.t.closeAndWait(m.mr());
                pd.mrs().closed(m);
                childClosed(x, pd);
            }));
        }
    }

    /** NdkCloseQp of a QP of a PD of the chain and of its peer QP; its CQ stays open. */
    static final class CloseQpOnPd implements Action.Independent<World> {
        private static List<ModelPd<ChildPd>> withQp(World w) {
            return w.pds.eligible(PdCall.CLOSE_QP).stream().filter(pd -> !pd.handle().conns.isEmpty()).toList();
        }

        @Override
        public boolean precondition(World w) {
            return !w.tainted && !withQp(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("close the QP of a chain PD (pick " + pick + ")", x -> {
                ModelPd<ChildPd> pd = MrModel.pick(withQp(x), pick);
                x.pds.calling(pd, PdCall.CLOSE_QP);
                requireNotClosedEarly(pd, "NdkCloseQp of its QP");
                ChildConn c = MrModel.pick(pd.handle().conns, pick);
                x.t.closeAndWait(c.target().qp());
                x.t.closeAndWait(c.peer().qp());
                pd.handle().conns.remove(c);
                x.pds.qpClosed(pd);
                x.spareCqs.add(new SpareCq(c.cq(), pd));
                childClosed(x, pd);
            }));
        }
    }

    /** NdkCloseCq of the CQ of a closed QP of a PD of the chain, before or after that PD's close. */
    static final class CloseCqOfPd implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && !w.spareCqs.isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("close the CQ of a closed QP of a chain PD (pick " + pick + ")", x -> {
                SpareCq c = MrModel.pick(x.spareCqs, pick);
                if (c.pd().handle().gone) {
                    x.coverage.count(PdGone.CLOSED, PdCall.CLOSE_CQ);
                } else {
                    x.pds.calling(c.pd(), PdCall.CLOSE_CQ);
                }
                x.t.closeAndWait(c.cq());
                x.spareCqs.remove(c);
            }));
        }
    }

    /**
     * NdkClosePd of an open PD of the chain: with an MR or a QP of it open the close must return STATUS_PENDING and call
     * back only after they are closed (CL-6); with none it completes inline or through its callback (CL-1).
     */
    static final class ClosePd implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && !w.pds.eligible(PdCall.CLOSE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("close a chain PD (pick " + pick + ")", x -> {
                ModelPd<ChildPd> pd = MrModel.pick(x.pds.eligible(PdCall.CLOSE), pick);
                x.pds.calling(pd, PdCall.CLOSE);
                String before = pd.toString();
                boolean children = pd.hasChildren();
                AsyncOp<NdkMr> op = x.t.startClose(pd.handle().pd, null);
                if (!children) {
                    x.t.finishClose(op);
                    x.pds.closed(pd);
                    pd.handle().gone = true;
                    return;
                }
                if (!op.returnedStatus().isPending()) {
                    throw Violations.of("CL-6", op.detail() + " of " + before, "STATUS_PENDING: an MR or a QP of the PD is open",
                            "returned " + op.returnedStatus());
                }
                pd.handle().close = op;
                x.pds.closing(pd);
                requireNotClosedEarly(pd, "nothing");
            }));
        }
    }

    /**
     * At the chain's end, after the session tools closed what the chain left open (children first): the close of every
     * PD still closing completes (CL-6, CL-1).
     *
     * @param w the chain's end state
     */
    static void finishClosingPds(World w) {
        for (ModelPd<ChildPd> pd : w.pds.all()) {
            if (pd.phase() == PdPhase.CLOSING) {
                w.t.finishClose(pd.handle().close);
                w.pds.closed(pd);
                pd.handle().gone = true;
            }
        }
    }

    /**
     * @return the (phase, call) pairs of the chain's PDs the model allows: every call in every phase it may be made in,
     *     and the close of a CQ after its QP's PD has closed
     */
    static java.util.Set<String> allowedPairs() {
        java.util.Set<String> all = new java.util.TreeSet<>();
        for (PdCall c : PdCall.values()) {
            for (PdPhase p : c.phases()) {
                all.add(org.ndktck.tck.model.Coverage.name(p, c));
            }
        }
        all.add(org.ndktck.tck.model.Coverage.name(PdGone.CLOSED, PdCall.CLOSE_CQ));
        return all;
    }
}
