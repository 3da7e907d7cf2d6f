package org.ndktck.tck.sections;

import org.ndktck.reference.ReferenceProvider;
import org.ndktck.reference.Unwrappable;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The consumer guard of issue 5: a provider that wraps the reference provider and records every consumer
 * rule the kit breaks while it runs against it, so the kit's own tests can require that the kit is a
 * correct consumer. It records (it does not throw, so the kit's run is not disturbed):
 * <ul>
 *   <li>MR-REG-5 / LAM-1: an MDL chain changed (Mdl.modificationCount) while NdkRegisterMr or NdkBuildLam
 *       was pending on it;</li>
 *   <li>MR-TOK-3: a token read while the MR's registration or initialization was still in progress, or
 *       before any completed with success;</li>
 *   <li>WRP-1: two calls at once on one initiator queue, or on one receive queue;</li>
 *   <li>GEN-LIFE-2: a close of an object while a call on it was still executing (other than from inside that
 *       call's completion callback);</li>
 *   <li>CL-8: NdkCloseAdapter called from inside a completion callback;</li>
 *   <li>CL-3: a call on an object after its close started; CQ-4: two result calls at once on one CQ;</li>
 *   <li>MR-DEREG-1, MR-FRI-1, INV-1: deregistration of an MR that is not registered, initialization of a
 *       normal MR, invalidation of a normal MR; DEF-5: DEFER on an NDKPI 1.1 adapter; LAM-9: AdapterContext
 *       changed by the consumer.</li>
 * </ul>
 * Use it with {@code ndk.tck.provider=org.ndktck.tck.sections.GuardedReferenceProvider}.
 */
final class ConsumerGuard {
    private ConsumerGuard() {
    }

    /** One consumer rule the kit broke. */
    record Violation(String rule, String what, String thread) {
        @Override
        public String toString() {
            return rule + ": " + what + " (thread " + thread + ")";
        }
    }

    private static final java.util.concurrent.atomic.AtomicLong OPENED = new java.util.concurrent.atomic.AtomicLong();
    private static final List<Violation> VIOLATIONS = Collections.synchronizedList(new ArrayList<>());
    private static final ThreadLocal<Deque<Object>> IN_CALLBACK = ThreadLocal.withInitial(ArrayDeque::new);

    /** Forgets what was recorded. */
    static void reset() {
        VIOLATIONS.clear();
    }

    /** @return adapters opened behind the guard so far */
    static long adaptersOpened() {
        return OPENED.get();
    }

    /** @return what was recorded so far */
    static List<Violation> violations() {
        synchronized (VIOLATIONS) {
            return List.copyOf(VIOLATIONS);
        }
    }

    static void flag(String rule, String what) {
        VIOLATIONS.add(new Violation(rule, what, Thread.currentThread().getName()));
    }

    private static boolean insideCallbackOf(Object owner) {
        for (Object o : IN_CALLBACK.get()) {
            if (o == owner) {
                return true;
            }
        }
        return false;
    }

    private static void inCallback(Object owner, Runnable r) {
        Deque<Object> d = IN_CALLBACK.get();
        d.push(owner);
        try {
            r.run();
        } finally {
            d.pop();
        }
    }

    /** Calls executing on an object, and whether its close has started. */
    abstract static class Guarded implements Unwrappable {
        final AtomicInteger executing = new AtomicInteger();
        volatile boolean closing;
        final String name;

        Guarded(String name) {
            this.name = name;
        }

        <T> T call(String what, Supplier<T> body) {
            if (closing) {
                flag("CL-3", what + " on " + name + " after its close started");
            }
            executing.incrementAndGet();
            try {
                return body.get();
            } finally {
                executing.decrementAndGet();
            }
        }

        NtStatus close(Supplier<NtStatus> body) {
            if (closing) {
                flag("CL-3", "a second close of " + name);
            }
            if (executing.get() > 0 && !insideCallbackOf(this)) {
                flag("GEN-LIFE-2", "close of " + name + " while " + executing.get() + " call(s) on it were executing");
            }
            closing = true;
            return body.get();
        }

        CloseCompletion closeCompletion(CloseCompletion c) {
            return ctx -> inCallback(this, () -> c.complete(ctx));
        }

        <T extends NdkObject> CreateCompletion<T> createCompletion(CreateCompletion<T> c, java.util.function.UnaryOperator<T> wrap) {
            return (ctx, st, o) -> inCallback(this, () -> c.complete(ctx, st, o == null ? null : wrap.apply(o)));
        }
    }

    private static <T extends NdkObject> CreateResult<T> wrapped(CreateResult<T> r, java.util.function.UnaryOperator<T> wrap) {
        return r == null || r.object() == null ? r : new CreateResult<>(r.status(), wrap.apply(r.object()));
    }

    /** Modification counts of a chain (at most 64 MDLs), to see a consumer touching it. */
    private static List<Integer> counts(Mdl mdl) {
        List<Integer> out = new ArrayList<>();
        int n = 0;
        for (Mdl m = mdl; m != null && n < 64; m = m.next(), n++) {
            out.add(m.modificationCount());
        }
        return out;
    }

    /** NDK_ADAPTER. */
    static final class Adapter implements NdkAdapter {
        final NdkAdapter inner;
        final NdkVersion version;
        final Map<NdkLogicalAddressMapping, Object> contexts = Collections.synchronizedMap(new IdentityHashMap<>());

        Adapter(NdkAdapter inner) {
            this.inner = inner;
            this.version = inner.queryAdapterInfo().version();
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
        public CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> completion, Object ctx) {
            java.util.function.UnaryOperator<NdkPd> wrap = p -> new Pd(this, p);
            return wrapped(inner.createPd((x, st, o) -> inCallback(this, () -> completion.complete(x, st, o == null ? null : wrap.apply(o))), ctx), wrap);
        }

        @Override
        public CreateResult<NdkCq> createCq(int depth, CreateCompletion<NdkCq> completion, Object ctx) {
            java.util.function.UnaryOperator<NdkCq> wrap = Cq::new;
            return wrapped(inner.createCq(depth, (x, st, o) -> inCallback(this, () -> completion.complete(x, st, o == null ? null : wrap.apply(o))), ctx), wrap);
        }

        @Override
        public NtStatus buildLam(Mdl mdl, long length, RequestCompletion completion, Object ctx, NdkLogicalAddressMapping lam) {
            List<Integer> before = counts(mdl);
            NtStatus r = inner.buildLam(mdl, length, completion == null ? null : (x, st) -> {
                if (!counts(mdl).equals(before)) {
                    flag("LAM-1", "the chain of NdkBuildLam changed while the call was pending");
                }
                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                    contexts.put(lam, lam.adapterContext());
                }
                inCallback(this, () -> completion.complete(x, st));
            }, ctx, lam);
            if (NtStatus.STATUS_SUCCESS.equals(r)) {
                contexts.put(lam, lam.adapterContext());
            }
            return r;
        }

        @Override
        public void releaseLam(NdkLogicalAddressMapping lam) {
            Object c = contexts.remove(lam);
            if (c != null && lam.adapterContext() != c) {
                flag("LAM-9", "AdapterContext of a LAM was changed before NdkReleaseLam");
            }
            inner.releaseLam(lam);
        }

        @Override
        public NtStatus connectLoopback(NdkQp a, NdkQp b) {
            return inner.connectLoopback(a, b);
        }

        @Override
        public void close() {
            if (!IN_CALLBACK.get().isEmpty()) {
                flag("CL-8", "NdkCloseAdapter from inside a completion callback");
            }
            inner.close();
        }
    }

    /** NDK_PD. */
    static final class Pd extends Guarded implements NdkPd {
        final Adapter adapter;
        final NdkPd inner;

        Pd(Adapter adapter, NdkPd inner) {
            super("a PD");
            this.adapter = adapter;
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
        public CreateResult<NdkMr> createMr(boolean fast, CreateCompletion<NdkMr> completion, Object ctx) {
            java.util.function.UnaryOperator<NdkMr> wrap = m -> new Mr(adapter, m, fast);
            return call("NdkCreateMr", () -> wrapped(inner.createMr(fast, createCompletion(completion, wrap), ctx), wrap));
        }

        @Override
        public CreateResult<NdkQp> createQp(NdkCq rq, NdkCq iq, Object qpContext, int rqd, int iqd, int rs, int is, int inline,
                                            CreateCompletion<NdkQp> completion, Object ctx) {
            java.util.function.UnaryOperator<NdkQp> wrap = q -> new Qp(adapter, q);
            return call("NdkCreateQp", () -> wrapped(inner.createQp(rq, iq, qpContext, rqd, iqd, rs, is, inline,
                    createCompletion(completion, wrap), ctx), wrap));
        }

        @Override
        public int getPrivilegedMemoryRegionToken() {
            return call("NdkGetPrivilegedMemoryRegionToken", inner::getPrivilegedMemoryRegionToken);
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object ctx) {
            return close(() -> inner.close(closeCompletion(completion), ctx));
        }
    }

    /** NDK_MR. */
    static final class Mr extends Guarded implements NdkMr {
        final Adapter adapter;
        final NdkMr inner;
        final boolean fast;
        final AtomicInteger inProgress = new AtomicInteger();
        volatile boolean completedOnce;
        volatile boolean registered;

        Mr(Adapter adapter, NdkMr inner, boolean fast) {
            super(fast ? "a fast-register MR" : "an MR");
            this.adapter = adapter;
            this.inner = inner;
            this.fast = fast;
        }

        @Override
        public NdkObject unwrap() {
            return inner;
        }

        @Override
        public NdkObjectHeader header() {
            return inner.header();
        }

        private NtStatus request(String what, Mdl mdl, RequestCompletion completion, java.util.function.Function<RequestCompletion, NtStatus> call,
                                 boolean register) {
            List<Integer> before = mdl == null ? null : counts(mdl);
            inProgress.incrementAndGet();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            RequestCompletion wrappedCompletion = (x, st) -> {
                if (before != null && !counts(mdl).equals(before)) {
                    flag("MR-REG-5", "the chain of " + what + " changed while the registration was pending");
                }
                finish(done, st, register);
                inCallback(this, () -> completion.complete(x, st));
            };
            NtStatus r = call(what, () -> call.apply(wrappedCompletion));
            if (r == null || !r.isPending()) {
                finish(done, r, register);
            }
            return r;
        }

        private void finish(java.util.concurrent.atomic.AtomicBoolean done, NtStatus st, boolean register) {
            if (done.compareAndSet(false, true)) {
                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                    completedOnce = true;
                    if (register) {
                        registered = true;
                    }
                }
                inProgress.decrementAndGet();
            }
        }

        @Override
        public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object ctx) {
            return request("NdkRegisterMr", mdl, completion, c -> inner.register(mdl, length, flags, c, ctx), true);
        }

        @Override
        public NtStatus deregister(RequestCompletion completion, Object ctx) {
            if (fast || !registered) {
                flag("MR-DEREG-1", "NdkDeregisterMr of " + name + " that is not registered");
            }
            registered = false;
            return call("NdkDeregisterMr", () -> inner.deregister((x, st) -> inCallback(this, () -> completion.complete(x, st)), ctx));
        }

        @Override
        public NtStatus initializeFastRegister(int count, boolean remote, RequestCompletion completion, Object ctx) {
            if (!fast) {
                flag("MR-FRI-1", "NdkInitializeFastRegisterMr of a normal MR");
            }
            return request("NdkInitializeFastRegisterMr", null, completion, c -> inner.initializeFastRegister(count, remote, c, ctx), false);
        }

        private void tokenRead(String what) {
            if (inProgress.get() > 0) {
                flag("MR-TOK-3", what + " while a registration or initialization of " + name + " was in progress");
            } else if (!completedOnce) {
                flag("MR-TOK-3", what + " of " + name + " before any registration or initialization completed with success");
            }
        }

        @Override
        public int getLocalToken() {
            tokenRead("NdkGetLocalTokenFromMr");
            return call("NdkGetLocalTokenFromMr", inner::getLocalToken);
        }

        @Override
        public int getRemoteToken() {
            tokenRead("NdkGetRemoteTokenFromMr");
            return call("NdkGetRemoteTokenFromMr", inner::getRemoteToken);
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object ctx) {
            return close(() -> inner.close(closeCompletion(completion), ctx));
        }
    }

    /** NDK_QP. */
    static final class Qp extends Guarded implements NdkQp {
        final Adapter adapter;
        final NdkQp inner;
        final AtomicInteger initiator = new AtomicInteger();
        final AtomicInteger receives = new AtomicInteger();
        volatile boolean openDeferRun;

        Qp(Adapter adapter, NdkQp inner) {
            super("a QP");
            this.adapter = adapter;
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

        private NtStatus post(String what, int flags, Supplier<NtStatus> body) {
            if ((flags & NdkOpFlags.DEFER) != 0 && !adapter.version.atLeast(NdkVersion.V1_2)) {
                flag("DEF-5", what + " with DEFER on an NDKPI " + adapter.version + " adapter");
            }
            if (initiator.incrementAndGet() > 1) {
                flag("WRP-1", what + " while another call was running on the same initiator queue");
            }
            try {
                NtStatus r = call(what, body);
                if (NtStatus.STATUS_SUCCESS.equals(r)) {
                    openDeferRun = (flags & NdkOpFlags.DEFER) != 0;
                } else {
                    openDeferRun = false;
                }
                return r;
            } finally {
                initiator.decrementAndGet();
            }
        }

        @Override
        public NtStatus fastRegister(Object ctx, NdkMr mr, int n, long[] pages, int fbo, long length, long base, int flags) {
            return post("NdkFastRegister", flags, () -> inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags));
        }

        @Override
        public NtStatus invalidate(Object ctx, NdkMr mr, int flags) {
            if (mr instanceof Mr m && !m.fast) {
                flag("INV-1", "NdkInvalidate of a normal MR");
            }
            return post("NdkInvalidate", flags, () -> inner.invalidate(ctx, mr, flags));
        }

        @Override
        public NtStatus read(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
            return post("NdkRead", flags, () -> inner.read(ctx, sgl, address, token, flags));
        }

        @Override
        public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
            return post("NdkWrite", flags, () -> inner.write(ctx, sgl, address, token, flags));
        }

        @Override
        public NtStatus send(Object ctx, NdkSge[] sgl, int flags) {
            return post("NdkSend", flags, () -> inner.send(ctx, sgl, flags));
        }

        @Override
        public NtStatus sendAndInvalidate(Object ctx, NdkSge[] sgl, int token, int flags) {
            return post("NdkSendAndInvalidate", flags, () -> inner.sendAndInvalidate(ctx, sgl, token, flags));
        }

        @Override
        public NtStatus receive(Object ctx, NdkSge[] sgl) {
            if (receives.incrementAndGet() > 1) {
                flag("WRP-1", "NdkReceive while another call was running on the same receive queue");
            }
            try {
                return call("NdkReceive", () -> inner.receive(ctx, sgl));
            } finally {
                receives.decrementAndGet();
            }
        }

        @Override
        public void flush() {
            call("NdkFlush", () -> {
                inner.flush();
                return null;
            });
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object ctx) {
            if (openDeferRun) {
                flag("DEF-5", "a QP closed with a DEFER run its consumer never ended");
            }
            return close(() -> inner.close(closeCompletion(completion), ctx));
        }
    }

    /** NDK_CQ. */
    static final class Cq extends Guarded implements NdkCq {
        final NdkCq inner;
        final AtomicInteger results = new AtomicInteger();

        Cq(NdkCq inner) {
            super("a CQ");
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

        private int serialized(String what, Supplier<Integer> body) {
            if (results.incrementAndGet() > 1) {
                flag("CQ-4", what + " while another result call was running on the same CQ");
            }
            try {
                return call(what, body);
            } finally {
                results.decrementAndGet();
            }
        }

        @Override
        public int getCqResults(NdkResult[] r) {
            return serialized("NdkGetCqResults", () -> inner.getCqResults(r));
        }

        @Override
        public int getCqResultsEx(NdkResultEx[] r) {
            return serialized("NdkGetCqResultsEx", () -> inner.getCqResultsEx(r));
        }

        @Override
        public NtStatus close(CloseCompletion completion, Object ctx) {
            return close(() -> inner.close(closeCompletion(completion), ctx));
        }
    }

    /** The reference provider behind the guard. */
    static NdkProvider provider() {
        return new GuardedReferenceProvider();
    }

    static NdkAdapterFactory factory(NdkAdapterFactory inner) {
        return new NdkAdapterFactory() {
            @Override
            public int pageSize() {
                return inner.pageSize();
            }

            @Override
            public Map<String, String> effectiveSettings() {
                return inner.effectiveSettings();
            }

            @Override
            public NdkAdapter openAdapter(HostMemory memory) {
                OPENED.incrementAndGet();
                return new Adapter(inner.openAdapter(memory));
            }
        };
    }

    static NdkProvider reference() {
        return new ReferenceProvider();
    }
}
