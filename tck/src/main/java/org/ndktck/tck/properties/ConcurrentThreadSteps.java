package org.ndktck.tck.properties;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.harness.WrOutcome;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * What one kit thread does in one step of a concurrent schedule of {@link ConcurrentCallsProperties}, and where its
 * bytes go: a poll of the shared CQ (entries kept for matching afterwards; CQ-1 for the count and the entries), a fast
 * registration or an invalidation of the thread's own MR awaited on its own CQ (MR-FRI-2, INV-4), a deregistration
 * followed by a write through the ended token (MR-DEREG-2, MR-DEREG-3), and a write or read-back of the thread's own
 * {@value #SLOT}-byte slot (MR-REG-3). Each step returns a one-line account of its calls for the schedule's log; an
 * allowed refusal (STATUS_INSUFFICIENT_RESOURCES) ends the step with that account. Offsets are bytes; tokens are
 * 32-bit values in a Java int. Errors: a {@link RuleViolation} naming the broken rule.
 */
final class ConcurrentThreadSteps {
    private ConcurrentThreadSteps() {
    }

    static final int FR_FLAGS = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;
    /** Bytes of one slot: each (thread, step) writes its own slot, so no two writes of a try overlap. */
    static final int SLOT = 16;

    /** One poll of the shared CQ by the poller thread: the entries are kept for the kit's matching after the schedule. */
    static String poll(NdkSession s, NdkCq cq, int want, boolean ex, List<Object> polled) {
        String call = (ex ? "NdkGetCqResultsEx" : "NdkGetCqResults") + "(shared CQ, nResults=" + want + ")";
        int n;
        Object[] got;
        if (ex) {
            NdkResultEx[] buf = new NdkResultEx[want];
            n = s.completions().getCqResultsEx(cq, buf);
            got = buf;
        } else {
            NdkResult[] buf = new NdkResult[want];
            n = s.completions().getCqResults(cq, buf);
            got = buf;
        }
        if (n < 0 || n > want) {
            throw Violations.of("CQ-1", call, "a count between 0 and " + want, "returned " + n);
        }
        StringBuilder sb = new StringBuilder(call + " -> " + n);
        for (int i = 0; i < n; i++) {
            if (got[i] == null) {
                throw Violations.of("CQ-1", call, n + " entries filled", "entry " + i + " is null");
            }
            polled.add(got[i]);
            Object ctx = got[i] instanceof NdkResultEx x ? x.requestContext() : ((NdkResult) got[i]).requestContext();
            sb.append(i == 0 ? ": " : ", ").append(ctx);
        }
        return sb.toString();
    }

    static long slot(int thread, int step, int steps) {
        return (long) (thread * (steps + 1) + step) * SLOT;
    }

    /** The bytes thread {@code i} writes at step {@code k}: distinct for every (seed, thread, step). */
    static byte[] pattern(long seed, int i, int k) {
        byte[] b = new byte[SLOT];
        new SplittableRandom(seed ^ ((long) i << 40) ^ ((long) k << 20) ^ 0x5DEECE66DL).nextBytes(b);
        b[0] = (byte) i;
        b[1] = (byte) k;
        return b;
    }

    /** One fast registration a thread made: the MR, where it was, its token. */
    record FrMade(int thread, FastRegion region, boolean[] live) {
    }

    /** A thread's step of (b): fast-register its MR when it is not registered, invalidate it when it is; awaited on its own CQ. */
    static String fastRegisterOrInvalidate(NdkSession s, SessionTools t, QpRef q, int me, Object[] m, long base,
                                                   List<FrMade> made, Map<NdkMr, FrMade[]> current) {
        NdkMr mr = (NdkMr) m[3];
        FrMade[] now = current.get(mr);
        if (now[0] != null && now[0].live()[0]) {
            WorkRequest wr = t.invalidate(q, mr, 0);
            WrOutcome o = t.complete(wr);
            if (Refusals.isAllowedRefusal(o.status())) {
                return wr.detail() + " -> " + o.describe();
            }
            if (!o.succeeded()) {
                throw Violations.of("INV-4", o.call(), "STATUS_SUCCESS for the invalidation of a fast-registered MR", o.describe());
            }
            now[0].live()[0] = false;
            return wr.detail() + " of the MR with token " + u32(now[0].region().token()) + " -> " + o.describe();
        }
        HostBuffer b = (HostBuffer) m[0];
        Lam lam = (Lam) m[2];
        int pages = (int) m[4];
        int fbo = (int) m[5];
        long length = (long) m[6];
        WorkRequest wr = t.fastRegister(q, mr, pages, lam.pages(), fbo, length, base, FR_FLAGS);
        WrOutcome o = t.complete(wr);
        if (Refusals.isAllowedRefusal(o.returned()) || Refusals.isAllowedRefusal(o.status())) {
            return wr.detail() + " -> " + o.describe();
        }
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS for a valid fast registration within the initialized page count",
                    o.describe());
        }
        int token = s.remoteToken(mr);
        FastRegion r = new FastRegion(b, (Mdl) m[1], lam, mr, pages, fbo, length, base, FR_FLAGS, token, s.localToken(mr));
        FrMade f = new FrMade(me, r, new boolean[]{true});
        made.add(f);
        now[0] = f;
        return wr.detail() + " -> " + o.describe() + ", remote token " + u32(token);
    }

    static String deregisterThenProbe(NdkSession s, SessionTools t, QpRef q, Registered own, Registered victim,
                                              boolean[] deregistered, int v) {
        Outcome o = s.deregister(victim.mr());
        if (!o.succeeded()) {
            if (Refusals.isAllowedRefusal(o.status())) {
                return o.call() + " -> " + o.describe();
            }
            throw Violations.of("MR-DEREG-2", o.call(), "STATUS_SUCCESS for the deregistration of a registered MR", o.describe());
        }
        deregistered[v] = true;
        long address = victim.va();
        WorkRequest wr = t.write(q, new NdkSge[]{own.sge(0, SLOT)}, address, victim.remoteToken(), 0);
        WrOutcome w = t.complete(wr);
        if (w.succeeded()) {
            throw Violations.of("MR-DEREG-3", wr.detail(), "an error: the remote token " + u32(victim.remoteToken())
                    + " of an MR whose NdkDeregisterMr has completed reaches nothing", w.describe());
        }
        return o.call() + " of the MR with token " + u32(victim.remoteToken()) + " -> " + o.describe() + "; then " + wr.detail() + " -> " + w.describe();
    }

    static String writeSlot(SessionTools t, QpRef q, Registered own, Registered r, long off, byte[] data, byte[][] wrote, int step) {
        WorkRequest wr = t.write(q, new NdkSge[]{own.sge(off, SLOT)}, r.va() + off, r.remoteToken(), 0);
        if (Refusals.isAllowedRefusal(wr.returned())) {
            return wr.detail() + " -> " + wr.returned();
        }
        WrOutcome o = t.complete(wr);
        if (!o.succeeded()) {
            throw Violations.of("MR-REG-3", wr.detail(), "STATUS_SUCCESS for a write inside a registered MR that stays registered", o.describe());
        }
        wrote[step] = data;
        return wr.detail() + " -> " + o.describe();
    }

    static String readOwnSlot(SessionTools t, QpRef q, Registered own, Registered r, long remoteOff, byte[] expected, long sinkOff) {
        WorkRequest wr = t.read(q, new NdkSge[]{own.sge(sinkOff, SLOT)}, r.va() + remoteOff, r.remoteToken(), 0);
        if (Refusals.isAllowedRefusal(wr.returned())) {
            return wr.detail() + " -> " + wr.returned();
        }
        WrOutcome o = t.complete(wr);
        byte[] got = own.buffer().read(own.bufferOffset() + sinkOff, SLOT);
        own.buffer().acceptActual(own.bufferOffset() + sinkOff, SLOT);
        if (!o.succeeded() || !Arrays.equals(got, expected)) {
            throw Violations.of("MR-REG-3", wr.detail(), "STATUS_SUCCESS and the bytes " + Hex.bytes(expected) + " the thread wrote there",
                    o.describe() + ", bytes read " + Hex.bytes(got));
        }
        return wr.detail() + " -> " + o.describe();
    }
}
