package org.ndktck.faults;

import java.util.function.Supplier;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The points where a misbehaving (or a legal but unusual) provider departs from the reference provider it
 * wraps. A {@link ForwardingAdapter} and the PD, MR, QP and CQ wrappers it hands out route every SPI call
 * through one {@code Hooks} object per adapter; each default passes the call on unchanged, so an
 * implementation overrides only the points it changes. Objects handed to hooks are already wrapped.
 *
 * <p>The order for one call: {@link #call} wraps everything; inside it {@link #request}, {@link #create},
 * {@link #close} or {@link #post} decide how the reference's result and completion reach the consumer.
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
     * @param call the call
     * @param body passes the call on (through the more specific hooks)
     * @param <T>  the call's result type ({@code Void} for void calls)
     * @return the call's result
     */
    default <T> T call(NdkCall call, Supplier<T> body) {
        return body.get();
    }

    /**
     * An asynchronous request.
     *
     * @param call       which request
     * @param completion the consumer's completion (null only for NdkBuildLam)
     * @param context    the consumer's request context
     * @param inner      passes the request to the wrapped provider
     * @return the status the consumer sees
     */
    default NtStatus request(NdkCall call, RequestCompletion completion, Object context, RequestCall inner) {
        return inner.invoke(completion, context);
    }

    /**
     * A create (NdkCreatePd, NdkCreateCq, NdkCreateMr, NdkCreateQp).
     *
     * @param call       which create
     * @param completion the consumer's completion
     * @param context    the consumer's create context
     * @param inner      passes the create to the wrapped provider
     * @param <T>        the object type
     * @return the result the consumer sees
     */
    default <T extends NdkObject> CreateResult<T> create(NdkCall call, CreateCompletion<T> completion, Object context,
                                                         CreateCall<T> inner) {
        return inner.invoke(completion, context);
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
     * A work request (NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate, NdkReceive).
     *
     * @param call    which request
     * @param qp      the QP it is posted on
     * @param type    the NDK_RESULT_EX.Type its CQ entry carries
     * @param context the consumer's request context
     * @param inner   posts it on the wrapped QP
     * @return the status the consumer sees
     */
    default NtStatus post(NdkCall call, ForwardingQp qp, NdkOperationType type, Object context, Supplier<NtStatus> inner) {
        return inner.get();
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

    /** Called first thing in NdkCloseAdapter (before the wrapped adapter closes): release what the hooks hold. */
    default void adapterClosing() {
    }
}
