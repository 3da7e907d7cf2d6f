package org.ndktck.reference;

import java.util.List;
import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * An MR of the model. A normal MR (FastRegister=FALSE) goes CREATED → REGISTERED → (deregister) CREATED; a
 * fast-register MR goes CREATED → INITIALIZED → FAST_REGISTERED → INVALIDATED → FAST_REGISTERED ... (see
 * {@link MrState}). Its token is what both token getters return: 0 before the first registration or
 * initialization, then the token of the latest registration, fast registration or initialization, unchanged
 * between calls that change it (MR-TOK-5).
 */
final class ReferenceMr extends ReferenceObject implements NdkMr {
    final ReferencePd pd;
    final boolean fastRegister;
    MrState state = MrState.CREATED;
    /** The token the getters return. */
    private int token;
    /** The latest registration (normal) or fast registration (posted). */
    Region region;
    /** The fast registration in effect, if any. */
    Region liveRegion;
    private boolean remoteAccess;
    private int initializedPageCount;

    ReferenceMr(ReferencePd pd, boolean fastRegister) {
        super(pd.adapter, NdkObjectType.MR);
        this.pd = pd;
        this.fastRegister = fastRegister;
    }

    @Override
    List<ReferenceObject> antecedents() {
        return List.of(pd);
    }

    /** Under the lock: what checks may know of this MR, seen from a call on {@code callerPd}. */
    MrView view(ReferencePd callerPd) {
        MrState s = switch (life) {
            case OPEN -> state;
            case CLOSING -> MrState.CLOSING;
            case CLOSED -> MrState.CLOSED;
        };
        return new MrView(fastRegister, s, remoteAccess, initializedPageCount, callerPd == pd);
    }

    // ------------------------------------------------------------------ NdkRegisterMr

