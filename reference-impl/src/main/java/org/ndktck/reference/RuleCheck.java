package org.ndktck.reference;

import org.ndktck.spec.NtStatus;

/**
 * One validation rule of the reference model: looks at a request and says whether the rule lets it through.
 *
 * <p>A check is a small, pure function of its request record (no side effects, no locks, never throws for
 * any value in the request). The model evaluates the checks of one stage (for example
 * {@link Pieces#FAST_REGISTER}) in order and stops at the first one that does not return STATUS_SUCCESS; that
 * status becomes the call's result (inline) or the work request's completion status. A faulty variant
 * replaces one check by its ID (see {@link ReferenceProvider.Builder#replace(Piece, Object)}).
 *
 * @param <Q> the request record the check reads, e.g. {@link FastRegisterRequest}
 */
@FunctionalInterface
public interface RuleCheck<Q> {
    /**
     * @param request the request, with every numeric field as the consumer passed it (unsigned values in
     *                ints and longs, read with {@link Integer#toUnsignedLong} and {@link Long#compareUnsigned})
     * @return {@link NtStatus#STATUS_SUCCESS} when the rule lets the request through, otherwise the error
     *     status the request fails with (never STATUS_PENDING)
     */
    NtStatus check(Q request);

    /**
     * @param <Q> the request type
     * @return a check that lets every request through (the simplest faulty replacement: the rule is not checked)
     */
    static <Q> RuleCheck<Q> pass() {
        return request -> NtStatus.STATUS_SUCCESS;
    }
}
