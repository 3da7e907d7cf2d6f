package org.ndktck.faults;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * Faults in what NDK_OP_FLAG_INLINE (0x40) promises, each the reference provider with one piece changed (a
 * {@link Hooks}), named after the rule the kit must FAIL.
 * <ul>
 *   <li>{@code fault:SGE-5/inline-send-held-to-sge-limit}: an INLINE NdkSend or NdkSendAndInvalidate with more SGEs
 *       than the QP's MaxInitiatorRequestSge fails inline with STATUS_INVALID_PARAMETER, although the NdkSend page frees
 *       INLINE requests from that limit.</li>
 *   <li>{@code fault:SGE-6/inline-bytes-read-at-doorbell}: an INLINE request is queued in the driver and handed to the
 *       adapter (which then reads the source bytes) only at the next post on the same QP or the next poll of any CQ, as
 *       a driver that batches doorbells does; the posting call returns STATUS_SUCCESS at once, so bytes the consumer
 *       writes into the source after the return are the ones sent.</li>
 * </ul>
 */
public final class InlineFaults implements NdkProviderSource {

    @Override
    public Collection<NdkProvider> providers() {
        return List.of(
                Variants.wrapped("fault:SGE-5/inline-send-held-to-sge-limit", "an INLINE NdkSend with more SGEs than the QP's "
                        + "MaxInitiatorRequestSge fails inline with STATUS_INVALID_PARAMETER", InlineSendHeldToSgeLimit::new),
                Variants.wrapped("fault:SGE-6/inline-bytes-read-at-doorbell", "an INLINE request reaches the adapter, which reads its "
                        + "source bytes, only at the next post on its QP or the next CQ poll", InlineBytesReadAtDoorbell::new));
    }

    /** Refuses an INLINE send whose SGL is longer than the QP's MaxInitiatorRequestSge. */
    static final class InlineSendHeldToSgeLimit implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            boolean send = w.call() == NdkCall.SEND || w.call() == NdkCall.SEND_AND_INVALIDATE;
            if (send && (w.flags() & NdkOpFlags.INLINE) != 0 && w.sgl() != null
                    && Integer.compareUnsigned(w.sgl().length, qp.maxInitiatorRequestSge()) > 0) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            return inner.apply(w);
        }
    }

    /** Holds INLINE requests back until the next post on their QP or the next CQ poll. */
    static final class InlineBytesReadAtDoorbell implements Hooks {
        private final Deque<Runnable> held = new ArrayDeque<>();

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            ring();
            if ((w.flags() & NdkOpFlags.INLINE) != 0 && w.call() != NdkCall.RECEIVE) {
                synchronized (held) {
                    held.add(() -> inner.apply(w));
                }
                return NtStatus.STATUS_SUCCESS;
            }
            return inner.apply(w);
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            ring();
            return inner.applyAsInt(results);
        }

        private void ring() {
            while (true) {
                Runnable next;
                synchronized (held) {
                    next = held.poll();
                }
                if (next == null) {
                    return;
                }
                next.run();
            }
        }
    }
}
