package org.ndktck.faults;

import java.util.Collections;
import java.util.List;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * Correct but unusual providers in what a CQ entry of a failed or flushed data request carries, each the reference
 * provider with one piece changed (a {@link Hooks}); the kit must give them no FAIL.
 * <ul>
 *   <li>{@code legal:request-errors-any-status}: every NdkRead, NdkWrite, NdkSend or NdkSendAndInvalidate that completes
 *       in error (other than STATUS_CANCELLED from a flush or close) carries STATUS_DATA_ERROR in its CQ entry. No page
 *       gives the status of a failed transfer (RW-7, freedom FREE-TRANSFER-ERROR-STATUS).</li>
 *   <li>{@code legal:flushed-entries-newest-first}: in each NdkGetCqResults(Ex) batch, a run of STATUS_CANCELLED entries
 *       of one QP (what an NdkFlush or close cancels) comes newest first. No page orders completions, and the NdkFlush
 *       page only asks the consumer to drain until it has seen every earlier request (FL-2, freedom
 *       FREE-FLUSH-ORDER).</li>
 * </ul>
 */
public final class LegalCompletionFreedoms {
    private LegalCompletionFreedoms() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(
                Variants.wrapped("legal:request-errors-any-status", "failed NdkRead, NdkWrite, NdkSend and NdkSendAndInvalidate "
                        + "complete with STATUS_DATA_ERROR (not cancelled ones)", RequestErrorsAnyStatus::new),
                Variants.wrapped("legal:flushed-entries-newest-first", "each poll hands out a run of one QP's STATUS_CANCELLED "
                        + "entries newest first", FlushedEntriesNewestFirst::new));
    }

    /** Rewrites the status of a failed transfer's entry to STATUS_DATA_ERROR. */
    static final class RequestErrorsAnyStatus implements Hooks {
        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            return Hooks.mapResults(results, inner, e -> {
                boolean transfer = e.type() == NdkOperationType.READ || e.type() == NdkOperationType.WRITE
                        || e.type() == NdkOperationType.SEND;
                if (!transfer || e.status().isSuccess() || NtStatus.STATUS_CANCELLED.equals(e.status())) {
                    return e;
                }
                return new NdkResultEx(NtStatus.STATUS_DATA_ERROR, e.bytesTransferred(), e.qpContext(), e.requestContext(), e.type(),
                        e.typeSpecificCompletionOutput());
            });
        }
    }

    /** Reverses each run of one QP's STATUS_CANCELLED entries within a batch. */
    static final class FlushedEntriesNewestFirst implements Hooks {
        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            int n = inner.applyAsInt(results);
            int i = 0;
            while (i < n) {
                int j = i;
                while (j < n && NtStatus.STATUS_CANCELLED.equals(results[j].status()) && results[j].qpContext() == results[i].qpContext()) {
                    j++;
                }
                if (j - i >= 2) {
                    Collections.reverse(java.util.Arrays.asList(results).subList(i, j));
                }
                i = Math.max(j, i + 1);
            }
            return n;
        }
    }
}
