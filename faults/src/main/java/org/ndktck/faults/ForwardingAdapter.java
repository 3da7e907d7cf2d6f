package org.ndktck.faults;

import java.util.Objects;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * An adapter that passes every call to a wrapped adapter (normally the reference provider's) through one
 * {@link Hooks} object, and hands out wrapped PDs, CQs, MRs and QPs that do the same. The wrappers
 * implement {@link org.ndktck.reference.Unwrappable}, so the reference accepts them back (the MR of
 * NdkFastRegister, the CQs of NdkCreateQp, the QPs of connectLoopback).
 *
 * <p>Each adapter has its own {@link Deliveries} thread for completions a hook delivers itself; NdkCloseAdapter
 * tells the hooks ({@link Hooks#adapterClosing()}), waits for those deliveries, closes the wrapped adapter
 * (which waits for its own callbacks), then waits for deliveries once more, so no callback runs after it
 * returns (CL-8).
 */
public final class ForwardingAdapter implements NdkAdapter {
    private final NdkAdapter inner;
    private final Hooks hooks;
    private final Deliveries deliveries;

    /**
     * @param inner        the adapter to wrap
     * @param hooks        this adapter's hooks (one object per adapter)
     * @param providerName the provider's name, for thread names
     */
    public ForwardingAdapter(NdkAdapter inner, Hooks hooks, String providerName) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
        this.deliveries = new Deliveries(providerName);
        hooks.attach(this);
    }

    /** @return the wrapped adapter */
    public NdkAdapter inner() {
        return inner;
    }

    /** @return the hooks of this adapter */
    public Hooks hooks() {
        return hooks;
    }

    /** @return this adapter's completion-delivery thread */
    public Deliveries deliveries() {
        return deliveries;
    }

    @Override
    public NdkObjectHeader header() {
        return hooks.call(NdkCall.HEADER, this, () -> hooks.header(this, inner.header()));
    }

    @Override
    public NdkAdapterInfo queryAdapterInfo() {
        return hooks.call(NdkCall.QUERY_ADAPTER_INFO, this, () -> hooks.adapterInfo(inner.queryAdapterInfo()));
    }

    @Override
    public int pageSize() {
        return hooks.call(NdkCall.PAGE_SIZE, this, inner::pageSize);
    }

    /** @return the wrapped adapter's transport (NDK_ADAPTER_INFO.RdmaTechnology) */
    @Override
    public org.ndktck.spec.NdkRdmaTechnology rdmaTechnology() {
        return inner.rdmaTechnology();
    }

    @Override
    public CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> completion, Object createContext) {
        return hooks.call(NdkCall.CREATE_PD, this, () -> hooks.create(NdkCall.CREATE_PD, this, completion, createContext,
                (c, x) -> wrapResult(inner.createPd(wrapCompletion(c, this::wrapPd), x), this::wrapPd)));
    }

    @Override
    public CreateResult<NdkCq> createCq(int queueDepth, CreateCompletion<NdkCq> completion, Object createContext) {
        return hooks.call(NdkCall.CREATE_CQ, this, () -> hooks.create(NdkCall.CREATE_CQ, this, completion, createContext,
                (c, x) -> wrapResult(inner.createCq(queueDepth, wrapCompletion(c, q -> wrapCq(q, queueDepth)), x),
                        q -> wrapCq(q, queueDepth))));
    }

    @Override
    public NtStatus buildLam(Mdl mdl, long length, RequestCompletion completion, Object requestContext,
                             NdkLogicalAddressMapping lam) {
        return hooks.call(NdkCall.BUILD_LAM, this, () -> hooks.buildLam(this, mdl, lam, completion, requestContext,
                (c, x) -> inner.buildLam(hooks.mdl(NdkCall.BUILD_LAM, mdl), length, c, x, lam)));
    }

    @Override
    public void releaseLam(NdkLogicalAddressMapping lam) {
        hooks.call(NdkCall.RELEASE_LAM, this, () -> {
            hooks.releaseLam(lam, () -> inner.releaseLam(lam));
            return null;
        });
    }

    @Override
    public NtStatus connectLoopback(NdkQp a, NdkQp b) {
        NtStatus st = hooks.call(NdkCall.CONNECT_LOOPBACK, this, () -> inner.connectLoopback(a, b));
        if (NtStatus.STATUS_SUCCESS.equals(st)) {
            hooks.connected(a, b);
        }
        return st;
    }

    @Override
    public void close() {
        hooks.call(NdkCall.CLOSE_ADAPTER, this, () -> {
            hooks.adapterClosing();
            deliveries.quiesce();
            inner.close();
            deliveries.stop();
            return null;
        });
    }

    // ------------------------------------------------------------------ wrapping

    NdkPd wrapPd(NdkPd pd) {
        return pd == null ? null : new ForwardingPd(pd, this);
    }

    NdkCq wrapCq(NdkCq cq) {
        return wrapCq(cq, 0);
    }

    /** @param queueDepth the QueueDepth it was created with (ULONG in an int), or 0 when unknown */
    NdkCq wrapCq(NdkCq cq, int queueDepth) {
        return cq == null ? null : new ForwardingCq(cq, this, queueDepth);
    }

    /** The object wrapper for one create call. */
    interface Wrap<T> {
        T wrap(T object);
    }

    static <T extends NdkObject> CreateResult<T> wrapResult(CreateResult<T> r, Wrap<T> wrap) {
        if (r == null || r.object() == null) {
            return r;
        }
        return new CreateResult<>(r.status(), wrap.wrap(r.object()));
    }

    static <T extends NdkObject> CreateCompletion<T> wrapCompletion(CreateCompletion<T> c, Wrap<T> wrap) {
        if (c == null) {
            return null;
        }
        return (ctx, status, object) -> c.complete(ctx, status, object == null ? null : wrap.wrap(object));
    }

    @Override
    public String toString() {
        return "ForwardingAdapter(" + inner + ")";
    }
}
