package org.ndktck.faults;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.TokenRequest;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Correct but unusual providers written from the NDKPI pages alone, each using a freedom the pages give (freedoms.yaml):
 * the kit must give each of them no FAIL at the standard profile, under both completion modes.
 * <ul>
 *   <li>{@code legal:mixed-completion}: each asynchronous request and create, independently and at random (a fixed
 *       mix of the call's number), either returns its final status inline or returns STATUS_PENDING and completes
 *       later, after 0 to 2 ms, on the provider's own thread; calls of one kind on one object mix both forms. The
 *       pages let every such call complete either way (GEN-CB-1, GEN-CB-3).</li>
 *   <li>{@code legal:undefined-result-fields}: the NDK_RESULT(_EX) fields the pages leave undefined hold garbage:
 *       BytesTransferred (a ULONG, valid only for an NdkReceive completion, NDK_RESULT page) is 0xDEADBEEF on every
 *       entry that is not a successful Receive, and TypeSpecificCompletionOutput (a ULONG_PTR, defined only for
 *       ReceiveAndInvalidate, NDK_RESULT_EX page) is 0xBADC0FFEE0DDF00D on every entry of another type.</li>
 *   <li>{@code legal:high-bit-tokens}: tokens (ULONG, unsigned 32-bit, carried in an int) count down from 0xFFFFFFFF:
 *       every token has the high bit set, so a consumer that reads a token as a signed int sees a negative value.
 *       Token values are the provider's; live tokens stay distinct (MR-TOK-6) and a retired one is handed out again
 *       at once.</li>
 *   <li>{@code legal:zero-token}: MR tokens are the smallest non-negative free values, so the first MR's token is 0;
 *       privileged tokens count down from 0xFFFFFFFF. No page reserves a token value.</li>
 *   <li>{@code legal:privileged-token-matches-other-pd}: each PD numbers its tokens on its own and the privileged
 *       token (NdkGetPrivilegedMemoryRegionToken) of the n-th PD (from 0) is n + 1, so one PD's privileged token is,
 *       as a number, a live MR token of another PD. A token is scoped by the PD of the QP it is used through (NDK_SGE
 *       page), so it reaches only what it grants on its own PD.</li>
 * </ul>
 */
public final class LegalIndependentProviders {
    /** BytesTransferred of an entry whose BytesTransferred the NDK_RESULT page leaves undefined (ULONG in an int). */
    static final int GARBAGE_BYTES = 0xDEADBEEF;
    /** TypeSpecificCompletionOutput of an entry that is not a ReceiveAndInvalidate (ULONG_PTR in a long). */
    static final long GARBAGE_OUTPUT = 0xBADC0FFEE0DDF00DL;

    private LegalIndependentProviders() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(
                Variants.wrapped("legal:mixed-completion", "each asynchronous request and create, at random, returns its "
                        + "final status inline or pends and completes 0 to 2 ms later on the provider's own thread", MixedCompletion::new),
                Variants.wrapped("legal:undefined-result-fields", "CQ entries carry garbage in the fields the pages leave "
                        + "undefined: BytesTransferred of every entry but a successful Receive, TypeSpecificCompletionOutput of "
                        + "every entry but a ReceiveAndInvalidate", UndefinedResultFields::new),
                Variants.builder("legal:high-bit-tokens", "tokens count down from 0xFFFFFFFF, so every token has its high bit "
                                + "set (a retired token is handed out again at once; live tokens stay distinct, MR-TOK-6)")
                        .replace(Pieces.TOKEN_ALLOCATOR, seed -> LegalIndependentProviders::highestFree).build(),
                Variants.builder("legal:zero-token", "MR tokens are the smallest non-negative values not in use, so the "
                                + "first MR's token is 0; privileged tokens count down from 0xFFFFFFFF (no page reserves a token value)")
                        .replace(Pieces.TOKEN_ALLOCATOR, seed -> LegalIndependentProviders::zeroFirst).build(),
                Variants.builder("legal:privileged-token-matches-other-pd", "each PD numbers its tokens on its own and the "
                                + "privileged token of the n-th PD is n + 1, so a PD's privileged token is, as a number, a live MR "
                                + "token of another PD (tokens are scoped by the PD of the QP they are used through)")
                        .replace(Pieces.TOKEN_ALLOCATOR, seed -> LegalIndependentProviders::privilegedByPd).build());
    }

    /**
     * @param request the token request
     * @return the highest token (unsigned 32-bit in an int, counting down from 0xFFFFFFFF) no live holder has
     */
    static int highestFree(TokenRequest request) {
        int t = 0xFFFFFFFF;
        while (request.inUse().test(t)) {
            t--;
        }
        return t;
    }

    /**
     * @param request the token request
     * @return for a privileged token {@link #highestFree}; otherwise the smallest non-negative token no live holder has
     *     (0 first)
     */
    static int zeroFirst(TokenRequest request) {
        if (request.purpose() == org.ndktck.reference.TokenPurpose.PRIVILEGED) {
            return highestFree(request);
        }
        int t = 0;
        while (request.inUse().test(t)) {
            t++;
        }
        return t;
    }

    /**
     * @param request the token request, with its PD's number and the PD's own tokens
     * @return for a privileged token, the PD's number + 1 when that PD holds no such token; otherwise (and for MR
     *     tokens) the smallest positive token no holder of the PD holds
     */
    static int privilegedByPd(TokenRequest request) {
        if (request.purpose() == org.ndktck.reference.TokenPurpose.PRIVILEGED && !request.inUseOnPd().test(request.pd() + 1)) {
            return request.pd() + 1;
        }
        return LegalTokenScopes.smallestFreeOnPd(request);
    }

    /**
     * @param n a call's number, from 1
     * @return true when that call pends (a fixed mix of {@code n}, so runs repeat)
     */
    static boolean pends(long n) {
        long z = n * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 31)) * 0xBF58476D1CE4E5B9L;
        return ((z ^ (z >>> 29)) & 1) == 0;
    }

    /** Inline or pending, at random per call; a pending completion comes 0 to 2 ms later on the delivery thread. */
    static final class MixedCompletion implements Hooks {
        private final AtomicLong calls = new AtomicLong();
        private ForwardingAdapter adapter;

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        private boolean deliverLater(Runnable completion) {
            long n = calls.incrementAndGet();
            if (!pends(n)) {
                return false;
            }
            long delay = n % 3;
            adapter.deliveries().submit(() -> {
                if (delay > 0) {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                completion.run();
            });
            return true;
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            return Await.completeLater(inner, completion, context, this::deliverLater);
        }

        @Override
        public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                            CreateCall<T> inner) {
            return Await.createLater(inner, completion, context, this::deliverLater);
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            adapter.deliveries().quiesce();
            return inner.invoke(completion, context);
        }
    }

    /** Garbage in the NDK_RESULT(_EX) fields the pages leave undefined. */
    static final class UndefinedResultFields implements Hooks {
        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, java.util.function.ToIntFunction<NdkResultEx[]> inner) {
            return Hooks.mapResults(results, inner, UndefinedResultFields::garble);
        }

        /**
         * @param e an entry as the wrapped CQ gives it
         * @return the same entry with garbage in BytesTransferred unless it is a successful Receive, and in
         *     TypeSpecificCompletionOutput unless it is a ReceiveAndInvalidate
         */
        static NdkResultEx garble(NdkResultEx e) {
            boolean receive = e.type() == NdkOperationType.RECEIVE || e.type() == NdkOperationType.RECEIVE_AND_INVALIDATE;
            boolean bytesDefined = receive && NtStatus.STATUS_SUCCESS.equals(e.status());
            boolean outputDefined = e.type() == NdkOperationType.RECEIVE_AND_INVALIDATE;
            return new NdkResultEx(e.status(), bytesDefined ? e.bytesTransferred() : GARBAGE_BYTES, e.qpContext(), e.requestContext(),
                    e.type(), outputDefined ? e.typeSpecificCompletionOutput() : GARBAGE_OUTPUT);
        }
    }
}
