package org.ndktck.tck.properties;

import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.KitSetupError;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.RequestContext;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.harness.WrOutcome;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A QP at the limits it was created with (rules LIM-1 and COV-4): its queue depths
 * (InitiatorQueueDepth initiator requests and ReceiveQueueDepth receives outstanding at once, and one past them)
 * and its SGE limits (a request with exactly the adapter's MaxInitiatorRequestSge or MaxReceiveRequestSge SGEs, and
 * one SGE more than the QP allows). Within the limits every request is accepted (or refused inline for lack of
 * resources, STATUS_INSUFFICIENT_RESOURCES, which the pages allow) and completes with exactly one CQ entry, its
 * bytes exact; past them the consumer breaks AI-6 on purpose, and the provider may refuse, but what it accepts and
 * reports successful it carries out in full.
 */
@NdkKit
public class QpLimitProperties {
    /** Bytes each request of the depth property moves; request i has slot i of its buffers. */
    private static final int SLOT = 8;
    /** The largest queue depth the depth property asks for. */
    static final int MAX_DEPTH = 32;
    /** The most SGEs a request the SGE property asks a QP for (the adapter's limit when it is lower). */
    static final int WANT_SGE = 64;

    private static long u(int v) {
        return Integer.toUnsignedLong(v);
    }

