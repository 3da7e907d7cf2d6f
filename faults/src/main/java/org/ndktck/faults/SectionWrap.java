package org.ndktck.faults;

import org.ndktck.reference.Unwrappable;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Forwarding wrappers of the SPI objects, for the faults of {@link SectionFaults} whose misbehaviour is not
 * a piece of the reference model (callbacks, CQ entries, status codes, flush and close). Every wrapper
 * forwards each call to the reference object it wraps and implements {@link Unwrappable}, so the reference
 * accepts it where the consumer passes it back. A fault overrides one factory method of {@link Hooks} and,
 * in the object it returns, the one call it breaks. Hooks are made once per adapter, so a fault may keep
 * per-adapter state in its hooks.
 */
final class SectionWrap {
    private SectionWrap() {
    }

    /**
     * @param hooks makes the hooks of one adapter
     * @return a decorator for {@code ReferenceProvider.Builder.decorateAdapters}
     */
    static UnaryOperator<NdkAdapter> decorator(Supplier<? extends Hooks> hooks) {
        return a -> hooks.get().adapter(a);
    }

    /** Makes the wrappers; a fault overrides what it breaks. */
    static class Hooks {
        NdkAdapter adapter(NdkAdapter inner) {
            return new Adapter(this, inner);
        }

        NdkPd pd(NdkPd inner) {
            return new Pd(this, inner);
        }

        NdkMr mr(NdkMr inner, Pd pd, boolean fastRegister) {
            return new Mr(this, inner, pd, fastRegister);
        }

        NdkQp qp(NdkQp inner, Pd pd, NdkCq receiveCq, NdkCq initiatorCq) {
            return new Qp(this, inner, pd);
        }

        NdkCq cq(NdkCq inner) {
            return new Cq(this, inner);
        }
    }

    private static <T extends NdkObject> CreateResult<T> wrapResult(CreateResult<T> r, UnaryOperator<T> wrap) {
        if (r == null || r.object() == null) {
            return r;
        }
        return new CreateResult<>(r.status(), wrap.apply(r.object()));
    }

    private static <T extends NdkObject> CreateCompletion<T> wrapCompletion(CreateCompletion<T> c, UnaryOperator<T> wrap) {
        return (ctx, status, object) -> c.complete(ctx, status, object == null ? null : wrap.apply(object));
    }

    /** NDK_ADAPTER. */
    static class Adapter implements NdkAdapter {
        final Hooks hooks;
        final NdkAdapter inner;

        Adapter(Hooks hooks, NdkAdapter inner) {
            this.hooks = hooks;
            this.inner = inner;
        }

        @Override
        public NdkObjectHeader header() {
            return inner.header();
        }

        @Override
        public NdkAdapterInfo queryAdapterInfo() {
            return inner.queryAdapterInfo();
        }

        @Override
        public int pageSize() {
            return inner.pageSize();
        }

        @Override
        public CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> completion, Object createContext) {
            return wrapResult(inner.createPd(wrapCompletion(completion, hooks::pd), createContext), hooks::pd);
        }

        @Override
        public CreateResult<NdkCq> createCq(int queueDepth, CreateCompletion<NdkCq> completion, Object createContext) {
            return wrapResult(inner.createCq(queueDepth, wrapCompletion(completion, hooks::cq), createContext), hooks::cq);
        }

        @Override
        public NtStatus buildLam(Mdl mdl, long length, RequestCompletion completion, Object requestContext,
                                 NdkLogicalAddressMapping lam) {
            return inner.buildLam(mdl, length, completion, requestContext, lam);
        }

        @Override
        public void releaseLam(NdkLogicalAddressMapping lam) {
            inner.releaseLam(lam);
        }

