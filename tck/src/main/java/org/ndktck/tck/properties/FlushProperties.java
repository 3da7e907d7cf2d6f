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
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("FL-1")
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
                s.invoker().run("NdkFlush", () -> "NdkFlush(target QP)", () -> s.target().qp().flush());
                for (WorkRequest wr : rq) {
                    NtStatus st = t.awaitEntry(wr, "FL-1", "after NdkFlush a CQ entry with STATUS_CANCELLED for every pending receive");
                    if (!NtStatus.STATUS_CANCELLED.equals(st)) {
                        throw Violations.of("FL-1", wr.detail() + ", then NdkFlush()", "a CQ entry with STATUS_CANCELLED", "status " + st);
                    }
                }
                for (WorkRequest wr : iq) {
                    NtStatus st = t.awaitEntry(wr, "FL-1", "after NdkFlush a CQ entry for every pending initiator request");
                    if (!NtStatus.STATUS_CANCELLED.equals(st) && !NtStatus.STATUS_SUCCESS.equals(st)) {
                        throw Violations.of("FL-1", wr.detail() + ", then NdkFlush()", "a CQ entry with STATUS_SUCCESS or STATUS_CANCELLED", "status " + st);
                    }
                }
                s.drain(s.target());
                s.checkMemory("FL-1", "receives flushed by NdkFlush");
            }
        });
    }
}
