package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Registered;
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

import java.util.ArrayList;
import java.util.List;

import static org.ndktck.tck.properties.ModelChainWorld.PICKS;
import static org.ndktck.tck.properties.ModelChainWorld.SLOT;
import static org.ndktck.tck.properties.ModelChainWorld.step;

/**
 * The adapter-model chain's data-path steps ({@link AdapterModelChainProperties}): NdkWrite, NdkRead and NdkSend with
 * every request flag the kit may set, judged by the model's allowed outcomes in the QP's phase, and the RW-6 fenced copy.
 */
final class ModelChainPosts {
    private ModelChainPosts() {
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
        if (call == QpCall.WRITE && (flags & NdkOpFlags.INLINE) != 0 && !outcomes.get(0).succeeded()) {
            // the NdkWrite page lists no NDK_OP_FLAG_INLINE, so a provider may refuse it. Refused inline, nothing moved and
            // the QP is as it was; refused with an error entry, the QP may have left its phase, so the chain stops judging
            if (outcomes.get(0).entry() != null) {
                dst.buffer().acceptActual(dstAt, n);
                x.tainted = true;
            }
            x.s.checkMemory(rule, what + " (INLINE refused)");
            return;
        }
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
     * bytes into a local slot, then a request with READ_FENCE that carries that slot: an NdkWrite to another remote slot,
     * or an NdkSend into a receive the peer posted first. The fence orders every later request after the read, whatever
     * its kind and whatever memory it names (NdkWrite and NdkSend pages), so the write or the send carries the bytes the
     * read brought. In half the steps (where the QP takes two SGEs) the fenced request's first SGE is one byte of another
     * registration (the inbox's last byte), so a provider that fences only behind reads into the memory of that first
     * SGE shows too.
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
                    Arbitraries.integers().between(0, 7), Arbitraries.of(true, false), Arbitraries.of(FenceCall.class),
                    Arbitraries.of(true, false)).as((pick, n, a, b, defer, fenced, lead) ->
                    step("a read " + (defer ? "with DEFER " : "") + "then " + (fenced == FenceCall.READ_THEN_FENCED_SEND
                            ? "a send with READ_FENCE" : "a write with READ_FENCE") + " of the same " + n + " byte(s) (pick " + pick
                            + (lead ? ", after one byte of another registration" : "") + " (pick " + pick
                            + ", local slot " + a + ", remote slots " + b + " and " + (b + 8) + ")", x -> {
                        ModelQp<Link, Recv> q = MrModel.pick(connected(x), pick);
                        x.coverage.count(q.phase(), fenced);
                        long la = (long) a * SLOT;
                        long from = (long) b * SLOT;
                        long to = (long) (b + 8) * SLOT;
                        boolean send = fenced == FenceCall.READ_THEN_FENCED_SEND;
                        Registered dst = send ? x.peerInbox : x.remote;
                        byte[] data = SessionTools.complement(x.remote.buffer().expected(from, n));
                        x.remote.buffer().put(from, data);
                        // the first SGE of the fenced request: a byte of another registration, where the QP takes two SGEs
                        boolean first = lead && Integer.toUnsignedLong(x.s.info().maxInitiatorRequestSge()) >= 2;
                        long leadAt = x.inbox.length() - 1;
                        byte[] sent = first ? concat(x.inbox.buffer().expected(leadAt, 1), data) : data;
                        NdkSge[] sgl = first ? new NdkSge[]{x.inbox.sge(leadAt, 1), x.local.sge(la, n)} : new NdkSge[]{x.local.sge(la, n)};
                        int readFlags = defer && x.deferAllowed ? NdkOpFlags.DEFER : 0;
                        WorkRequest recv = send ? x.t.receive(q.handle().peer(), new NdkSge[]{x.peerInbox.sge(to, sent.length)}, NdkOperationType.RECEIVE) : null;
                        WorkRequest rd = x.t.read(q.handle().target(), new NdkSge[]{x.local.sge(la, n)}, x.remote.va() + from, x.remote.remoteToken(),
                                readFlags);
                        WorkRequest wr = send
                                ? x.t.send(q.handle().target(), sgl, NdkOpFlags.READ_FENCE)
                                : x.t.write(q.handle().target(), sgl, x.remote.va() + to, x.remote.remoteToken(), NdkOpFlags.READ_FENCE);
                        WrOutcome ro = x.t.complete(rd);
                        WrOutcome wo = x.t.complete(wr);
                        WrOutcome rv = send ? x.t.complete(recv) : null;
                        String what = q + ": " + ro.call() + " then " + wo.call() + (rv == null ? "" : " into the peer's " + rv.call());
                        if (!ro.succeeded() || !wo.succeeded() || (rv != null && !rv.succeeded())) {
                            throw Violations.of("RW-6", what, "STATUS_SUCCESS for every valid request on a connected QP", ro.describe() + "; "
                                    + wo.describe() + (rv == null ? "" : "; " + rv.describe()));
                        }
                        x.local.buffer().expectWrite(la, data);
                        byte[] landed = dst.buffer().read(to, sent.length);
                        if (!java.util.Arrays.equals(landed, sent)) {
                            dst.buffer().acceptActual(to, sent.length); // charged here, not again by the end-of-try memory check
                            throw Violations.of("RW-6", what, "the " + (send ? "send" : "write") + ", fenced after the read, carries the bytes the read brought",
                                    (send ? "the peer's receive slot" : "the remote slot") + " holds other bytes: the " + (send ? "send" : "write")
                                    + " ran before the read" + (readFlags != 0 ? " (held back with DEFER)" : ""));
                        }
                        dst.buffer().expectWrite(to, sent);
                        x.s.checkMemory("RW-6", what);
                    }));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The fenced pair of {@link FencedCopy}, as counted in the coverage. */
    enum FenceCall {
        /** An NdkRead, then an NdkWrite with READ_FENCE of its sink. */
        READ_THEN_FENCED_WRITE,
        /** An NdkRead, then an NdkSend with READ_FENCE of its sink (into a receive the peer posted first). */
        READ_THEN_FENCED_SEND
    }

}
