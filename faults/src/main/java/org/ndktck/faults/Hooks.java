package org.ndktck.faults;

import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The points where a misbehaving (or a legal but unusual) provider departs from the reference provider it
 * wraps. A {@link ForwardingAdapter} and the PD, MR, QP and CQ wrappers it hands out route every SPI call
 * through one {@code Hooks} object per adapter; each default passes the call on unchanged, so an
 * implementation overrides only the points it changes. Objects handed to hooks are already wrapped. This is
 * the one wrapping framework of the fault catalogue: every fault that is not a replaced piece of the reference
 * model ({@code ReferenceProvider.Builder#replace}) is a {@code Hooks} implementation, made with
 * {@link Variants#wrapped}. State a hook keeps for one object goes in {@link ForwardingObject#state}.
 *
 * <p>The order for one call: {@link #call} wraps everything; inside it {@link #request}, {@link #create},
 * {@link #close}, {@link #post} or {@link #results} decide what the wrapped provider is given and how its
 * result and completion reach the consumer; {@link #createMr} and {@link #buildLam} see the arguments of
 * those calls first and pass on to {@link #create} and {@link #request}.
 */
public interface Hooks {

    /** An asynchronous request (NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr, NdkBuildLam) of the wrapped provider. */
    @FunctionalInterface
    interface RequestCall {
        /**
         * @param completion the completion to give the wrapped provider (may be null for NdkBuildLam)
         * @param context    the request context to give it
         * @return what the wrapped provider returned
         */
        NtStatus invoke(RequestCompletion completion, Object context);
    }

    /**
     * A create call of the wrapped provider; the object of the result and of the completion is already wrapped.
     *
     * @param <T> the object type
     */
    @FunctionalInterface
    interface CreateCall<T extends NdkObject> {
        /**
         * @param completion the completion to give the wrapped provider
         * @param context    the create context
         * @return what the wrapped provider returned
         */
        CreateResult<T> invoke(CreateCompletion<T> completion, Object context);
    }

    /** A close call of the wrapped provider. */
    @FunctionalInterface
    interface CloseCall {
        /**
         * @param completion the completion to give the wrapped provider
         * @param context    the close context
         * @return what the wrapped provider returned (STATUS_SUCCESS or STATUS_PENDING for a conforming one)
         */
        NtStatus invoke(CloseCompletion completion, Object context);
    }

    /**
     * Called once when the adapter wrapper is made, before any call.
     *
     * @param adapter the wrapper the kit will see
     */
    default void attach(ForwardingAdapter adapter) {
    }

    /**
     * Wraps every SPI call, whatever its kind (the place for a call that blocks, sleeps or throws).
     *
     * @param call   the call
     * @param target the (wrapped) object the call is made on; the adapter wrapper for adapter calls
     * @param body   passes the call on (through the more specific hooks)
     * @param <T>    the call's result type ({@code Void} for void calls)
     * @return the call's result
     */
    default <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
        return body.get();
    }

    /**
     * An asynchronous request.
     *
     * @param call       which request
     * @param target     the (wrapped) MR, or the adapter wrapper for NdkBuildLam
     * @param completion the consumer's completion (null only for NdkBuildLam)
     * @param context    the consumer's request context
     * @param inner      passes the request to the wrapped provider
     * @return the status the consumer sees
     */
    default NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
        return inner.invoke(completion, context);
    }

    /**
     * A create (NdkCreatePd, NdkCreateCq, NdkCreateMr, NdkCreateQp).
     *
     * @param call       which create
     * @param parent     the (wrapped) object that creates: the adapter wrapper for PDs and CQs, the PD for MRs and QPs
     * @param completion the consumer's completion
     * @param context    the consumer's create context
     * @param inner      passes the create to the wrapped provider
     * @param <T>        the object type
     * @return the result the consumer sees
     */
    default <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion,
                                                         Object context, CreateCall<T> inner) {
        return inner.invoke(completion, context);
    }

    /**
     * NdkCreateMr with its FastRegister argument; by default it passes on to {@link #create}.
     *
     * @param pd           the (wrapped) PD
     * @param fastRegister the FastRegister argument
     * @param completion   the consumer's completion
     * @param context      the consumer's create context
     * @param inner        passes the create to the wrapped provider
     * @return the result the consumer sees
     */
    default CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fastRegister, CreateCompletion<NdkMr> completion, Object context,
                                         CreateCall<NdkMr> inner) {
        return create(NdkCall.CREATE_MR, pd, completion, context, inner);
    }

    /**
     * NdkBuildLam with its LAM; by default it passes on to {@link #request}.
     *
     * @param adapter    the adapter wrapper
     * @param mdl        the consumer's first MDL (before {@link #mdl})
     * @param lam        the consumer's NDK_LOGICAL_ADDRESS_MAPPING (LAMSize in bytes, FBO, AdapterContext)
     * @param completion the consumer's completion (may be null)
     * @param context    the consumer's request context
     * @param inner      passes the request to the wrapped provider
     * @return the status the consumer sees
     */
    default NtStatus buildLam(ForwardingAdapter adapter, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion completion, Object context,
                              RequestCall inner) {
        return request(NdkCall.BUILD_LAM, adapter, completion, context, inner);
    }

    /**
     * NdkReleaseLam.
     *
     * @param lam   the consumer's LAM
     * @param inner releases it in the wrapped provider
     */
    default void releaseLam(NdkLogicalAddressMapping lam, Runnable inner) {
        inner.run();
    }

    /**
     * A close of a PD, MR, QP or CQ.
     *
     * @param call       which close
     * @param object     the (wrapped) object being closed
     * @param completion the consumer's completion
     * @param context    the consumer's close context
     * @param inner      passes the close to the wrapped provider
     * @return the status the consumer sees
     */
    default NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
        return inner.invoke(completion, context);
    }

    /**
     * The two CQs NdkCreateQp passes on to the wrapped PD.
     *
     * @param receiveCq   the consumer's ReceiveCq
     * @param initiatorCq the consumer's InitiatorCq
     * @return {ReceiveCq, InitiatorCq} as the wrapped provider gets them; by default unchanged
     */
    default NdkCq[] qpCqs(NdkCq receiveCq, NdkCq initiatorCq) {
        return new NdkCq[]{receiveCq, initiatorCq};
    }

    /**
     * A work request (NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate, NdkReceive).
     *
     * @param qp      the QP it is posted on
     * @param request the request and its arguments
     * @param inner   posts a request (this one or a changed copy) on the wrapped QP
     * @return the status the consumer sees
     */
    default NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
        return inner.apply(request);
    }

    /**
     * NdkGetCqResultsEx, and NdkGetCqResults (which hands out {@link NdkResultEx#toResult()} of the same entries).
     *
     * @param cq      the (wrapped) CQ
     * @param results the consumer's array
     * @param inner   fills an array from the wrapped CQ (after the entries {@link ForwardingCq#inject}ed) and
     *                returns how many it filled
     * @return how many entries the consumer gets
     */
    default int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
        return inner.applyAsInt(results);
    }

    /**
     * The NDK_ADAPTER_INFO the consumer reads (NdkQueryAdapterInfo).
     *
     * @param info the wrapped provider's
     * @return the one the consumer sees
     */
    /**
     * Called after connectLoopback connected two QPs (with STATUS_SUCCESS).
     *
     * @param a one QP, as the kit passed it (a {@link ForwardingQp})
     * @param b the other
     */
    default void connected(NdkQp a, NdkQp b) {
    }

    default NdkAdapterInfo adapterInfo(NdkAdapterInfo info) {
        return info;
    }

    /**
     * The MDL chain the wrapped provider is given (NdkRegisterMr, NdkBuildLam); a fault may hand it another
     * chain, for example one whose page frames come from the virtual address.
     *
     * @param call which call
     * @param mdl  the consumer's first MDL (may be null)
     * @return the first MDL the wrapped provider sees
     */
    default Mdl mdl(NdkCall call, Mdl mdl) {
        return mdl;
    }

    /**
     * The Length the wrapped provider is given for an NdkRegisterMr; a fault may register less than the consumer
     * asked for (a Length clamped to a maximum, or cut to 32 bits) and still report the provider's success.
     *
     * @param mr     the wrapped MR
     * @param length the consumer's Length (SIZE_T in a long, unsigned)
     * @return the Length the wrapped provider sees; by default unchanged
     */
    default long registerLength(ForwardingMr mr, long length) {
        return length;
    }

    /**
     * The Flags the wrapped provider is given for an NdkRegisterMr; a provider that ignores undefined bits
     * may clear them here.
     *
     * @param mr    the wrapped MR
     * @param flags the consumer's NDK_MR_FLAG_* bits (ULONG in an int)
     * @return the Flags the wrapped provider sees; by default unchanged
     */
    default int registerFlags(ForwardingMr mr, int flags) {
        return flags;
    }

    /**
     * The header the consumer reads.
     *
     * @param object the wrapped object
     * @param header the wrapped provider's header
     * @return the header the consumer sees
     */
    default NdkObjectHeader header(NdkObject object, NdkObjectHeader header) {
        return header;
    }

    /**
     * A token the consumer reads (NdkGetLocalTokenFromMr, NdkGetRemoteTokenFromMr).
     *
     * @param call  which getter
     * @param mr    the wrapped MR
     * @param token the wrapped provider's token (UINT32 in an int)
     * @return the token the consumer sees
     */
    default int token(NdkCall call, ForwardingMr mr, int token) {
        return token;
    }

    /**
     * Passes a request on with a completion that reports {@code map(status)}, and returns {@code map} of the
     * status it returns inline (STATUS_PENDING is passed through unchanged): for faults that change, or act on,
     * a request's final status however it arrives.
     *
     * @param inner      the wrapped request
     * @param completion the consumer's completion
     * @param context    the consumer's request context
     * @param map        the status the consumer sees for a final status (may act on it and return it unchanged)
     * @return what the consumer sees inline
     */
    static NtStatus mapStatus(RequestCall inner, RequestCompletion completion, Object context, UnaryOperator<NtStatus> map) {
        NtStatus r = inner.invoke((x, st) -> completion.complete(x, map.apply(st)), context);
        return r == null || r.isPending() ? r : map.apply(r);
    }

    /**
     * A {@link #results} that rewrites or drops entries: it reads from {@code inner} until the consumer's array is
     * full or the wrapped CQ has nothing more, keeping {@code map(entry)} of each entry unless it is null.
     *
     * @param results the consumer's array
     * @param inner   the wrapped CQ's result call
     * @param map     the entry the consumer gets, or null to drop it
     * @return how many entries the consumer gets
     */
    static int mapResults(NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner, Function<NdkResultEx, NdkResultEx> map) {
        int out = 0;
        while (out < results.length) {
            NdkResultEx[] got = new NdkResultEx[results.length - out];
            int n = inner.applyAsInt(got);
            int kept = 0;
            for (int i = 0; i < n; i++) {
                NdkResultEx e = map.apply(got[i]);
                if (e != null) {
                    results[out++] = e;
                    kept++;
                }
            }
            if (n == 0 || kept == n) {
                break;
            }
        }
        return out;
    }

    /** Called first thing in NdkCloseAdapter (before the wrapped adapter closes): release what the hooks hold. */
    default void adapterClosing() {
    }
}
