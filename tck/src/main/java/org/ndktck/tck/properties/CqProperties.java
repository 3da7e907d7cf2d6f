package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.RequestContext;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * Properties of NdkGetCqResults and NDK_RESULT / NDK_RESULT_EX (catalog section "CQ results"). CQ-4 (the
 * result calls on one CQ are serialized) binds the kit and is obeyed by it; CQ-5 is informational (the SPI
 * has no CQ notifications).
 */
@NdkKit
public class CqProperties {

    /**
     * CQ-1: with {@code k} requests completed on the target's CQ, draining with arrays of 1, 2 and k + 1
     * entries (NdkGetCqResults or NdkGetCqResultsEx) gives counts between 0 and the array's size, k
     * distinct entries in all, and then a call that returns 0.
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("CQ-1")
    void theCountIsWhatWasRemoved(@ForAll @IntRange(min = 1, max = 8) int k, @ForAll boolean ex) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered src = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                Registered dst = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE);
                Set<Object> mine = Collections.newSetFromMap(new IdentityHashMap<>());
                for (int i = 0; i < k; i++) {
                    WorkRequest wr = t.write(t.target(), new NdkSge[]{src.sge((long) i * 16, 16)}, dst.va() + (long) i * 16, dst.remoteToken(), 0);
                    if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        throw Violations.of("RW-5", wr.detail(), "STATUS_SUCCESS for a valid write", "returned " + wr.returned());
                    }
                    mine.add(wr.context());
                }
                NdkCq cq = s.target().cq();
                int[] sizes = {1, 2, k + 1};
                Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
                long start = System.nanoTime();
                int call = 0;
                while (seen.size() < k) {
                    int size = sizes[call++ % sizes.length];
                    List<Object> got = drainOnce(t, cq, size, ex);
                    for (Object ctx : got) {
                        if (!seen.add(ctx)) {
                            throw Violations.of("CQ-1", callText(ex, size), "each entry removed once", "the entry of " + RequestContext.describe(ctx) + " again");
                        }
                    }
                    if (got.isEmpty() && s.bounds().completionExpired(start)) {
                        throw Violations.of("CQ-1", callText(ex, size), k + " entries in all within " + s.bounds().describeCompletionBound(),
                                seen.size() + " entries, then 0 with entries still missing");
                    }
                }
                dst.buffer().acceptActual(0, 16 * k);
                List<Object> rest = drainOnce(t, cq, k + 1, ex);
                if (!rest.isEmpty()) {
                    throw Violations.of("CQ-1", callText(ex, k + 1) + " after all " + k + " entries were removed", "0: the CQ is empty",
                            rest.size() + " more entries");
                }
            }
        });
    }

    private static String callText(boolean ex, int size) {
        return (ex ? "NdkGetCqResultsEx" : "NdkGetCqResults") + "(nResults=" + size + ")";
    }

    /** One result call; checks the count's range and hands the entries to the session. @return their request contexts */
    private static List<Object> drainOnce(SessionTools t, NdkCq cq, int size, boolean ex) {
        List<Object> out = new ArrayList<>();
        int n;
        if (ex) {
            NdkResultEx[] buf = new NdkResultEx[size];
            n = t.getCqResultsEx(cq, buf);
            checkCount(ex, size, n);
            for (int i = 0; i < n; i++) {
                t.accept(cq, buf[i]);
                out.add(buf[i].requestContext());
            }
        } else {
            NdkResult[] buf = new NdkResult[size];
            n = t.getCqResults(cq, buf);
            checkCount(ex, size, n);
            for (int i = 0; i < n; i++) {
                t.accept(cq, buf[i]);
                out.add(buf[i].requestContext());
            }
        }
        return out;
    }

    private static void checkCount(boolean ex, int size, int n) {
        if (n < 0 || n > size) {
            throw Violations.of("CQ-1", callText(ex, size), "a count from 0 to " + size, "returned " + n);
        }
    }

    /** The request kinds of CQ-2 and CQ-3. */
    enum Kind {
        /** NdkFastRegister on the target. */
        FAST_REGISTER,
        /** NdkInvalidate on the target. */
        INVALIDATE,
        /** NdkRead by the target. */
        READ,
        /** NdkWrite by the target. */
        WRITE,
        /** NdkSend by the peer and NdkReceive on the target. */
        SEND_RECEIVE,
        /** NdkSendAndInvalidate by the peer and NdkReceive on the target (ReceiveAndInvalidate). */
        SEND_AND_INVALIDATE
    }

    /** The requests one try made, with the type and (for ReceiveAndInvalidate) the token each entry must carry. */
    private record Made(WorkRequest wr, NdkOperationType type, long typeSpecific) {
    }

