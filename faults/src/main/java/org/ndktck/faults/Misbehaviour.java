package org.ndktck.faults;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * One misbehaviour of a wrapped reference adapter ({@link Wrapped}): every method here is one SPI call of
 * a wrapped object and, by default, just calls the reference. A fault overrides the one call it breaks.
 * Each adapter the fault provider opens gets its own instance (state such as counters stays per adapter).
 *
 * <p>The {@code mr} passed to MR methods is the kit-facing wrapper ({@link Wrapped.Mr}); its
 * {@link Wrapped.Mr#delegate()} is the reference's MR.
 */
public class Misbehaviour {
    /** @return NdkQueryAdapterInfo */
    public NdkAdapterInfo queryAdapterInfo(NdkAdapter adapter) {
        return adapter.queryAdapterInfo();
    }

    /** NdkCreateMr; the result's object (and the completion's) is already the kit-facing wrapper. */
    public CreateResult<NdkMr> createMr(Wrapped.Pd pd, boolean fastRegister, CreateCompletion<NdkMr> completion, Object context) {
        return pd.createMrPlain(fastRegister, completion, context);
    }

    /** NdkRegisterMr. */
    public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion completion, Object context) {
        return mr.delegate().register(mdl, length, flags, completion, context);
    }

    /** NdkDeregisterMr. */
    public NtStatus deregister(Wrapped.Mr mr, RequestCompletion completion, Object context) {
        return mr.delegate().deregister(completion, context);
    }

    /** NdkInitializeFastRegisterMr. */
    public NtStatus initializeFastRegister(Wrapped.Mr mr, int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                          Object context) {
        return mr.delegate().initializeFastRegister(adapterPageCount, remoteAccess, completion, context);
    }

    /** NdkGetRemoteTokenFromMr. */
    public int remoteToken(Wrapped.Mr mr) {
        return mr.delegate().getRemoteToken();
    }

    /** NdkGetLocalTokenFromMr. */
    public int localToken(Wrapped.Mr mr) {
        return mr.delegate().getLocalToken();
    }

    /** The MR's header. */
    public NdkObjectHeader mrHeader(Wrapped.Mr mr) {
        return mr.delegate().header();
    }

    /** NdkCloseMr. */
    public NtStatus closeMr(Wrapped.Mr mr, CloseCompletion completion, Object context) {
        return mr.delegate().close(completion, context);
    }

    /** NdkFastRegister ({@code mr} is the kit-facing wrapper; the reference unwraps it). */
    public NtStatus fastRegister(Wrapped.Qp qp, Object context, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo,
                                 long length, long baseVirtualAddress, int flags) {
        return qp.delegate().fastRegister(context, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags);
    }

    /** NdkRead. */
    public NtStatus read(Wrapped.Qp qp, Object context, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return qp.delegate().read(context, sgl, remoteAddress, remoteToken, flags);
    }

    /** NdkWrite. */
    public NtStatus write(Wrapped.Qp qp, Object context, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return qp.delegate().write(context, sgl, remoteAddress, remoteToken, flags);
    }

    /** NdkGetCqResultsEx. */
    public int getCqResultsEx(NdkCq cq, NdkResultEx[] results) {
        return cq.getCqResultsEx(results);
    }

    /** @return true for STATUS_SUCCESS */
    protected static boolean ok(NtStatus s) {
        return NtStatus.STATUS_SUCCESS.equals(s);
    }
}
