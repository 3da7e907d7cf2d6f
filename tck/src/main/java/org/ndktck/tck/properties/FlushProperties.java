package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

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
}
