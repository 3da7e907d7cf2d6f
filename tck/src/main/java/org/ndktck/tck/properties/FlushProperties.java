package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;

/**
 * Properties of NdkFlush (catalog section "NdkFlush"; the NDK_FN_FLUSH page). FL-2 (confirm a flush by
 * draining) is informational; the kit does it.
 */
@NdkKit
public class FlushProperties {

    /**
     * FL-1: receives that no peer will satisfy ({@code receives} of them) and sends the peer has no receive
     * for ({@code sends} of them) are pending on the target's QP; after NdkFlush every receive completes
     * exactly once with STATUS_CANCELLED, and every send exactly once with STATUS_SUCCESS or
     * STATUS_CANCELLED, within the completion bound. The receive buffers are unchanged.
     *
     * <p>TR-1: the sends find no receive at the peer, so the kit relies on their waiting (the transport reading of
     * AMB-31). A send whose CQ entry is already there before the flush with an error status failed for want of a
     * receive: TR-1 is broken, not FL-1. After the flush, a status other than STATUS_CANCELLED or STATUS_SUCCESS
     * is FL-1's. Over a transport that ends the connection instead (the adapter reports iWARP,
     * {@link org.ndktck.spec.NdkAdapter#rdmaTechnology()}), an error entry of such a send is what the transport
     * promises; the connection's end then completes every pending request, each exactly once, a receive with an
     * error status and no byte changed.
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("FL-1")
    @Tag("TR-1")
    void flushCancelsWhatIsPending(@ForAll @IntRange(min = 1, max = 8) int receives, @ForAll @IntRange(min = 0, max = 4) int sends) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                List<WorkRequest> rq = new ArrayList<>();
                for (int i = 0; i < receives; i++) {
                    WorkRequest wr = t.receive(t.target(), new NdkSge[]{sink.sge((long) i * 64, 64)}, NdkOperationType.RECEIVE);
                    if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        throw Violations.of("FL-1", wr.detail(), "STATUS_SUCCESS for a valid receive", "returned " + wr.returned());
                    }
                    rq.add(wr);
                }
                List<WorkRequest> iq = new ArrayList<>();
                for (int i = 0; i < sends; i++) {
                    WorkRequest wr = t.send(t.target(), new NdkSge[]{sink.sge(p / 2 + (long) i * 16, 16)}, 0);
                    if (NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        iq.add(wr);
                    }
                }
                s.drain(s.target());
                // the transport the adapter declares (NdkAdapter.rdmaTechnology): over iWARP a send that finds no
                // receive ends the connection, so an error entry before the flush is what that transport promises,
                // and the flush then meets requests the connection's end already completed (any status but success
                // for a receive, which got no bytes)
                boolean iwarp = s.adapter().rdmaTechnology() == org.ndktck.spec.NdkRdmaTechnology.IWARP;
                boolean ended = iwarp && iq.stream().anyMatch(wr -> wr.entry() != null && wr.entry().status().isError());
                for (WorkRequest wr : iq) {
                    if (!iwarp && wr.entry() != null && wr.entry().status().isError()) {
                        throw Violations.of("TR-1", wr.detail() + " to a peer that has posted no receive, before any NdkFlush",
                                "the send waits for a receive, or for a flush or close of its QP (the kit's reading, AMB-31)",
                                "a CQ entry with status " + wr.entry().status() + " before the flush");
                    }
                }
                s.invoker().run("NdkFlush", () -> "NdkFlush(target QP)", () -> s.target().qp().flush());
                // the sends first: over iWARP a send's error (the connection's end) may arrive only now, when the
                // provider completes on its own thread, and it decides how the receives may end
                List<NtStatus> sent = new ArrayList<>();
                for (WorkRequest wr : iq) {
                    sent.add(t.awaitEntry(wr, "FL-1", "after NdkFlush a CQ entry for every pending initiator request"));
                }
                boolean over = ended || iwarp && sent.stream().anyMatch(NtStatus::isError);
                for (WorkRequest wr : rq) {
                    NtStatus st = t.awaitEntry(wr, "FL-1", "after NdkFlush a CQ entry with STATUS_CANCELLED for every pending receive");
                    if (over ? !st.isError() : !NtStatus.STATUS_CANCELLED.equals(st)) {
                        throw Violations.of("FL-1", wr.detail() + ", then NdkFlush()", over
                                ? "a CQ entry with an error status (the connection ended, iWARP)" : "a CQ entry with STATUS_CANCELLED", "status " + st);
                    }
                }
                for (int i = 0; i < iq.size(); i++) {
                    NtStatus st = sent.get(i);
                    if (!over && !NtStatus.STATUS_CANCELLED.equals(st) && !NtStatus.STATUS_SUCCESS.equals(st)) {
                        throw Violations.of("FL-1", iq.get(i).detail() + ", then NdkFlush()", "a CQ entry with STATUS_SUCCESS or STATUS_CANCELLED", "status " + st);
                    }
                }
                s.drain(s.target());
                s.checkMemory("FL-1", "receives flushed by NdkFlush");
            }
        });
    }

    /**
     * FL-1 and DEF-3 with deferred requests: the target posts {@code writes} NdkWrite requests (1 to 4, each of
     * {@code n} bytes, 1 to 64, into its own slot of a peer region) with NDK_OP_FLAG_DEFER, so the provider may still
     * hold them back, then calls NdkFlush, then ends the chain with an NdkWrite without DEFER (DEF-5 binds the kit:
     * a chain ends with a request without the flag). Every request whose post returned STATUS_SUCCESS gets exactly
     * one CQ entry (the deferred-processing page: a successful post always completes once the consumer ends its
     * chain; DEF-3), with STATUS_SUCCESS (it ran before the flush) or STATUS_CANCELLED (the flush cancelled it,
     * FL-1; the request that ends the chain, posted after the flush, may end with any error status). A write that
     * succeeded moved its bytes; a cancelled one may have moved them or not, and nothing outside
     * the slots changes. A provider that throws held requests away at a flush loses their completions. On an adapter
     * older than NDKPI 1.2 the property is NOT_APPLICABLE (DEFER needs 1.2, DEF-5; DEF-3 requires it).
     *
     * @param writes deferred writes before the flush
     * @param n      bytes per write
     */
    @Property(tries = 60, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("FL-1")
    @Tag("DEF-3")
    void deferredRequestsHeldAtAFlushStillCompleteOnce(@ForAll @IntRange(min = 1, max = 4) int writes,
            @ForAll @IntRange(min = 1, max = 64) int n) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered src = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                Registered dst = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                List<WorkRequest> posted = new ArrayList<>();
                List<Integer> slots = new ArrayList<>();
                for (int i = 0; i <= writes; i++) {
                    long off = (long) i * 64;
                    boolean last = i == writes;
                    WorkRequest wr = t.write(t.target(), new NdkSge[]{src.sge(off, n)}, dst.va() + off, dst.remoteToken(),
                            last ? 0 : NdkOpFlags.DEFER);
                    if (NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        posted.add(wr);
                        slots.add(i);
                    } else if (!last && !NtStatus.STATUS_PENDING.equals(wr.returned())) {
                        // an inline failure of a valid request before the flush: DEF-4 and the posting rules judge it;
                        // the chain ended there (the page's example), so the kit posts nothing more of it
                        break;
                    }
                    if (i == writes - 1) {
                        s.invoker().run("NdkFlush", () -> "NdkFlush(target QP)", () -> s.target().qp().flush());
                    }
                }
                for (int k = 0; k < posted.size(); k++) {
                    WorkRequest wr = posted.get(k);
                    long off = (long) slots.get(k) * 64;
                    String what = wr.detail() + (slots.get(k) < writes
                            ? " with DEFER, then NdkFlush of its QP and a request without DEFER that ends the chain"
                            : " posted after NdkFlush (it ends the chain)");
                    NtStatus st = t.awaitEntry(wr, "DEF-3", "a CQ entry for every request whose post returned STATUS_SUCCESS: " + what);
                    byte[] data = src.buffer().expected(src.bufferOffset() + off, n);
                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                        byte[] landed = dst.buffer().read(dst.bufferOffset() + off, n);
                        if (!Arrays.equals(landed, data)) {
                            throw Violations.of("FL-1", what, "the written bytes at the peer (the write completed with STATUS_SUCCESS)",
                                    org.ndktck.tck.harness.Hex.differing(data, landed, off, "region byte"));
                        }
                        dst.buffer().expectWrite(dst.bufferOffset() + off, data);
                    } else if (NtStatus.STATUS_CANCELLED.equals(st) || slots.get(k) == writes && st.isError()) {
                        // the flush cancelled it; or it is the request that ends the chain, posted to a flushed QP,
                        // for which the page names no status: any error, with its bytes moved or not
                        dst.buffer().acceptActual(dst.bufferOffset() + off, n);
                    } else {
                        throw Violations.of("FL-1", what, "a CQ entry with STATUS_SUCCESS or STATUS_CANCELLED", "status " + st);
                    }
                }
                s.drain(s.target());
                s.checkMemory("FL-1", "deferred writes met by NdkFlush");
            }
        });
    }
}
