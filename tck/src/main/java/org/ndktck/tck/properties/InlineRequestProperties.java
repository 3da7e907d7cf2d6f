package org.ndktck.tck.properties;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.harness.ChecksReached;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.harness.WrOutcome;

/**
 * SGE-5 and SGE-6: what NDK_OP_FLAG_INLINE (0x40) promises besides ignoring the SGE token (SGE-3, in
 * {@link SgeProperties}). An INLINE NdkSend may carry more SGEs than the QP's MaxInitiatorRequestSge (the NdkSend and
 * NdkSendAndInvalidate pages), and an INLINE request has taken its source bytes by the time the posting call returns
 * (the NDK_SGE page keeps the source resident only until then). Both need an adapter with MaxInlineDataSize above 0;
 * on one without, every try is rejected and both rules stay UNTESTED.
 */
@NdkKit
public class InlineRequestProperties {
    /** The largest InlineDataSize the properties ask for, in bytes. */
    static final int MOST_INLINE = 64;

    /**
     * SGE-5: on a connected pair of QPs created with MaxInitiatorRequestSge {@code qpSge} (1 or 2, within the
     * adapter's) and InlineDataSize up to {@value #MOST_INLINE}, an INLINE NdkSend of {@code qpSge + extra} SGEs (each 1
     * to 4 bytes, all within the inline size; with {@code straddle} one of them crosses a page end of the source) into a
     * one-SGE receive of the peer succeeds, and the peer holds every SGE's bytes in order. A "try later" refusal
     * discards the try; any other failure breaks SGE-5.
     *
     * @param qpSge    MaxInitiatorRequestSge asked for the QP (capped by the adapter's)
     * @param extra    SGEs in the send beyond the QP's limit
     * @param seed     picks the SGE Lengths and where the SGEs start
     * @param straddle whether an SGE crosses a page end of the source
     */
    @Property(tries = 60, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SGE-5")
    void inlineSendsMayCarryMoreSgesThanTheQpTakes(@ForAll @IntRange(min = 1, max = 2) int qpSge,
            @ForAll @IntRange(min = 1, max = 14) int extra, @ForAll @IntRange(min = 0, max = 1 << 20) int seed,
            @ForAll boolean straddle) {
        NdkSession.inTry(s -> {
            int inline = (int) Math.min(MOST_INLINE, Integer.toUnsignedLong(s.info().maxInlineDataSize()));
            int limit = (int) Math.max(1, Math.min(qpSge, Integer.toUnsignedLong(s.info().maxInitiatorRequestSge())));
            int m = limit + extra;
            Assume.that(inline >= m);
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int[] lens = new int[m];
                int total = 0;
                for (int i = 0; i < m; i++) {
                    lens[i] = 1 + ((seed >>> (i % 16)) & 3);
                    total += lens[i];
                }
                if (total > inline) {
                    Arrays.fill(lens, 1);
                    total = m;
                }
                QpRef[] pair = t.connectedPair(inline, limit);
                Registered src = t.registered(s.target(), 2, 0, 2L * p, NdkMrFlags.ALLOW_LOCAL_READ);
                Registered sink = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                // SGE i starts 8 x i bytes after the first; with straddle SGE m / 2 starts 1 to 3 bytes before the page end
                long first = straddle ? p - 8L * (m / 2) - 1 - seed % 3 : seed % 64;
                NdkSge[] sgl = new NdkSge[m];
                ByteArrayOutputStream expected = new ByteArrayOutputStream();
                for (int i = 0; i < m; i++) {
                    sgl[i] = src.sge(first + 8L * i, lens[i]);
                    expected.writeBytes(src.buffer().read(first + 8L * i, lens[i]));
                }
                WorkRequest recv = t.receive(pair[1], new NdkSge[]{sink.sge(0, total)}, NdkOperationType.RECEIVE);
                WrOutcome sent = t.complete(t.send(pair[0], sgl, NdkOpFlags.INLINE));
                Refusals.discardIfRefused(sent.status());
                String what = sent.call() + " (" + m + " SGEs; the QP's MaxInitiatorRequestSge " + limit + ", InlineDataSize "
                        + inline + ")";
                if (!sent.succeeded()) {
                    throw Violations.of("SGE-5", what, "STATUS_SUCCESS: an INLINE send may carry more SGEs than the QP's "
                            + "MaxInitiatorRequestSge", sent.describe());
                }
                WrOutcome ro = t.complete(recv);
                byte[] want = expected.toByteArray();
                byte[] got = sink.buffer().read(0, total);
                if (!ro.succeeded() || !Arrays.equals(got, want)) {
                    throw Violations.of("SGE-5", what, "the peer's receive succeeds holding every SGE's bytes in order: " + Hex.bytes(want),
                            "the receive " + ro.describe() + ", the buffer holds " + Hex.bytes(got));
                }
                sink.buffer().expectWrite(0, want);
                s.checkMemory("SGE-5", what);
            }
        });
    }