    private static List<Made> make(NdkSession s, SessionTools t, QpRef q, Kind kind, List<Runnable> afterwards) {
        int p = s.pageSize();
        List<Made> out = new ArrayList<>();
        switch (kind) {
            case FAST_REGISTER, INVALIDATE -> {
                Mdl mdl = s.allocate(1).mdl(t.freshVa(), 0, p);
                Lam lam = s.buildLam(mdl, p);
                NdkMr mr = s.fastRegisterMr(1, true);
                WorkRequest fr = t.fastRegister(q, mr, 1, lam.pages(), 0, p, t.freshVa(), NdkOpFlags.ALLOW_REMOTE_READ);
                out.add(new Made(fr, NdkOperationType.FAST_REGISTER, 0));
                if (kind == Kind.INVALIDATE) {
                    out.add(new Made(t.invalidate(q, mr, 0), NdkOperationType.INVALIDATE, 0));
                }
            }
            case READ, WRITE -> {
                Registered local = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
                Registered remote = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                NdkSge[] sgl = {local.sge(0, 32)};
                out.add(kind == Kind.READ ? new Made(t.read(q, sgl, remote.va(), remote.remoteToken(), 0), NdkOperationType.READ, 0)
                        : new Made(t.write(q, sgl, remote.va(), remote.remoteToken(), 0), NdkOperationType.WRITE, 0));
                afterwards.add(() -> {
                    local.buffer().acceptActual(0, 32);
                    remote.buffer().acceptActual(0, 32);
                });
            }
            case SEND_RECEIVE, SEND_AND_INVALIDATE -> {
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                if (kind == Kind.SEND_RECEIVE) {
                    out.add(new Made(t.receive(q, new NdkSge[]{sink.sge(0, 32)}, NdkOperationType.RECEIVE), NdkOperationType.RECEIVE, 0));
                    out.add(new Made(t.send(t.peer(), new NdkSge[]{src.sge(0, 32)}, 0), NdkOperationType.SEND, 0));
                } else {
                    FastRegion f = t.fastRegistered(1, 0, NdkOpFlags.ALLOW_REMOTE_READ, true);
                    out.add(new Made(t.receive(q, new NdkSge[]{sink.sge(0, 32)}, NdkOperationType.RECEIVE_AND_INVALIDATE),
                            NdkOperationType.RECEIVE_AND_INVALIDATE, Integer.toUnsignedLong(f.token())));
                    out.add(new Made(t.sendAndInvalidate(t.peer(), new NdkSge[]{src.sge(0, 32)}, f.token(), 0), NdkOperationType.SEND, 0));
                }
                afterwards.add(() -> sink.buffer().acceptActual(0, 32));
            }
        }
        return out;
    }

    /**
     * CQ-2: every CQ entry carries the RequestContext of the request it completes (a unique object per
     * request) and the QPContext given to NdkCreateQp for the QP it was posted on; requests of every kind are
     * posted on the session's target QP and on a second connected QP of the target PD with its own QPContext
     * (the session matches each entry to its request and checks both contexts).
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("CQ-2")
    void entriesEchoTheirContexts(@ForAll @Size(min = 1, max = 4) List<Kind> kinds, @ForAll boolean extraQp) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                QpRef q = extraQp ? t.connectedPair(0)[0] : t.target();
                List<Made> made = new ArrayList<>();
                List<Runnable> afterwards = new ArrayList<>();
                for (Kind k : kinds) {
                    if (extraQp && (k == Kind.SEND_RECEIVE || k == Kind.SEND_AND_INVALIDATE)) {
                        continue;
                    }
                    made.addAll(make(s, t, q, k, afterwards));
                }
                for (Made m : made) {
                    WrOutcome o = t.complete(m.wr());
                    if (o.entry() != null && (o.entry().requestContext() != m.wr().context())) {
                        throw Violations.of("CQ-2", o.call(), "RequestContext " + m.wr().context(), RequestContext.describe(o.entry().requestContext()));
                    }
                    if (!o.succeeded()) {
                        throw Violations.of("CQ-2", o.call(), "STATUS_SUCCESS for a valid request (to see its entry)", o.describe());
                    }
                }
                afterwards.forEach(Runnable::run);
            }
        });
    }

    /**
     * CQ-3: read with NdkGetCqResultsEx, each entry's Type names its request: FastRegister (4), Invalidate
     * (16), Read (32), Write (64), Send (2), Receive (1), and ReceiveAndInvalidate (0x8001) for a receive that
     * met an NdkSendAndInvalidate, whose TypeSpecificCompletionOutput is then the invalidated token.
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("CQ-3")
    void extendedEntriesCarryTheOperationType(@ForAll @Size(min = 1, max = 4) List<Kind> kinds) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                List<Made> made = new ArrayList<>();
                List<Runnable> afterwards = new ArrayList<>();
                for (Kind k : kinds) {
                    made.addAll(make(s, t, t.target(), k, afterwards));
                }
                for (Made m : made) {
                    WrOutcome o = t.complete(m.wr());
                    if (!o.succeeded()) {
                        throw Violations.of("CQ-3", o.call(), "STATUS_SUCCESS for a valid request (to see its entry)", o.describe());
                    }
                    NdkResultEx e = o.entry();
                    if (e.type() != m.type()) {
                        throw Violations.of("CQ-3", o.call(), "NDK_RESULT_EX.Type = " + m.type() + " (" + m.type().value() + ")", "Type = " + e.type());
                    }
                    // the NDK_RESULT_EX page makes the field a 32-bit token for ReceiveAndInvalidate: only its low 32 bits
                    // are compared, so a provider that leaves the upper half of the ULONG_PTR undefined passes
                    if (m.type() == NdkOperationType.RECEIVE_AND_INVALIDATE
                            && (int) e.typeSpecificCompletionOutput() != (int) m.typeSpecific()) {
                        throw Violations.of("CQ-3", o.call(), "TypeSpecificCompletionOutput = the invalidated token " + u32((int) m.typeSpecific()),
                                "TypeSpecificCompletionOutput = 0x" + Long.toHexString(e.typeSpecificCompletionOutput()));
                    }
                }
                afterwards.forEach(Runnable::run);
            }
        });
    }
}
