package org.ndktck.tck.properties;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.harness.WrOutcome;

/**
 * TR-4: a message longer than the receive it lands in is never delivered cut short with success on both sides.
 * On a connected pair of QPs of its own (so an error state the overrun causes does not reach other checks), the
 * receiver posts one receive of {@code receiveBytes} bytes and the peer sends {@code receiveBytes + extra} bytes
 * from one SGE or two; a send that fails (inline or through its CQ entry) passes, a send that succeeded needs a
 * receive that completes with an error status, and no byte outside the receive's SGE may change.
 */
@NdkKit
public class LongSendProperties {

    /**
     * TR-4: send longer than its receive.
     *
     * @param receiveBytes the receive's one SGE, in bytes (1 to 64)
     * @param extra        bytes the send has beyond that (1 to 64)
     * @param twoSges      the send's bytes come from two SGEs
     */
    @Property(tries = 60)
    @Tag("TR-4")
    void aSendLongerThanItsReceiveIsNeverASuccessOnBothSides(@ForAll @IntRange(min = 1, max = 64) int receiveBytes,
            @ForAll @IntRange(min = 1, max = 64) int extra, @ForAll boolean twoSges) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int sendBytes = receiveBytes + extra;
                QpRef[] pair = t.connectedPair(0, 2);
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                int first = twoSges ? sendBytes / 2 : sendBytes;
                NdkSge[] sgl = twoSges
                        ? new NdkSge[]{src.sge(0, first), src.sge(first + 16, sendBytes - first)}
                        : new NdkSge[]{src.sge(0, sendBytes)};
                WorkRequest recv = t.receive(pair[0], new NdkSge[]{sink.sge(0, receiveBytes)}, NdkOperationType.RECEIVE);
                WorkRequest send = t.send(pair[1], sgl, 0);
                WrOutcome so = t.complete(send);
                // the receive's own bytes may change whatever the outcome; nothing outside them may
                sink.buffer().acceptActual(sink.bufferOffset(), receiveBytes);
                if (so.succeeded()) {
                    WrOutcome ro = t.complete(recv);
                    if (ro.succeeded()) {
                        throw Violations.of("TR-4", so.call() + " of " + sendBytes + " bytes into a receive of " + receiveBytes + " bytes ("
                                        + ro.call() + ")",
                                "an error status for the send or the receive: a message longer than its receive is not delivered cut short",
                                "send: " + so.describe() + "; receive: " + ro.describe());
                    }
                }
                // a send that failed may leave its receive posted: tear-down flushes it
                boolean refusedInline = !NtStatus.STATUS_SUCCESS.equals(so.returned());
                String what = refusedInline ? "after the send was refused inline" : "after the send and receive completed";
                s.checkMemory("TR-4", "a send of " + sendBytes + " bytes into a receive of " + receiveBytes + " bytes, " + what);
            }
        });
    }
}