    /**
     * SGE-6: the target posts an INLINE NdkSend into a receive of the peer, or (with {@code write}) an INLINE NdkWrite
     * into a peer region, of {@code n} bytes from a registered source, and as soon as the call returns writes the
     * complement of every source byte; only then does it wait for the CQ entry. The peer must hold the source bytes as
     * they were at the post. An inline NdkWrite the provider refuses (the NdkWrite page does not list INLINE; SGE-3) is
     * followed by the same bytes through an inline NdkSend on a fresh pair; a send refused judges nothing.
     *
     * @param write whether the request is an NdkWrite (else an NdkSend)
     * @param nSeed picks the byte count, 1 to the inline size
     * @param seed  picks where the source starts
     */
    @Property(tries = 60, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SGE-6")
    void inlineBytesAreTakenByTheTimeThePostReturns(@ForAll boolean write, @ForAll @IntRange(min = 1, max = MOST_INLINE) int nSeed,
            @ForAll @IntRange(min = 0, max = 1 << 20) int seed) {
        NdkSession.inTry(s -> {
            int inline = (int) Math.min(MOST_INLINE, Integer.toUnsignedLong(s.info().maxInlineDataSize()));
            Assume.that(inline > 0);
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int n = 1 + (nSeed - 1) % inline;
                QpRef[] pair = t.connectedPair(inline);
                Registered src = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered sink = t.registered(s.peer(), 1, 0, p, write
                        ? NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_WRITE : NdkMrFlags.ALLOW_LOCAL_WRITE);
                long k = seed % (p - n + 1);
                byte[] posted = src.buffer().read(k, n);
                NdkSge[] sgl = {src.sge(k, n)};
                WrOutcome o = null;
                boolean viaSend = !write;
                if (write) {
                    WorkRequest wr = t.write(pair[0], sgl, sink.va(), sink.remoteToken(), NdkOpFlags.INLINE);
                    // the posting call has returned: the source is the consumer's again
                    src.buffer().put(k, SessionTools.complement(posted));
                    o = t.complete(wr);
                    if (!o.succeeded()) {
                        // INLINE on NdkWrite may be refused (the NdkWrite page does not list it: SGE-3); the same bytes go
                        // through an inline NdkSend on a fresh pair instead
                        sink.buffer().acceptActual(0, n);
                        s.checkMemory("SGE-6", o.call() + " (INLINE refused)");
                        src.buffer().put(k, posted);
                        viaSend = true;
                    }
                }
                WrOutcome ro = null;
                if (viaSend) {
                    QpRef[] via = write ? t.connectedPair(inline) : pair;
                    WorkRequest recv = t.receive(via[1], new NdkSge[]{sink.sge(0, n)}, NdkOperationType.RECEIVE);
                    WorkRequest wr = t.send(via[0], sgl, NdkOpFlags.INLINE);
                    src.buffer().put(k, SessionTools.complement(posted));
                    o = t.complete(wr);
                    if (!o.succeeded()) {
                        sink.buffer().acceptActual(0, n);
                        s.checkMemory("SGE-6", o.call() + " (refused)");
                        Refusals.discardIfRefused(o.status());
                        ChecksReached.notReached("SGE-6", "the INLINE NdkSend failed (SGE-3 judges that), so no bytes reached the peer");
                        return;
                    }
                    ro = t.complete(recv);
                }
                byte[] got = sink.buffer().read(0, n);
                if ((ro != null && !ro.succeeded()) || !Arrays.equals(got, posted)) {
                    throw Violations.of("SGE-6", o.call(), "the peer holds the source bytes as they were when the call returned: "
                                    + Hex.bytes(posted), (ro == null ? "" : "the receive " + ro.describe() + ", ") + "it holds "
                                    + Hex.bytes(got) + " (the kit wrote their complement into the source after the call returned)");
                }
                sink.buffer().expectWrite(0, posted);
                s.checkMemory("SGE-6", o.call());
            }
        });
    }
}
