package org.ndktck.faults;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * An MR of a {@link ForwardingAdapter}: every call goes through the adapter's {@link Hooks}. It remembers what
 * the consumer last asked of it (the region and MDL chain of its last registration, the remote access of its
 * last initialization, whether it was closed), for faults and checks that act on that.
 */
public final class ForwardingMr extends ForwardingObject<NdkMr> implements NdkMr {
    private final ForwardingPd pd;
    private final boolean fastRegister;
    private volatile Mdl mdl;
    private volatile long base;
    private volatile long length;
    private volatile Boolean remoteAccess;
    private volatile boolean closed;

    ForwardingMr(NdkMr inner, ForwardingPd pd, boolean fastRegister) {
        super(inner, pd.adapter());
        this.pd = pd;
        this.fastRegister = fastRegister;
    }

    /** @return the PD wrapper that created this MR */
    public ForwardingPd pd() {
        return pd;
    }

    /** @return true for an MR created with FastRegister = TRUE */
    public boolean fastRegister() {
        return fastRegister;
    }

    /**
     * @return the consumer's first MDL of its last NdkRegisterMr (null before the first, or when the consumer passed
     *         none); set before the call reaches the hooks, so {@link Hooks#request} of NdkRegisterMr sees it
     */
    public Mdl mdl() {
        return mdl;
    }

    /** @return the base of its last registration: the MDL's virtual address, or BaseVirtualAddress (unsigned) */
    public long base() {
        return base;
    }

    /** @return the Length of its last registration, in bytes (SIZE_T, unsigned) */
    public long length() {
        return length;
    }

    /** @return the RemoteAccess argument of its last NdkInitializeFastRegisterMr, or null before the first */
    public Boolean remoteAccess() {
        return remoteAccess;
    }

    /** @return true once the consumer called NdkCloseMr on it */
    public boolean closed() {
        return closed;
    }

    /** Records a fast registration of this MR (by {@link ForwardingQp}). */
    void fastRegistered(long baseVirtualAddress, long bytes) {
        this.base = baseVirtualAddress;
        this.length = bytes;
    }

    @Override
    public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object requestContext) {
        this.mdl = mdl;
        this.base = mdl == null ? 0 : mdl.virtualAddress();
        this.length = length;
        return hooks.call(NdkCall.REGISTER_MR, this, () -> hooks.request(NdkCall.REGISTER_MR, this, completion, requestContext,
                (c, x) -> inner.register(hooks.mdl(NdkCall.REGISTER_MR, mdl), hooks.registerLength(this, length), hooks.registerFlags(this, flags), c, x)));
    }

    @Override
    public NtStatus deregister(RequestCompletion completion, Object requestContext) {
        return hooks.call(NdkCall.DEREGISTER_MR, this, () -> hooks.request(NdkCall.DEREGISTER_MR, this, completion, requestContext,
                inner::deregister));
    }

    @Override
    public NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                           Object requestContext) {
        this.remoteAccess = remoteAccess;
        return hooks.call(NdkCall.INITIALIZE_FAST_REGISTER_MR, this, () -> hooks.request(NdkCall.INITIALIZE_FAST_REGISTER_MR, this,
                completion, requestContext, (c, x) -> inner.initializeFastRegister(adapterPageCount, remoteAccess, c, x)));
    }

    @Override
    public int getLocalToken() {
        return hooks.call(NdkCall.GET_LOCAL_TOKEN, this, () -> hooks.token(NdkCall.GET_LOCAL_TOKEN, this, inner.getLocalToken()));
    }

    @Override
    public int getRemoteToken() {
        return hooks.call(NdkCall.GET_REMOTE_TOKEN, this, () -> hooks.token(NdkCall.GET_REMOTE_TOKEN, this, inner.getRemoteToken()));
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        closed = true;
        return hooks.call(NdkCall.CLOSE_MR, this, () -> hooks.close(NdkCall.CLOSE_MR, this, completion, closeContext, inner::close));
    }
}
