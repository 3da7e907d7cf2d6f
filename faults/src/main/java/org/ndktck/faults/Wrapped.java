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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Wrappers around the reference provider's objects that route every call through a {@link Misbehaviour}.
 * Each wrapper implements {@link Unwrappable}, so the reference accepts it where it expects its own
 * object. Objects created by a wrapped object (a PD's MRs and QPs, an adapter's PDs and CQs), inline or
 * through a completion, are wrapped too.
 */
public final class Wrapped {
    private Wrapped() {
    }

    /**
     * @param adapter the reference adapter
     * @param m       the misbehaviour (one per adapter)
     * @return the wrapped adapter
     */
    public static NdkAdapter adapter(NdkAdapter adapter, Misbehaviour m) {
        return new Adapter(adapter, m);
    }

    /** The wrapped adapter. */
    public static final class Adapter implements NdkAdapter {
        final NdkAdapter delegate;
        final Misbehaviour m;
        /** Every MR wrapper of this adapter, for faults that look registrations up by token. */
        final List<Mr> mrs = new CopyOnWriteArrayList<>();

        Adapter(NdkAdapter delegate, Misbehaviour m) {
            this.delegate = delegate;
            this.m = m;
        }

        @Override
        public NdkObjectHeader header() {
            return delegate.header();
        }

        @Override
        public NdkAdapterInfo queryAdapterInfo() {
            return m.queryAdapterInfo(delegate);
        }

        @Override
        public int pageSize() {
            return delegate.pageSize();
        }

        @Override
        public CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> completion, Object createContext) {
            CreateResult<NdkPd> r = delegate.createPd((ctx, st, pd) -> completion.complete(ctx, st, pd == null ? null : new Pd(pd, this)),
                    createContext);
            return r.object() == null ? r : new CreateResult<>(r.status(), new Pd(r.object(), this));
        }

        @Override
        public CreateResult<NdkCq> createCq(int queueDepth, CreateCompletion<NdkCq> completion, Object createContext) {
            CreateResult<NdkCq> r = delegate.createCq(queueDepth,
                    (ctx, st, cq) -> completion.complete(ctx, st, cq == null ? null : new Cq(cq, this)), createContext);
            return r.object() == null ? r : new CreateResult<>(r.status(), new Cq(r.object(), this));
        }

        @Override
        public NtStatus buildLam(Mdl mdl, long length, RequestCompletion completion, Object requestContext, NdkLogicalAddressMapping lam) {
            return delegate.buildLam(mdl, length, completion, requestContext, lam);
        }

        @Override
        public void releaseLam(NdkLogicalAddressMapping lam) {
            delegate.releaseLam(lam);
        }

        @Override
        public NtStatus connectLoopback(NdkQp a, NdkQp b) {
            return delegate.connectLoopback(a, b);
        }

        @Override
        public void close() {
            delegate.close();
        }