    /**
     * LIM-1: a QP created with InitiatorQueueDepth d and ReceiveQueueDepth r (1 to 32, within the adapter's maxima)
     * on a CQ of its own takes d NdkWrites (each to its own 8-byte slot of a peer buffer) posted without removing any
     * entry, and then, on the same QP, r NdkReceives posted before the peer sends anything; with {@code overInitiator}
     * ({@code overReceive}) one request more is posted past the depth. Every request within a depth must be accepted
     * (STATUS_SUCCESS, or STATUS_INSUFFICIENT_RESOURCES inline: that one is not judged); the one past it may be refused
     * with any status. Every accepted request must complete with exactly one entry (a missing one fails LIM-1, a stale
     * or repeated one CQ-2), and a successful one must have moved its slot's bytes.
     *
     * @param dSeed         InitiatorQueueDepth wanted
     * @param rSeed         ReceiveQueueDepth wanted
     * @param overInitiator whether one write more than the depth is posted
     * @param overReceive   whether one receive more than the depth is posted
     */
    @Property(tries = 30, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("LIM-1")
    void aQpHoldsItsQueueDepthsOfOutstandingRequests(@ForAll @IntRange(min = 1, max = MAX_DEPTH) int dSeed,
                                                     @ForAll @IntRange(min = 1, max = MAX_DEPTH) int rSeed,
                                                     @ForAll boolean overInitiator, @ForAll boolean overReceive) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                NdkAdapterInfo info = s.info();
                int d = (int) Math.max(1, Math.min(dSeed, u(info.maxInitiatorQueueDepth())));
                int r = (int) Math.max(1, Math.min(rSeed, u(info.maxReceiveQueueDepth())));
                int cqDepth = d + r + 2;
                Assume.that(u(info.maxCqDepth()) >= cqDepth && u(info.maxInitiatorQueueDepth()) >= r + 1);
                NdkCq cqA = t.createCq(cqDepth);
                NdkCq cqB = t.createCq(cqDepth);
                QpRef a = t.createQp(s.target().pd(), cqA, new RequestContext("QPContext of the depth-limited QP"),
                        "depth-limited (InitiatorQueueDepth " + d + ", ReceiveQueueDepth " + r + ")", 0, 1, 1, r, d);
                QpRef b = t.createQp(s.peer().pd(), cqB, new RequestContext("QPContext of its peer"), "its peer", 0, 1, 1, 1, r + 1);
                NtStatus st = s.invoker().call("connectLoopback", () -> "connectLoopback(depth-limited QP, its peer)",
                        () -> s.adapter().connectLoopback(a.qp(), b.qp()));
                if (!NtStatus.STATUS_SUCCESS.equals(st)) {
                    throw new KitSetupError("connectLoopback(depth-limited QP, its peer)", String.valueOf(st));
                }
                int rw = NdkMrFlags.ALLOW_LOCAL_WRITE;
                Registered src = t.registered(s.target(), 1, 0, p, rw);
                Registered sink = t.registered(s.peer(), 1, 0, p, rw | NdkMrFlags.ALLOW_REMOTE_WRITE);
                Registered rsink = t.registered(s.target(), 1, 0, p, rw);
                Registered ssrc = t.registered(s.peer(), 1, 0, p, rw);
                t.onRefusedPost(Refusals.OnRefusal.KEEP);
                // initiator queue: d writes (one more past the depth), no entry removed in between
                int n = d + (overInitiator ? 1 : 0);
                List<WorkRequest> writes = new ArrayList<>();
                List<Integer> writeSlots = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    WorkRequest w = t.write(a, new NdkSge[]{src.sge((long) i * SLOT, SLOT)}, sink.va() + (long) i * SLOT, sink.remoteToken(), 0);
                    if (!accepted(w, i < d, "NdkWrite " + (i + 1) + " of " + n + " on a QP of InitiatorQueueDepth " + d)) {
                        continue;
                    }
                    writes.add(w);
                    writeSlots.add(i);
                }
                for (int i = 0; i < writes.size(); i++) {
                    WorkRequest w = writes.get(i);
                    int slot = writeSlots.get(i);
                    NtStatus e = t.awaitEntry(w, "LIM-1", "one CQ entry for every accepted request, with " + writes.size()
                            + " posted on a QP of InitiatorQueueDepth " + d + " before any entry was removed");
                    long off = (long) slot * SLOT;
                    if (!NtStatus.STATUS_SUCCESS.equals(e)) {
                        sink.buffer().acceptActual(sink.bufferOffset() + off, SLOT);
                        continue;
                    }
                    byte[] want = src.buffer().read(src.bufferOffset() + off, SLOT);
                    byte[] got = sink.buffer().read(sink.bufferOffset() + off, SLOT);
                    if (!Arrays.equals(want, got)) {
                        throw Violations.of("LIM-1", w.detail() + " (write " + (slot + 1) + " of " + n + " on a QP of InitiatorQueueDepth " + d + ")",
                                "its bytes " + Hex.bytes(want) + " at the peer", "the peer holds " + Hex.bytes(got));
                    }
                    sink.buffer().expectWrite(sink.bufferOffset() + off, want);
                }
                // receive queue: r receives (one more past the depth) before the peer sends anything
                int m = r + (overReceive ? 1 : 0);
                List<WorkRequest> receives = new ArrayList<>();
                List<Integer> receiveSlots = new ArrayList<>();
                for (int j = 0; j < m; j++) {
                    WorkRequest w = t.receive(a, new NdkSge[]{rsink.sge((long) j * SLOT, SLOT)}, NdkOperationType.RECEIVE);
                    if (!accepted(w, j < r, "NdkReceive " + (j + 1) + " of " + m + " on a QP of ReceiveQueueDepth " + r)) {
                        continue;
                    }
                    receives.add(w);
                    receiveSlots.add(j);
                }
                t.onRefusedPost(Refusals.OnRefusal.RETRY);
                List<WorkRequest> sends = new ArrayList<>();
                for (int slot : receiveSlots) {
                    sends.add(t.send(b, new NdkSge[]{ssrc.sge((long) slot * SLOT, SLOT)}, 0));
                }
                for (WorkRequest w : sends) {
                    WrOutcome o = t.complete(w);
                    if (!o.succeeded()) {
                        throw Violations.of("LIM-1", o.call() + " into one of " + receives.size() + " receives posted on a QP of ReceiveQueueDepth " + r,
                                "STATUS_SUCCESS: a receive waits for it", o.describe());
                    }
                }
                for (int i = 0; i < receives.size(); i++) {
                    WorkRequest w = receives.get(i);
                    int slot = receiveSlots.get(i);
                    NtStatus e = t.awaitEntry(w, "LIM-1", "one CQ entry for every accepted receive, with " + receives.size()
                            + " posted on a QP of ReceiveQueueDepth " + r + " before the peer sent");
                    long off = (long) slot * SLOT;
                    if (!NtStatus.STATUS_SUCCESS.equals(e)) {
                        rsink.buffer().acceptActual(rsink.bufferOffset() + off, SLOT);
                        continue;
                    }
                    byte[] want = ssrc.buffer().read(ssrc.bufferOffset() + off, SLOT);
                    byte[] got = rsink.buffer().read(rsink.bufferOffset() + off, SLOT);
                    if (!Arrays.equals(want, got)) {
                        throw Violations.of("LIM-1", w.detail() + " (receive " + (slot + 1) + " of " + m + " on a QP of ReceiveQueueDepth " + r + ")",
                                "the bytes of the peer's send " + (i + 1) + ": " + Hex.bytes(want), "it holds " + Hex.bytes(got));
                    }
                    rsink.buffer().expectWrite(rsink.bufferOffset() + off, want);
                }
                s.checkMemory("LIM-1", "writes and receives up to and past the depths of a QP (InitiatorQueueDepth " + d
                        + ", ReceiveQueueDepth " + r + ")");
            }
        });
    }

    /**
     * @param w      a post
     * @param within whether it is within the QP's depth (then only STATUS_SUCCESS or an allowed refusal is right)
     * @param what   for the message
     * @return true when the provider accepted it (STATUS_SUCCESS); false when it refused it in a way allowed here
     */
    private static boolean accepted(WorkRequest w, boolean within, String what) {
        NtStatus r = w.returned();
        if (NtStatus.STATUS_SUCCESS.equals(r)) {
            return true;
        }
        if (within && !Refusals.isAllowedRefusal(r)) {
            throw Violations.of("LIM-1", w.detail() + " (" + what + ")",
                    "STATUS_SUCCESS (or STATUS_INSUFFICIENT_RESOURCES): the request is within the QP's depth", "returned " + r);
        }
        return false;
    }

    /** The request of the SGE-limit property. */
    enum Use {
        /** NdkWrite from the SGL. */
        WRITE,
        /** NdkRead into the SGL. */
        READ,
        /** NdkSend from the SGL. */
        SEND,
        /** NdkReceive into the SGL. */
        RECEIVE
    }

    /**
     * COV-4 and LIM-1 at the adapter's SGE limits: a pair of QPs is created with exactly the adapter's
     * MaxInitiatorRequestSge and MaxReceiveRequestSge (at most {@link #WANT_SGE}), and the target posts an NdkWrite,
     * NdkRead (MaxReadRequestSge also caps it), NdkSend or NdkReceive with exactly that many SGEs of {@code len}
     * bytes each in one registered buffer: it must succeed and move the bytes of every SGE, in order (COV-4). With
     * {@code over} the request has one SGE more than the QP's limit (the consumer's breach of AI-6): it may fail,
     * inline or in its entry, with no byte outside its sinks changed; if it succeeds, every SGE's bytes must have
     * moved (LIM-1).
     *
     * @param use  the request
     * @param over whether the SGL has one SGE more than the QP's limit
     * @param len  bytes of each SGE (1 to 24)
     */
    @Property(tries = 24, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("COV-4")
    @Tag("LIM-1")
    void requestsOfExactlyTheAdaptersSgeLimitMoveEverySge(@ForAll Use use, @ForAll boolean over,
                                                         @ForAll @IntRange(min = 1, max = 24) int len) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                NdkAdapterInfo info = s.info();
                int is = (int) Math.max(1, Math.min(WANT_SGE, u(info.maxInitiatorRequestSge())));
                int rs = (int) Math.max(1, Math.min(WANT_SGE, u(info.maxReceiveRequestSge())));
                int limit = switch (use) {
                    case RECEIVE -> rs;
                    case READ -> (int) Math.max(1, Math.min(is, u(info.maxReadRequestSge())));
                    default -> is;
                };
                int qpLimit = use == Use.RECEIVE ? rs : is;
                int m = over ? qpLimit + 1 : limit;
                String rule = over ? "LIM-1" : "COV-4";
                QpRef qa = t.createQp(s.target().pd(), s.target().cq(), new RequestContext("QPContext of a QP at the SGE limits"),
                        "target at the SGE limits", 0, rs, is, 16, 16);
                QpRef qb = t.createQp(s.peer().pd(), s.peer().cq(), new RequestContext("QPContext of its peer at the SGE limits"),
                        "peer at the SGE limits", 0, rs, is, 16, 16);
                NtStatus st = s.invoker().call("connectLoopback", () -> "connectLoopback(QPs at the SGE limits)",
                        () -> s.adapter().connectLoopback(qa.qp(), qb.qp()));
                if (!NtStatus.STATUS_SUCCESS.equals(st)) {
                    throw new KitSetupError("connectLoopback(QPs at the SGE limits)", String.valueOf(st));
                }
                boolean sink = use == Use.READ || use == Use.RECEIVE;
                int stride = len + 5;
                int pages = (int) (((long) m * stride + p - 1) / p) + 1;
                Registered r = t.registered(s.target(), pages, 0, (long) pages * p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
                NdkSge[] sgl = new NdkSge[m];
                for (int i = 0; i < m; i++) {
                    sgl[i] = r.sge((long) i * stride, len);
                }
                int total = m * len;
                int qPages = total / p + 2;
                Registered q = t.registered(s.peer(), qPages, 0, (long) qPages * p,
                        NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_LOCAL_WRITE);
                String what = use + " with " + m + " SGEs of " + len + " bytes on a QP whose limit is " + qpLimit
                        + " (adapter: MaxInitiatorRequestSge " + u(info.maxInitiatorRequestSge()) + ", MaxReceiveRequestSge "
                        + u(info.maxReceiveRequestSge()) + ", MaxReadRequestSge " + u(info.maxReadRequestSge()) + ")";
                ByteArrayOutputStream srcBytes = new ByteArrayOutputStream();
                for (NdkSge g : sgl) {
                    srcBytes.writeBytes(r.buffer().read(g.address() - r.va(), len));
                }
                WrOutcome o;
                WrOutcome other = null;
                switch (use) {
                    case WRITE -> o = t.complete(t.write(qa, sgl, q.va(), q.remoteToken(), 0));
                    case READ -> o = t.complete(t.read(qa, sgl, q.va(), q.remoteToken(), 0));
                    case SEND -> {
                        WorkRequest recv = t.receive(qb, new NdkSge[]{q.sge(0, total)}, NdkOperationType.RECEIVE);
                        o = t.complete(t.send(qa, sgl, 0));
                        if (o.succeeded() || recv.entry() != null) {
                            other = t.complete(recv);
                        }
                    }
                    default -> {
                        WorkRequest recv = t.receive(qa, sgl, NdkOperationType.RECEIVE);
                        if (!NtStatus.STATUS_SUCCESS.equals(recv.returned())) {
                            o = new WrOutcome(recv::detail, recv.returned(), recv.returned(), null);
                        } else {
                            other = t.complete(t.send(qb, new NdkSge[]{q.sge(0, total)}, 0));
                            o = t.complete(recv);
                        }
                    }
                }
                Refusals.discardIfRefused(o.status());
                q.buffer().acceptActual(0, (int) Math.min(q.buffer().size(), Integer.MAX_VALUE));
                boolean ok = o.succeeded() && (other == null || other.succeeded());
                if (!ok) {
                    if (!over) {
                        throw Violations.of("COV-4", o.call() + " (" + what + ")", "STATUS_SUCCESS: every SGE is good and the count is "
                                + "within the QP's limit", o.describe() + (other == null ? "" : "; " + other.describe()));
                    }
                    for (int i = 0; i < m && sink; i++) {
                        r.buffer().acceptActual(sgl[i].address() - r.va(), len);
                    }
                    s.checkMemory("LIM-1", o.call() + " (" + what + ", refused)");
                    return;
                }
                if (sink) {
                    byte[] source = q.buffer().read(0, total);
                    for (int i = 0; i < m; i++) {
                        byte[] got = r.buffer().read(sgl[i].address() - r.va(), len);
                        byte[] want = Arrays.copyOfRange(source, i * len, (i + 1) * len);
                        if (!Arrays.equals(got, want)) {
                            throw Violations.of(rule, o.call() + " (" + what + ", completed with success)", "SGE " + i + " of " + m
                                    + " holds bytes " + (i * len) + " on of the message: " + Hex.bytes(want), "it holds " + Hex.bytes(got));
                        }
                        r.buffer().expectWrite(sgl[i].address() - r.va(), got);
                    }
                } else {
                    byte[] want = srcBytes.toByteArray();
                    byte[] got = q.buffer().read(0, total);
                    for (int i = 0; i < m; i++) {
                        byte[] g = Arrays.copyOfRange(got, i * len, (i + 1) * len);
                        byte[] w = Arrays.copyOfRange(want, i * len, (i + 1) * len);
                        if (!Arrays.equals(g, w)) {
                            throw Violations.of(rule, o.call() + " (" + what + ", completed with success)", "the peer holds the bytes "
                                    + "of SGE " + i + " of " + m + " at offset " + (i * len) + ": " + Hex.bytes(w), "it holds " + Hex.bytes(g));
                        }
                    }
                }
                s.checkMemory(rule, o.call() + " (" + what + ")");
            }
        });
    }
}