        @Override
        public NtStatus connectLoopback(NdkQp a, NdkQp b) {
            return inner.connectLoopback(a, b);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    /** NDK_PD. */
    static class Pd implements NdkPd, Unwrappable {
        final Hooks hooks;
        final NdkPd inner;

        Pd(Hooks hooks, NdkPd inner) {
            this.hooks = hooks;
            this.inner = inner;
        }

        @Override
        public NdkObject unwrap() {
            return inner;
        }

        @Override
        public NdkObjectHeader header() {
            return inner.header();
        }

        @Override
        public CreateResult<NdkMr> createMr(boolean fastRegister, CreateCompletion<NdkMr> completion, Object createContext) {
            UnaryOperator<NdkMr> wrap = m -> hooks.mr(m, this, fastRegister);
            return wrapResult(inner.createMr(fastRegister, wrapCompletion(completion, wrap), createContext), wrap);
        }

        @Override
        public CreateResult<NdkQp> createQp(NdkCq receiveCq, NdkCq initiatorCq, Object qpContext, int receiveQueueDepth,
                                            int initiatorQueueDepth, int maxReceiveRequestSge, int maxInitiatorRequestSge,
                                            int inlineDataSize, CreateCompletion<NdkQp> completion, Object createContext) {
            UnaryOperator<NdkQp> wrap = q -> {
                NdkQp w = hooks.qp(q, this, receiveCq, initiatorCq);
                if (w instanceof Qp qp) {
                    qp.qpContext = qpContext;
                }
                return w;
            };
            return wrapResult(inner.createQp(receiveCq, initiatorCq, qpContext, receiveQueueDepth, initiatorQueueDepth,
                    maxReceiveRequestSge, maxInitiatorRequestSge, inlineDataSize, wrapCompletion(completion, wrap), createContext), wrap);
        }

        @Override
        public int getPrivilegedMemoryRegionToken() {
            return inner.getPrivilegedMemoryRegionToken();
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            return inner.close(completion, closeContext);
        }
    }

    /** NDK_MR. */
    static class Mr implements NdkMr, Unwrappable {
        final Hooks hooks;
        final NdkMr inner;
        final Pd pd;
        final boolean fastRegister;

        Mr(Hooks hooks, NdkMr inner, Pd pd, boolean fastRegister) {
            this.hooks = hooks;
            this.inner = inner;
            this.pd = pd;
            this.fastRegister = fastRegister;
        }

        @Override
        public NdkObject unwrap() {
            return inner;
        }

        @Override
        public NdkObjectHeader header() {
            return inner.header();
        }

        @Override
        public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object requestContext) {
            return inner.register(mdl, length, flags, completion, requestContext);
        }

        @Override
        public NtStatus deregister(RequestCompletion completion, Object requestContext) {
            return inner.deregister(completion, requestContext);
        }

        @Override
        public NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                               Object requestContext) {
            return inner.initializeFastRegister(adapterPageCount, remoteAccess, completion, requestContext);
        }

        @Override
        public int getLocalToken() {
            return inner.getLocalToken();
        }

        @Override
        public int getRemoteToken() {
            return inner.getRemoteToken();
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            return inner.close(completion, closeContext);
        }
    }

    /** NDK_QP. */
    static class Qp implements NdkQp, Unwrappable {
        final Hooks hooks;
        final NdkQp inner;
        final Pd pd;
        /** The QPContext the consumer gave NdkCreateQp. */
        volatile Object qpContext;

        Qp(Hooks hooks, NdkQp inner, Pd pd) {
            this.hooks = hooks;
            this.inner = inner;
            this.pd = pd;
        }

        @Override
        public NdkObject unwrap() {
            return inner;
        }

        @Override
        public NdkObjectHeader header() {
            return inner.header();
        }

        @Override
        public NtStatus fastRegister(Object requestContext, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo,
                                     long length, long baseVirtualAddress, int flags) {
            return inner.fastRegister(requestContext, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags);
        }

        @Override
        public NtStatus invalidate(Object requestContext, NdkMr mr, int flags) {
            return inner.invalidate(requestContext, mr, flags);
        }

        @Override
        public NtStatus read(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
            return inner.read(requestContext, sgl, remoteAddress, remoteToken, flags);
        }

        @Override
        public NtStatus write(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
            return inner.write(requestContext, sgl, remoteAddress, remoteToken, flags);
        }

        @Override
        public NtStatus send(Object requestContext, NdkSge[] sgl, int flags) {
            return inner.send(requestContext, sgl, flags);
        }

        @Override
        public NtStatus sendAndInvalidate(Object requestContext, NdkSge[] sgl, int remoteToken, int flags) {
            return inner.sendAndInvalidate(requestContext, sgl, remoteToken, flags);
        }

        @Override
        public NtStatus receive(Object requestContext, NdkSge[] sgl) {
            return inner.receive(requestContext, sgl);
        }

        @Override
        public void flush() {
            inner.flush();
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            return inner.close(completion, closeContext);
        }
    }

    /** NDK_CQ. */
    static class Cq implements NdkCq, Unwrappable {
        final Hooks hooks;
        final NdkCq inner;

        Cq(Hooks hooks, NdkCq inner) {
            this.hooks = hooks;
            this.inner = inner;
        }

        @Override
        public NdkObject unwrap() {
            return inner;
        }

        @Override
        public NdkObjectHeader header() {
            return inner.header();
        }

        @Override
        public int getCqResults(NdkResult[] results) {
            return inner.getCqResults(results);
        }

        @Override
        public int getCqResultsEx(NdkResultEx[] results) {
            return inner.getCqResultsEx(results);
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            return inner.close(completion, closeContext);
        }
    }
}
