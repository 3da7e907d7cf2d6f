package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.List;

/**
 * Properties of NdkSend and NdkSendAndInvalidate and of the receive completions they produce (catalog section
 * "NdkSend and NdkSendAndInvalidate" and CQ-6; the NDK_FN_SEND, NDK_FN_SEND_AND_INVALIDATE, NDK_RESULT and
 * NDK_RESULT_EX pages; from the page audit). SND-3 (remote invalidation only with a peer that supports it) binds the
 * kit, which sends with NdkSendAndInvalidate only between QPs of the provider under test.
 */
@NdkKit
public class SendProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;

    /**
     * SND-1: NdkSend, or NdkSendAndInvalidate naming a live fast-registered token of the target, posted with a
     * registered source of the target PD on a QP that was never connected, fails inline (any error; one other
     * than STATUS_CONNECTION_INVALID is an ADVISORY finding) and leaves no CQ entry (DEF-2, checked when the
     * CQs are drained).
     */
    @Property(tries = 50, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SND-1")
    void aSendOnAnUnconnectedQpFails(@ForAll boolean andInvalidate, @ForAll @IntRange(min = 1, max = 64) int n) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered src = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                NdkSge[] sgl = {src.sge(0, n)};
                WorkRequest wr;
                if (andInvalidate) {
                    FastRegion r = t.fastRegistered(1, 0, RW, true);
                    wr = t.sendAndInvalidate(t.unconnected(), sgl, r.token(), 0);
                } else {
                    wr = t.send(t.unconnected(), sgl, 0);
                }
                if (NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                    throw Violations.of("SND-1", wr.detail(), "an inline failure (STATUS_CONNECTION_INVALID) on a QP that was never connected",
                            "returned STATUS_SUCCESS");
                }
                if (!NtStatus.STATUS_CONNECTION_INVALID.equals(wr.returned())) {
                    Violations.advisory("SND-1", wr.detail(), NtStatus.STATUS_CONNECTION_INVALID.toString(), "returned " + wr.returned());
                }
                s.drain(s.target());
            }
        });
    }

    /**
     * SND-2: with a receive posted at the target, an NdkSend or an NdkSendAndInvalidate (naming a live
     * fast-registered token of the target) posted at the peer returns STATUS_SUCCESS and completes with exactly
     * one entry on the peer's initiator CQ with STATUS_SUCCESS and, read with NdkGetCqResultsEx, Type
     * NdkOperationTypeSend (2); the receive completes with success. The harness charges a wrong Type of any
     * send entry it drains to SND-2.
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SND-2")
    void anAcceptedSendCompletesAsSend(@ForAll boolean andInvalidate, @ForAll @IntRange(min = 1, max = 64) int n) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                NdkSge[] sgl = {src.sge(0, n)};
                WorkRequest recv;
                WorkRequest send;
                if (andInvalidate) {
                    FastRegion r = t.fastRegistered(1, 0, RW, true);
                    recv = t.receive(t.target(), new NdkSge[]{sink.sge(0, p)}, NdkOperationType.RECEIVE_AND_INVALIDATE);
                    send = t.sendAndInvalidate(t.peer(), sgl, r.token(), 0);
                } else {
                    recv = t.receive(t.target(), new NdkSge[]{sink.sge(0, p)}, NdkOperationType.RECEIVE);
                    send = t.send(t.peer(), sgl, 0);
                }
                if (!NtStatus.STATUS_SUCCESS.equals(send.returned())) {
                    throw Violations.of("SND-2", send.detail(), "STATUS_SUCCESS for a send on a connected QP with a receive waiting",
                            "returned " + send.returned());
                }
                WrOutcome so = t.complete(send);
                if (so.entry() == null || !so.succeeded()) {
                    throw Violations.of("SND-2", so.call(), "one CQ entry with STATUS_SUCCESS at the sender", so.describe());
                }
                if (so.entry().type() != NdkOperationType.SEND) {
                    throw Violations.of("SND-2", so.call(), "NDK_RESULT_EX.Type = NdkOperationTypeSend (2) at the sender", "Type = " + so.entry().type());
                }
                WrOutcome ro = t.complete(recv);
                if (!ro.succeeded()) {
                    throw Violations.of("SND-2", ro.call(), "the receive of the send completes with STATUS_SUCCESS", ro.describe());
                }
                sink.buffer().acceptActual(0, n);
                s.drain(s.peer());
            }
        });
    }

    /**
     * CQ-6: a message of {@code n} bytes (1 to 64; NdkSend, or NdkSendAndInvalidate naming a live
     * fast-registered token) sent into a receive of one page completes the receive on the target's receive CQ
     * with STATUS_SUCCESS and BytesTransferred = n; half the tries drain with NdkGetCqResults instead of
     * NdkGetCqResultsEx.
     */
    @Property(tries = 100, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("CQ-6")
    void aReceiveReportsTheBytesItReceived(@ForAll boolean andInvalidate, @ForAll boolean plain,
                                           @ForAll @IntRange(min = 1, max = 64) int n) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                NdkSge[] sgl = {src.sge(0, n)};
                WorkRequest recv;
                WorkRequest send;
                if (andInvalidate) {
                    FastRegion r = t.fastRegistered(1, 0, RW, true);
                    recv = t.receive(t.target(), new NdkSge[]{sink.sge(0, p)}, NdkOperationType.RECEIVE_AND_INVALIDATE);
                    send = t.sendAndInvalidate(t.peer(), sgl, r.token(), 0);
                } else {
                    recv = t.receive(t.target(), new NdkSge[]{sink.sge(0, p)}, NdkOperationType.RECEIVE);
                    send = t.send(t.peer(), sgl, 0);
                }
                WrOutcome so = t.complete(send);
                if (!so.succeeded()) {
                    throw Violations.of("CQ-6", so.call(), "STATUS_SUCCESS for a send into a waiting receive", so.describe());
                }
                if (plain) {
                    long start = System.nanoTime();
                    while (recv.entry() == null) {
                        List<NdkResult> got = s.drainPlain(s.target().receiveCq());
                        if (recv.entry() == null && got.isEmpty() && s.bounds().completionExpired(start)) {
                            throw Violations.of("CQ-6", recv.detail(), "a CQ entry (NdkGetCqResults) within " + s.bounds().describeCompletionBound(), "none");
                        }
                        Thread.onSpinWait();
                    }
                } else {
                    t.awaitEntry(recv, "CQ-6", "the receive's CQ entry (NdkGetCqResultsEx)");
                }
                sink.buffer().acceptActual(0, n);
                if (!NtStatus.STATUS_SUCCESS.equals(recv.entry().status())) {
                    throw Violations.of("CQ-6", recv.detail(), "STATUS_SUCCESS for the receive of a " + n + "-byte message",
                            "status " + recv.entry().status());
                }
                long got = Integer.toUnsignedLong(recv.entry().bytesTransferred());
                if (got != n) {
                    throw Violations.of("CQ-6", recv.detail() + " met by " + so.call(), "BytesTransferred = " + n + " (the message length)",
                            "BytesTransferred = " + got);
                }
                s.drain(s.target());
            }
        });
    }
}
