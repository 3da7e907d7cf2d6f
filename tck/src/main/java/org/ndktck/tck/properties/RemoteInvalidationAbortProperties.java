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
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.concurrent.locks.LockSupport;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * INV-6 (the NDK_FN_SEND_AND_INVALIDATE page; from the page audit): a SendAndInvalidate that names a token which is not
 * valid at the receiver aborts the connection there. Each try uses a connected pair of QPs of its own, so the
 * aborted connection is not the session's.
 */
@NdkKit
public class RemoteInvalidationAbortProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;

    /**
     * INV-6: on its own connected pair, the property fast-registers a target region, invalidates it (awaited),
     * posts a receive at the target side of the pair and has the peer side send {@code n} bytes with
     * NdkSendAndInvalidate naming the dead token. The send may end in any way; the receive must not complete
     * with STATUS_SUCCESS (it may fail or stay pending). Then the connection must be unusable: an NdkWrite of
     * the peer side with a valid token into a live target region must not complete with success, and no byte of
     * that region may change.
     */
    @Property(tries = 50, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("INV-6")
    void anInvalidTokenAbortsTheConnection(@ForAll @IntRange(min = 1, max = 4) int pages, @ForAll @IntRange(min = 1, max = 64) int n) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                FastRegion dead = t.fastRegistered(pages, 0, RW, true);
                Registered live = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                QpRef[] pair = t.connectedPair(0);
                WrOutcome inv = s.invalidate(dead.mr(), 0);
                if (!inv.succeeded()) {
                    throw Violations.of("INV-3", inv.call(), "STATUS_SUCCESS for the invalidation of a fast-registered MR", inv.describe());
                }
                String why = " naming the token " + u32(dead.token()) + " of a fast registration the target invalidated (" + inv.call() + ")";
                WorkRequest recv = t.receive(pair[0], new NdkSge[]{sink.sge(0, p)}, NdkOperationType.RECEIVE_AND_INVALIDATE);
                WorkRequest send = t.sendAndInvalidate(pair[1], new NdkSge[]{src.sge(0, n)}, dead.token(), 0);
                if (NtStatus.STATUS_SUCCESS.equals(send.returned())) {
                    t.complete(send);
                }
                long start = System.nanoTime();
                while (recv.entry() == null && !s.bounds().completionExpired(start)) {
                    s.drainFor(recv);
                    LockSupport.parkNanos(200_000L);
                }
                sink.buffer().acceptActual(0, p);
                if (recv.entry() != null && NtStatus.STATUS_SUCCESS.equals(recv.entry().status())) {
                    throw Violations.of("INV-6", recv.detail() + " met by " + send.detail() + why,
                            "no successful receive: the receiver aborts the connection", "the receive completed with STATUS_SUCCESS");
                }
                WorkRequest w = t.write(pair[1], new NdkSge[]{src.sge(0, n)}, live.va(), live.remoteToken(), 0);
                if (NtStatus.STATUS_SUCCESS.equals(w.returned())) {
                    WrOutcome wo = t.complete(w);
                    if (wo.succeeded()) {
                        throw Violations.of("INV-6", wo.call() + " after " + send.detail() + why,
                                "an error: the connection was aborted by the invalid token", "the write succeeded");
                    }
                }
                s.checkMemory("INV-6", w.detail() + " after " + send.detail() + why);
            }
        });
    }
}