        /** @return the MR wrappers created so far */
        public List<Mr> mrs() {
            return mrs;
        }
    }

    /** A wrapped PD. */
    public static final class Pd implements NdkPd, Unwrappable {
        final NdkPd delegate;
        final Adapter adapter;

        Pd(NdkPd delegate, Adapter adapter) {
            this.delegate = delegate;
            this.adapter = adapter;
        }

        @Override
        public NdkObject unwrap() {
            return delegate;
        }

        /** @return the reference PD */
        public NdkPd delegate() {
            return delegate;
        }

        @Override
        public NdkObjectHeader header() {
            return delegate.header();
        }

        @Override
        public CreateResult<NdkMr> createMr(boolean fastRegister, CreateCompletion<NdkMr> completion, Object createContext) {
            return adapter.m.createMr(this, fastRegister, completion, createContext);
        }

        /**
         * NdkCreateMr of the reference with its MR (inline or through the completion) wrapped.
         *
         * @return the reference's result with a wrapped MR
         */
        public CreateResult<NdkMr> createMrPlain(boolean fastRegister, CreateCompletion<NdkMr> completion, Object createContext) {
            CreateResult<NdkMr> r = delegate.createMr(fastRegister,
                    (ctx, st, mr) -> completion.complete(ctx, st, mr == null ? null : new Mr(mr, adapter, fastRegister)), createContext);
            return r.object() == null ? r : new CreateResult<>(r.status(), new Mr(r.object(), adapter, fastRegister));
        }

        @Override
        public CreateResult<NdkQp> createQp(NdkCq receiveCq, NdkCq initiatorCq, Object qpContext, int receiveQueueDepth,
                                            int initiatorQueueDepth, int maxReceiveRequestSge, int maxInitiatorRequestSge,
                                            int inlineDataSize, CreateCompletion<NdkQp> completion, Object createContext) {
            CreateResult<NdkQp> r = delegate.createQp(receiveCq, initiatorCq, qpContext, receiveQueueDepth, initiatorQueueDepth,
                    maxReceiveRequestSge, maxInitiatorRequestSge, inlineDataSize,
                    (ctx, st, qp) -> completion.complete(ctx, st, qp == null ? null : new Qp(qp, adapter)), createContext);
            return r.object() == null ? r : new CreateResult<>(r.status(), new Qp(r.object(), adapter));
        }

        @Override
        public int getPrivilegedMemoryRegionToken() {
            return delegate.getPrivilegedMemoryRegionToken();
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            return delegate.close(completion, closeContext);
        }
    }

    /** A wrapped MR, with room for a fault's per-MR state. */
    public static final class Mr implements NdkMr, Unwrappable {
        final NdkMr delegate;
        final Adapter adapter;
        final boolean fastRegister;
        /** Set once the kit closed the MR. */
        public volatile boolean closed;
        /** The base of its last registration (MDL VA or BaseVirtualAddress), unsigned. */
        public volatile long base;
        /** The Length of its last registration, unsigned. */
        public volatile long length;
        /** Free for a fault. */
        public volatile Object state;

        Mr(NdkMr delegate, Adapter adapter, boolean fastRegister) {
            this.delegate = delegate;
            this.adapter = adapter;
            this.fastRegister = fastRegister;
            adapter.mrs.add(this);
        }

        @Override
        public NdkObject unwrap() {
            return delegate;
        }

        /** @return the reference MR */
        public NdkMr delegate() {
            return delegate;
        }

        /** @return whether it was created with FastRegister = TRUE */
        public boolean fastRegister() {
            return fastRegister;
        }

        @Override
        public NdkObjectHeader header() {
            return adapter.m.mrHeader(this);
        }

        @Override
        public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object requestContext) {
            this.base = mdl.virtualAddress();
            this.length = length;
            return adapter.m.register(this, mdl, length, flags, completion, requestContext);
        }

        @Override
        public NtStatus deregister(RequestCompletion completion, Object requestContext) {
            return adapter.m.deregister(this, completion, requestContext);
        }

        @Override
        public NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                               Object requestContext) {
            return adapter.m.initializeFastRegister(this, adapterPageCount, remoteAccess, completion, requestContext);
        }

        @Override
        public int getLocalToken() {
            return adapter.m.localToken(this);
        }

        @Override
        public int getRemoteToken() {
            return adapter.m.remoteToken(this);
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            closed = true;
            return adapter.m.closeMr(this, completion, closeContext);
        }
    }

    /** A wrapped QP. */
    public static final class Qp implements NdkQp, Unwrappable {
        final NdkQp delegate;
        final Adapter adapter;

        Qp(NdkQp delegate, Adapter adapter) {
            this.delegate = delegate;
            this.adapter = adapter;
        }

        @Override
        public NdkObject unwrap() {
            return delegate;
        }

        /** @return the reference QP */
        public NdkQp delegate() {
            return delegate;
        }

        /** @return the wrapped adapter it belongs to */
        public Adapter adapter() {
            return adapter;
        }

        @Override
        public NdkObjectHeader header() {
            return delegate.header();
        }

        @Override
        public NtStatus fastRegister(Object requestContext, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo,
                                     long length, long baseVirtualAddress, int flags) {
            if (mr instanceof Mr w) {
                w.base = baseVirtualAddress;
                w.length = length;
            }
            return adapter.m.fastRegister(this, requestContext, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags);
        }

        @Override
        public NtStatus invalidate(Object requestContext, NdkMr mr, int flags) {
            return delegate.invalidate(requestContext, mr, flags);
        }

        @Override
        public NtStatus read(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
            return adapter.m.read(this, requestContext, sgl, remoteAddress, remoteToken, flags);
        }

        @Override
        public NtStatus write(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
            return adapter.m.write(this, requestContext, sgl, remoteAddress, remoteToken, flags);
        }

        @Override
        public NtStatus send(Object requestContext, NdkSge[] sgl, int flags) {
            return delegate.send(requestContext, sgl, flags);
        }

        @Override
        public NtStatus sendAndInvalidate(Object requestContext, NdkSge[] sgl, int remoteToken, int flags) {
            return delegate.sendAndInvalidate(requestContext, sgl, remoteToken, flags);
        }

        @Override
        public NtStatus receive(Object requestContext, NdkSge[] sgl) {
            return delegate.receive(requestContext, sgl);
        }

        @Override
        public void flush() {
            delegate.flush();
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            return delegate.close(completion, closeContext);
        }
    }

    /** A wrapped CQ. */
    public static final class Cq implements NdkCq, Unwrappable {
        final NdkCq delegate;
        final Adapter adapter;

        Cq(NdkCq delegate, Adapter adapter) {
            this.delegate = delegate;
            this.adapter = adapter;
        }

        @Override
        public NdkObject unwrap() {
            return delegate;
        }

        @Override
        public NdkObjectHeader header() {
            return delegate.header();
        }

        @Override
        public int getCqResults(NdkResult[] results) {
            return delegate.getCqResults(results);
        }

        @Override
        public int getCqResultsEx(NdkResultEx[] results) {
            return adapter.m.getCqResultsEx(delegate, results);
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object closeContext) {
            return delegate.close(completion, closeContext);
        }
    }
}
