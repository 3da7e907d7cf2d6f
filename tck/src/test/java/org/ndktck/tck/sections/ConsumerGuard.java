package org.ndktck.tck.sections;

import org.ndktck.faults.ForwardingAdapter;
import org.ndktck.faults.ForwardingCq;
import org.ndktck.faults.ForwardingMr;
import org.ndktck.faults.ForwardingObject;
import org.ndktck.faults.ForwardingQp;
import org.ndktck.faults.Hooks;
import org.ndktck.faults.NdkCall;
import org.ndktck.faults.WorkRequest;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The consumer guard: the {@link Hooks} of one adapter of the {@link GuardedReferenceProvider} (the
 * reference provider wrapped by the fault catalogue's {@link ForwardingAdapter}). It records every consumer rule
 * the kit breaks while it runs against that provider, so the kit's own tests can require that the kit is a
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
 * Per-object state (calls executing, close started, registration in progress, queues busy) lives in the
 * object's {@link ForwardingObject#state} slot; violations and the completion callbacks running on a thread
 * are global. Use it with {@code ndk.tck.provider=org.ndktck.tck.sections.GuardedReferenceProvider}.
 */
final class ConsumerGuard implements Hooks {

    /** One consumer rule the kit broke. */
    record Violation(String rule, String what, String thread, String propertyRule) {
        @Override
        public String toString() {
            return rule + ": " + what + " (thread " + thread + ")";
        }
    }

    private static final AtomicLong OPENED = new AtomicLong();
    private static final List<Violation> VIOLATIONS = Collections.synchronizedList(new ArrayList<>());
    /** The objects whose completion callbacks run on this thread, innermost first. */
    private static final ThreadLocal<Deque<Object>> IN_CALLBACK = ThreadLocal.withInitial(ArrayDeque::new);
    private static final Set<NdkCall> CLOSES = EnumSet.of(NdkCall.CLOSE_PD, NdkCall.CLOSE_MR, NdkCall.CLOSE_QP, NdkCall.CLOSE_CQ);

    /** Forgets what was recorded. */
    static void reset() {
        VIOLATIONS.clear();
    }

    /** @return adapters opened behind the guard so far (by {@link GuardedReferenceProvider}) */
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
        VIOLATIONS.add(new Violation(rule, what, Thread.currentThread().getName(),
                org.ndktck.tck.harness.CurrentProperty.primaryRule("")));
    }

    /** @return the hooks of an adapter {@link GuardedReferenceProvider} opened, counted in {@link #adaptersOpened()} */
    static ConsumerGuard forOpenedAdapter() {
        OPENED.incrementAndGet();
        return new ConsumerGuard();
    }

    /**
     * @param inner an adapter (a stub in the guard's own tests)
     * @return {@code inner} behind the guard (not counted in {@link #adaptersOpened()})
     */
    static NdkAdapter guard(NdkAdapter inner) {
        return new ForwardingAdapter(inner, new ConsumerGuard(), "consumer-guard");
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

    /** Modification counts of a chain (at most 64 MDLs), to see a consumer touching it. */
    private static List<Integer> counts(Mdl mdl) {
        List<Integer> out = new ArrayList<>();
        int n = 0;
        for (Mdl m = mdl; m != null && n < 64; m = m.next(), n++) {
            out.add(m.modificationCount());
        }
        return out;
    }

    /** What the guard knows of one PD, MR, QP or CQ (the MR, QP and CQ fields stay unused on other objects). */
    private static final class Guarded {
        final String name;
        final AtomicInteger executing = new AtomicInteger();
        volatile boolean closing;
        /** MR: registrations and initializations not yet complete. */
        final AtomicInteger inProgress = new AtomicInteger();
        /** MR: some registration or initialization completed with success. */
        volatile boolean completedOnce;
        /** MR: registered by NdkRegisterMr and not deregistered since. */
        volatile boolean registered;
        /** QP: calls running on the initiator queue and on the receive queue; CQ: result calls running. */
        final AtomicInteger initiator = new AtomicInteger();
        final AtomicInteger receives = new AtomicInteger();
        final AtomicInteger results = new AtomicInteger();
        /** QP: the last work request that succeeded carried DEFER. */
        volatile boolean openDeferRun;

        Guarded(NdkObject object) {
            if (object instanceof ForwardingMr mr) {
                name = mr.fastRegister() ? "a fast-register MR" : "an MR";
            } else if (object instanceof ForwardingQp) {
                name = "a QP";
            } else if (object instanceof ForwardingCq) {
                name = "a CQ";
            } else {
                name = "a PD";
            }
        }

        /** Ends one registration or initialization (once, whether it completed inline or by callback). */
        void finish(AtomicBoolean done, NtStatus st, boolean register) {
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

        /** @return the queue {@code call} takes for its whole run (WRP-1, CQ-4), or null */
        AtomicInteger queue(NdkCall call) {
            return switch (call) {
                case FAST_REGISTER, INVALIDATE, READ, WRITE, SEND, SEND_AND_INVALIDATE -> initiator;
                case RECEIVE -> receives;
                case GET_CQ_RESULTS, GET_CQ_RESULTS_EX -> results;
                default -> null;
            };
        }
    }

    private static Guarded guarded(NdkObject object) {
        return ((ForwardingObject<?>) object).state(() -> new Guarded(object));
    }

    /** The NDKPI version of this guard's adapter (DEF-5). */
    private NdkVersion version;
    /** AdapterContext of each LAM built and not yet released (LAM-9). */
    private final Map<NdkLogicalAddressMapping, Object> contexts = Collections.synchronizedMap(new IdentityHashMap<>());

    private ConsumerGuard() {
    }

    @Override
    public void attach(ForwardingAdapter adapter) {
        version = adapter.inner().queryAdapterInfo().version();
    }

    /** CL-8 on NdkCloseAdapter; on a PD, MR, QP or CQ (closes aside): the checks made before it runs, then CL-3. */
    @Override
    public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
        if (call == NdkCall.CLOSE_ADAPTER && !IN_CALLBACK.get().isEmpty()) {
            flag("CL-8", "NdkCloseAdapter from inside a completion callback");
        }
        if (!(target instanceof ForwardingObject<?>) || call == NdkCall.HEADER || CLOSES.contains(call)) {
            return body.get();
        }
        Guarded g = guarded(target);
        before(call, target, g);
        AtomicInteger queue = g.queue(call);
        if (queue != null && queue.incrementAndGet() > 1) {
            if (queue == g.results) {
                flag("CQ-4", call + " while another result call was running on the same CQ");
            } else {
                flag("WRP-1", call + " while another call was running on the same " + (queue == g.receives ? "receive" : "initiator") + " queue");
            }
        }
        try {
            if (g.closing) {
                flag("CL-3", call + " on " + g.name + " after its close started");
            }
            g.executing.incrementAndGet();
            try {
                return body.get();
            } finally {
                g.executing.decrementAndGet();
            }
        } finally {
            if (queue != null) {
                queue.decrementAndGet();
            }
        }
    }

    /** MR-TOK-3, MR-DEREG-1 and MR-FRI-1: what a call on an MR must not be made without. */
    private static void before(NdkCall call, NdkObject target, Guarded g) {
        switch (call) {
            case GET_LOCAL_TOKEN, GET_REMOTE_TOKEN -> {
                if (g.inProgress.get() > 0) {
                    flag("MR-TOK-3", call + " while a registration or initialization of " + g.name + " was in progress");
                } else if (!g.completedOnce) {
                    flag("MR-TOK-3", call + " of " + g.name + " before any registration or initialization completed with success");
                }
            }
            case DEREGISTER_MR -> {
                if (((ForwardingMr) target).fastRegister() || !g.registered) {
                    flag("MR-DEREG-1", "NdkDeregisterMr of " + g.name + " that is not registered");
                }
                g.registered = false;
            }
            case INITIALIZE_FAST_REGISTER_MR -> {
                if (!((ForwardingMr) target).fastRegister()) {
                    flag("MR-FRI-1", "NdkInitializeFastRegisterMr of a normal MR");
                }
            }
            default -> {
            }
        }
    }

    /** The creating object's callbacks (GEN-LIFE-2, CL-8). */
    @Override
    public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                        CreateCall<T> inner) {
        return inner.invoke((x, st, o) -> inCallback(parent, () -> completion.complete(x, st, o)), context);
    }

    /** An MR's requests: MR-REG-5 and the progress MR-TOK-3 and MR-DEREG-1 look at. */
    @Override
    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
        if (call == NdkCall.DEREGISTER_MR) {
            return inner.invoke((x, st) -> inCallback(target, () -> completion.complete(x, st)), context);
        }
        boolean register = call == NdkCall.REGISTER_MR;
        Guarded g = guarded(target);
        Mdl mdl = register ? ((ForwardingMr) target).mdl() : null;
        List<Integer> before = mdl == null ? null : counts(mdl);
        g.inProgress.incrementAndGet();
        AtomicBoolean done = new AtomicBoolean();
        NtStatus r = inner.invoke((x, st) -> {
            if (before != null && !counts(mdl).equals(before)) {
                flag("MR-REG-5", "the chain of " + call + " changed while the registration was pending");
            }
            g.finish(done, st, register);
            inCallback(target, () -> completion.complete(x, st));
        }, context);
        if (r == null || !r.isPending()) {
            g.finish(done, r, register);
        }
        return r;
    }

    /** LAM-1, and the AdapterContext LAM-9 compares with. */
    @Override
    public NtStatus buildLam(ForwardingAdapter adapter, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion completion, Object context,
                             RequestCall inner) {
        List<Integer> before = counts(mdl);
        NtStatus r = inner.invoke(completion == null ? null : (x, st) -> {
            if (!counts(mdl).equals(before)) {
                flag("LAM-1", "the chain of NdkBuildLam changed while the call was pending");
            }
            if (NtStatus.STATUS_SUCCESS.equals(st)) {
                contexts.put(lam, lam.adapterContext());
            }
            inCallback(adapter, () -> completion.complete(x, st));
        }, context);
        if (NtStatus.STATUS_SUCCESS.equals(r)) {
            contexts.put(lam, lam.adapterContext());
        }
        return r;
    }

    /** LAM-9. */
    @Override
    public void releaseLam(NdkLogicalAddressMapping lam, Runnable inner) {
        Object c = contexts.remove(lam);
        if (c != null && lam.adapterContext() != c) {
            flag("LAM-9", "AdapterContext of a LAM was changed before NdkReleaseLam");
        }
        inner.run();
    }

    /** DEF-5 (a QP closed inside a DEFER run), CL-3 (a second close) and GEN-LIFE-2. */
    @Override
    public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
        Guarded g = guarded(object);
        if (call == NdkCall.CLOSE_QP && g.openDeferRun) {
            flag("DEF-5", "a QP closed with a DEFER run its consumer never ended");
        }
        if (g.closing) {
            flag("CL-3", "a second close of " + g.name);
        }
        if (g.executing.get() > 0 && !insideCallbackOf(object)) {
            flag("GEN-LIFE-2", "close of " + g.name + " while " + g.executing.get() + " call(s) on it were executing");
        }
        g.closing = true;
        return inner.invoke(x -> inCallback(object, () -> completion.complete(x)), context);
    }

    /** INV-1, DEF-5 (DEFER on an NDKPI 1.1 adapter) and the DEFER run a later close looks at. */
    @Override
    public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
        if (request.call() == NdkCall.RECEIVE) {
            return inner.apply(request);
        }
        if (request.call() == NdkCall.INVALIDATE && request.mr() instanceof ForwardingMr m && !m.fastRegister()) {
            flag("INV-1", "NdkInvalidate of a normal MR");
        }
        boolean defer = (request.flags() & NdkOpFlags.DEFER) != 0;
        if (defer && !version.atLeast(NdkVersion.V1_2)) {
            flag("DEF-5", request.call() + " with DEFER on an NDKPI " + version + " adapter");
        }
        NtStatus r = inner.apply(request);
        guarded(qp).openDeferRun = defer && NtStatus.STATUS_SUCCESS.equals(r);
        return r;
    }
}