    @Override
    public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object requestContext) {
        Objects.requireNonNull(mdl, "mdl");
        Objects.requireNonNull(completion, "completion");
        adapter.lock.lock();
        try {
            if (adapter.isClosed()) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            return adapter.request(this, () -> doRegister(mdl, length, flags), completion, requestContext);
        } finally {
            adapter.lock.unlock();
        }
    }

    private NtStatus doRegister(Mdl mdl, long length, int flags) {
        if (life != Life.OPEN) {
            return NtStatus.STATUS_CANCELLED;
        }
        int pageSize = adapter.pageSize();
        MdlChainSummary chain = MdlChainSummary.walk(mdl, length, pageSize);
        RegisterMrRequest request = new RegisterMrRequest(adapter, view(pd), mdl, chain, length, flags);
        NtStatus status = adapter.policy.evaluate(Pieces.REGISTER_MR, request);
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        long extent = adapter.policy.get(Pieces.EXTENT).extent(length, chain.totalByteCount());
        PageMap pages = PageMap.fromChain(mdl, extent, chain.mdlCount(), pageSize);
        if (pages == null) {
            return NtStatus.STATUS_INSUFFICIENT_RESOURCES;
        }
        int access = adapter.policy.get(Pieces.MR_ACCESS_FLAGS).access(flags);
        int fresh = adapter.tokens.allocateToken(pd, TokenPurpose.REGISTER, token);
        long va = chain.virtualAddress();
        Region r = new Region(this, fresh, va, extent, (int) (va & (pageSize - 1L)), access, false, pages,
                Region.State.LIVE);
        adapter.tokens.putToken(fresh, r);
        token = fresh;
        region = r;
        state = MrState.REGISTERED;
        return NtStatus.STATUS_SUCCESS;
    }

    // ------------------------------------------------------------------ NdkDeregisterMr

    @Override
    public NtStatus deregister(RequestCompletion completion, Object requestContext) {
        Objects.requireNonNull(completion, "completion");
        adapter.lock.lock();
        try {
            if (adapter.isClosed()) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            return adapter.request(this, this::doDeregister, completion, requestContext);
        } finally {
            adapter.lock.unlock();
        }
    }

    private NtStatus doDeregister() {
        if (life != Life.OPEN) {
            return NtStatus.STATUS_CANCELLED;
        }
        NtStatus status = adapter.policy.evaluate(Pieces.DEREGISTER_MR, new DeregisterMrRequest(adapter, view(pd)));
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        if (region != null) {
            adapter.tokens.retire(region, RetireEvent.DEREGISTER);
        }
        region = null;
        state = MrState.CREATED;
        return NtStatus.STATUS_SUCCESS;
    }

    // ------------------------------------------------------------------ NdkInitializeFastRegisterMr

    @Override
    public NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                           Object requestContext) {
        Objects.requireNonNull(completion, "completion");
        adapter.lock.lock();
        try {
            if (adapter.isClosed()) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            return adapter.request(this, () -> doInitialize(adapterPageCount, remoteAccess), completion, requestContext);
        } finally {
            adapter.lock.unlock();
        }
    }

    private NtStatus doInitialize(int adapterPageCount, boolean remote) {
        if (life != Life.OPEN) {
            return NtStatus.STATUS_CANCELLED;
        }
        InitializeFastRegisterRequest request = new InitializeFastRegisterRequest(adapter, view(pd),
                adapterPageCount, remote);
        NtStatus status = adapter.policy.evaluate(Pieces.INITIALIZE_FAST_REGISTER, request);
        if (!status.equals(NtStatus.STATUS_SUCCESS)) {
            return status;
        }
        this.remoteAccess = remote;
        this.initializedPageCount = adapterPageCount;
        if (state != MrState.INITIALIZED || adapter.tokens.tokenHolder(token, pd) != this) {
            // the MR's own token until its first fast registration: reserved, grants nothing
            int fresh = adapter.tokens.allocateToken(pd, TokenPurpose.INITIALIZE_FAST_REGISTER, token);
            adapter.tokens.putToken(fresh, this);
            token = fresh;
        }
        state = MrState.INITIALIZED;
        return NtStatus.STATUS_SUCCESS;
    }

    // ------------------------------------------------------------------ fast registration (from the QP)

    /**
     * Under the lock: NdkFastRegister passed its checks. Makes the new registration (pending until processed),
     * gives it a fresh token, which the getters return from now on (MR-FR-9).
     *
     * @param frames the page frames of the registration, translated from the AdapterPageArray by
     *               {@link TranslatedPages}; the registration keeps this array as its own
     * @return the registration, or null when it would need more frames than the model holds
     */
    Region postFastRegistration(long[] frames, int fbo, long length, long baseVirtualAddress, int flags) {
        int pageSize = adapter.pageSize();
        if (tooManyFrames(frames)) {
            return null;
        }
        PageMap pages = PageMap.ofFrames(pageSize, adapter.policy.get(Pieces.FR_PAGE_TABLE).kept(frames, initializedPageCount));
        int placement = adapter.policy.get(Pieces.FBO_PLACEMENT).firstByteOffset(fbo, baseVirtualAddress, pageSize);
        int firstByteOffset = Math.floorMod(placement, pageSize);
        int access = adapter.policy.get(Pieces.FR_ACCESS_FLAGS).access(flags);
        int fresh = adapter.tokens.allocateToken(pd, TokenPurpose.FAST_REGISTER, token);
        releaseOwnToken();
        Region r = new Region(this, fresh, baseVirtualAddress, length, firstByteOffset, access, true, pages,
                Region.State.PENDING);
        adapter.tokens.putToken(fresh, r);
        token = fresh;
        region = r;
        state = MrState.FAST_REGISTERED;
        return r;
    }

    /** @return true when a registration of this many frames is more than the model holds */
    private static boolean tooManyFrames(long[] frames) {
        return frames.length > PageMap.MAX_FRAMES;
    }

    /**
     * Under the lock: the MR's own token (from NdkInitializeFastRegisterMr, held by the MR itself) leaves the token
     * table; a token held by a registration is left to it.
     */
    private void releaseOwnToken() {
        adapter.tokens.removeToken(token, this);
    }

    /** Under the lock: a fast registration was processed. */
    void fastRegistrationTookEffect(Region r) {
        if (liveRegion != null && liveRegion != r) {
            adapter.tokens.retire(liveRegion, RetireEvent.REPLACED);
        }
        r.state = Region.State.LIVE;
        liveRegion = r;
    }

    /** Under the lock: a registration of this MR stopped (or should stop) granting access. */
    void invalidated(Region r, RetireEvent event) {
        forgetLiveRegion(r, adapter.tokens.retire(r, event));
        if (region == r && state == MrState.FAST_REGISTERED) {
            state = MrState.INVALIDATED;
        }
    }

    /** Under the lock: {@code r} no longer counts as the fast registration in effect once it was retired. */
    private void forgetLiveRegion(Region r, boolean retired) {
        if (retired && liveRegion == r) {
            liveRegion = null;
        }
    }

    // ------------------------------------------------------------------ tokens and close

    @Override
    public int getLocalToken() {
        adapter.lock.lock();
        try {
            return token;
        } finally {
            adapter.lock.unlock();
        }
    }

    @Override
    public int getRemoteToken() {
        return getLocalToken();
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeObject(completion, closeContext);
    }

    @Override
    void onCloseStarted() {
        if (region != null) {
            adapter.tokens.retire(region, RetireEvent.CLOSE);
        }
        if (liveRegion != null) {
            adapter.tokens.retire(liveRegion, RetireEvent.CLOSE);
        }
        releaseOwnToken();
    }

    @Override
    public String toString() {
        return String.format("ReferenceMr{%s, %s, token=0x%08X, %s}", fastRegister ? "fast-register" : "normal",
                state, token, life);
    }
}
