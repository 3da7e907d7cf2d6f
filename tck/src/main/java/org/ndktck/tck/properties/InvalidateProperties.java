package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.ProviderUnderTest;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * Properties of NdkInvalidate and of remote invalidation (catalog section "NdkInvalidate"; the
 * NDK_FN_INVALIDATE and NDK_FN_SEND_AND_INVALIDATE pages). INV-1 (only fast-registered MRs are
 * invalidated) binds the kit and is obeyed by it.
 */
@NdkKit
public class InvalidateProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;

    @Provide
    Arbitrary<Integer> invalidateFlags() {
        List<Integer> flags = new ArrayList<>(List.of(0, NdkOpFlags.READ_FENCE, NdkOpFlags.SILENT_SUCCESS,
                NdkOpFlags.SILENT_SUCCESS | NdkOpFlags.READ_FENCE));
        if (ProviderUnderTest.get().adapterInfo().version().atLeast(NdkVersion.V1_2)) {
            flags.add(NdkOpFlags.DEFER);
        }
        return Arbitraries.of(flags);
    }

    /**
     * INV-2: NdkInvalidate of a fast-registered MR posted on a QP of the MR's PD that was never connected
     * fails inline (any error; one other than STATUS_CONNECTION_INVALID is an ADVISORY finding) and leaves
     * no CQ entry (DEF-2, checked when the CQ is drained). Flags: none, READ_FENCE, SILENT_SUCCESS, DEFER
     * (NDKPI 1.2).
     */
    @Property(tries = 50, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("INV-2")
    void invalidateOnAnUnconnectedQpFails(@ForAll("invalidateFlags") int flags, @ForAll @IntRange(min = 1, max = 4) int pages) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                FastRegion r = t.fastRegistered(pages, 0, RW, true);
                WorkRequest wr = t.invalidate(t.unconnected(), r.mr(), flags);
                if (NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                    throw Violations.of("INV-2", wr.detail(), "an inline failure (STATUS_CONNECTION_INVALID) on a QP that was never connected",
                            "returned STATUS_SUCCESS");
                }
                if (!NtStatus.STATUS_CONNECTION_INVALID.equals(wr.returned())) {
                    Violations.advisory("INV-2", wr.detail(), NtStatus.STATUS_CONNECTION_INVALID.toString(), "returned " + wr.returned());
                }
                s.drain(s.target());
            }
        });
    }

    /**
     * INV-3: an accepted NdkInvalidate (flags none or READ_FENCE) produces exactly one CQ entry on the
     * initiator CQ, with the request's RequestContext, the QP's QPContext, STATUS_SUCCESS and (read with
     * NdkGetCqResultsEx) Type NdkOperationTypeInvalidate (16); half the tries drain with NdkGetCqResults.
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("INV-3")
    void anAcceptedInvalidationCompletesOnce(@ForAll boolean plain, @ForAll boolean fence, @ForAll @IntRange(min = 1, max = 4) int pages) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                FastRegion r = t.fastRegistered(pages, 0, RW, true);
                WorkRequest wr = t.invalidate(t.target(), r.mr(), fence ? NdkOpFlags.READ_FENCE : 0);
                if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                    throw Violations.of("INV-3", wr.detail(), "STATUS_SUCCESS for the invalidation of a fast-registered MR on a connected QP",
                            "returned " + wr.returned());
                }
                if (plain) {
                    long start = System.nanoTime();
                    while (wr.entry() == null) {
                        List<NdkResult> got = s.drainPlain(s.target().cq());
                        if (wr.entry() == null && got.isEmpty() && s.bounds().completionExpired(start)) {
                            throw Violations.of("INV-3", wr.detail(), "a CQ entry (NdkGetCqResults) within " + s.bounds().describeCompletionBound(), "none");
                        }
                        Thread.onSpinWait();
                    }
                }
                WrOutcome o = t.complete(wr);
                if (o.entry() == null || !o.succeeded()) {
                    throw Violations.of("INV-3", o.call(), "one CQ entry with STATUS_SUCCESS", o.describe());
                }
                if (!plain && o.entry().type() != NdkOperationType.INVALIDATE) {
                    throw Violations.of("INV-3", o.call(), "NDK_RESULT_EX.Type = NdkOperationTypeInvalidate (16)", "Type = " + o.entry().type());
                }
                s.drain(s.target());
            }
        });
    }

    /**
     * INV-4 (MUST, kit interpretation): once NdkInvalidate has completed with success, the peer's NdkRead
     * and NdkWrite with the old remote token, at addresses that were inside the region, complete in error
     * and change no byte; the same MR can then be fast-registered again, and the new registration works
     * with its new token (a peer write and read back).
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("INV-4")
    void anInvalidatedTokenGrantsNothingAndTheMrCanBeUsedAgain(@ForAll @IntRange(min = 1, max = 4) int pages,
                                                               @ForAll @IntRange(min = 0, max = 4095) int fboSeed,
                                                               @ForAll @IntRange(min = 0, max = 1 << 20) int seed,
                                                               @ForAll @IntRange(min = 1, max = 64) int n) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int fbo = fboSeed % p;
                FastRegion r = t.fastRegistered(pages, fbo, RW, true);
                Region region = r.region();
                int len = (int) Math.min(n, r.length());
                long k = seed % (r.length() - len + 1);
                Access before = Probes.readInside(s, region, k, len);
                if (!before.succeeded()) {
                    throw Violations.of("MR-FR-9", before.describe(), "a peer read inside a live fast registration succeeds", before.outcome().describe());
                }
                WrOutcome inv = s.invalidate(r.mr(), 0);
                if (!inv.succeeded()) {
                    throw Violations.of("INV-4", inv.call(), "STATUS_SUCCESS for the invalidation of a fast-registered MR", inv.describe());
                }
                String after = " after " + inv.call() + " " + inv.describe();
                Access w = Probes.writeInside(s, region, k, len);
                if (w.succeeded()) {
                    throw Violations.of("INV-4", w.describe() + after, "an error: the invalidated token grants nothing", "it succeeded");
                }
                Access rd = Probes.readInside(s, region, k, len);
                if (rd.succeeded()) {
                    throw Violations.of("INV-4", rd.describe() + after, "an error: the invalidated token grants nothing",
                            "it succeeded and read " + Hex.bytes(rd.data()));
                }
                s.checkMemory("INV-4", "peer accesses with an invalidated token" + after);
                FastRegion again = t.fastRegisterAgain(r.buffer(), r.mdl(), r.lam(), r.mr(), pages, fbo, r.length(),
                        r.base() + ((long) p << 8), RW);
                Access w2 = Probes.writeInside(s, again.region(), k, len);
                Access r2 = Probes.readInside(s, again.region(), k, len);
                if (!w2.succeeded() || !r2.succeeded() || !Arrays.equals(r2.data(), Probes.actualAt(again.region(), k, len))) {
                    throw Violations.of("INV-4", w2.describe() + "; " + r2.describe(), "the MR fast-registered again works with its new token "
                            + u32(again.token()), w2.outcome().describe() + "; " + r2.outcome().describe()
                            + (r2.succeeded() ? ", read " + Hex.differing(Probes.actualAt(again.region(), k, len), r2.data(), k, "region byte") : ""));
                }
            }
        });
    }

    /**
     * INV-5: a peer's NdkSendAndInvalidate naming the token of a target fast registration invalidates it even
     * though the target drains its CQ with NdkGetCqResults only: the receive completes with success, then
     * the peer's access with that token fails and changes no byte, and a later NdkInvalidate of the MR
     * fails (inline, or with an error completion: AMB-14); a success completion fails the rule. Half the sends carry
     * NDK_OP_FLAG_SILENT_SUCCESS, which only suppresses the sender's own entry (NdkSendAndInvalidate page): the
     * invalidation at the receiver is the same.
     */
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("INV-5")
    void sendAndInvalidateInvalidatesWhateverTheResultCall(@ForAll @IntRange(min = 1, max = 4) int pages,
                                                           @ForAll @IntRange(min = 1, max = 64) int n, @ForAll boolean write,
                                                           @ForAll boolean silent) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                FastRegion r = t.fastRegistered(pages, 0, RW, true);
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                WorkRequest recv = t.receive(t.target(), new NdkSge[]{sink.sge(0, n)}, NdkOperationType.RECEIVE_AND_INVALIDATE);
                WorkRequest send = t.sendAndInvalidate(t.peer(), new NdkSge[]{src.sge(0, n)}, r.token(), silent ? NdkOpFlags.SILENT_SUCCESS : 0);
                WrOutcome so = t.complete(send);
                if (!so.succeeded()) {
                    throw Violations.of("INV-5", so.call() + " naming the target's fast-registered token " + u32(r.token()),
                            "STATUS_SUCCESS", so.describe());
                }
                long start = System.nanoTime();
                while (recv.entry() == null) {
                    List<NdkResult> got = s.drainPlain(s.target().receiveCq());
                    if (recv.entry() == null && got.isEmpty() && s.bounds().completionExpired(start)) {
                        throw Violations.of("INV-5", recv.detail(), "a CQ entry (NdkGetCqResults) within " + s.bounds().describeCompletionBound(), "none");
                    }
                    Thread.onSpinWait();
                }
                if (!NtStatus.STATUS_SUCCESS.equals(recv.entry().status())) {
                    throw Violations.of("INV-5", recv.detail(), "STATUS_SUCCESS for the receive of a SendAndInvalidate", "status " + recv.entry().status());
                }
                sink.buffer().acceptActual(0, n);
                String after = " after the peer's " + so.call() + " (the target drained with NdkGetCqResults)";
                Access a = write ? Probes.writeInside(s, r.region(), 0, Math.min(n, (int) r.length()))
                        : Probes.readInside(s, r.region(), 0, Math.min(n, (int) r.length()));
                if (a.succeeded()) {
                    throw Violations.of("INV-5", a.describe() + after, "an error: the token was invalidated by the SendAndInvalidate", "it succeeded");
                }
                s.checkMemory("INV-5", a.describe() + after);
                WrOutcome inv = s.invalidate(r.mr(), 0);
                if (inv.succeeded()) {
                    throw Violations.of("INV-5", inv.call() + after, "a failure (inline or an error completion): the MR is no longer fast-registered",
                            inv.describe());
                }
            }
        });
    }
}
