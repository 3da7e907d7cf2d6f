package org.ndktck.faults;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import static org.ndktck.faults.SectionFaults.INVALID_DEVICE_STATE;
import static org.ndktck.faults.SectionFaults.ok;
import static org.ndktck.faults.SectionFaults.onSuccess;
import static org.ndktck.faults.SectionFaults.wrapped;

/**
 * The faults of the catalog's close section (CL-1, CL-2, CL-4, CL-5, CL-6, CL-9: NdkCloseMr, NdkCloseQp, NdkClosePd,
 * NdkCloseAdapter and their callbacks), listed by {@link SectionFaults} among its own. Each is the reference provider
 * with its SPI objects wrapped with one {@link Hooks} changed, named {@code fault:RULE-ID/variant} after the rule the
 * kit must FAIL for it; an early close callback runs on a daemon thread of its own ({@code ndk-fault-early-callback}).
 */
final class CloseFaults {
    private CloseFaults() {
    }

    private static final ExecutorService EARLY = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ndk-fault-early-callback");
        t.setDaemon(true);
        return t;
    });

    /** Adds the close section's faults to {@code out}, in the order {@code ./ndk-tck providers} lists them. */
    static void close(List<NdkProvider> out) {
        out.add(wrapped("fault:CL-1/callback-after-success", "an MR close that returns STATUS_SUCCESS calls the close callback too",
                () -> new Hooks() {
                    @Override
                    public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object ctx, CloseCall inner) {
                        NtStatus r = inner.invoke(completion, ctx);
                        return call == NdkCall.CLOSE_MR ? onSuccess(r, () -> completion.complete(ctx)) : r;
                    }
                }));
        out.add(wrapped("fault:CL-2/refuses-registered-mr", "closing a registered MR fails with STATUS_INVALID_DEVICE_STATE (deregister first)",
                () -> new Hooks() {
                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        if (!(target instanceof ForwardingMr mr)) {
                            return inner.invoke(c, ctx);
                        }
                        AtomicBoolean registered = mr.state(AtomicBoolean::new);
                        if (call == NdkCall.REGISTER_MR) {
                            return Hooks.mapStatus(inner, c, ctx, st -> {
                                registered.compareAndSet(false, ok(st));
                                return st;
                            });
                        }
                        if (call == NdkCall.DEREGISTER_MR) {
                            registered.set(false);
                        }
                        return inner.invoke(c, ctx);
                    }

                    @Override
                    public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object ctx, CloseCall inner) {
                        return object instanceof ForwardingMr mr && mr.state(AtomicBoolean::new).get() ? INVALID_DEVICE_STATE
                                : inner.invoke(completion, ctx);
                    }
                }));
        // The fault shows only when the registration pends: it carries completion=pending as its default.
        out.add(FaultDefaults.withDefaults(wrapped("fault:CL-4/close-callback-first",
                "closing an MR with a request pending calls the close callback at once, before the request's completion", () -> new Hooks() {
                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        if (call != NdkCall.REGISTER_MR && call != NdkCall.INITIALIZE_FAST_REGISTER_MR) {
                            return inner.invoke(c, ctx);
                        }
                        AtomicInteger pending = ((ForwardingMr) target).state(AtomicInteger::new);
                        pending.incrementAndGet();
                        // The request counts as pending until its completion has returned.
                        NtStatus r = inner.invoke((x, st) -> {
                            try {
                                c.complete(x, st);
                            } finally {
                                pending.decrementAndGet();
                            }
                        }, ctx);
                        if (!r.isPending()) {
                            pending.decrementAndGet();
                        }
                        return r;
                    }

                    @Override
                    public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object ctx, CloseCall inner) {
                        if (!(object instanceof ForwardingMr mr) || mr.state(AtomicInteger::new).get() <= 0) {
                            return inner.invoke(completion, ctx);
                        }
                        NtStatus r = inner.invoke(x -> { }, ctx);
                        EARLY.execute(() -> completion.complete(ctx));
                        return ok(r) ? NtStatus.STATUS_PENDING : r;
                    }
                }), Map.of("completion", "pending")));
        out.add(wrapped("fault:CL-5/close-leaves-requests", "closing a QP leaves its pending receives and sends without a completion",
                () -> new Hooks() {
                    final Set<Object> orphans = ConcurrentHashMap.newKeySet();

                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        if (w.call() == NdkCall.RECEIVE || w.call() == NdkCall.SEND) {
                            qp.<Set<Object>>state(ConcurrentHashMap::newKeySet).add(w.context());
                        }
                        return inner.apply(w);
                    }

                    @Override
                    public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object ctx, CloseCall inner) {
                        if (object instanceof ForwardingQp qp) {
                            orphans.addAll(qp.<Set<Object>>state(ConcurrentHashMap::newKeySet));
                        }
                        return inner.invoke(completion, ctx);
                    }

                    @Override
                    public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
                        return Hooks.mapResults(results, inner,
                                e -> orphans.contains(e.requestContext()) && NtStatus.STATUS_CANCELLED.equals(e.status()) ? null : e);
                    }
                }));
        out.add(wrapped("fault:CL-6/success-with-children", "closing a PD with live MRs or QPs returns STATUS_SUCCESS at once",
                () -> new Hooks() {
                    @Override
                    public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object ctx, CloseCall inner) {
                        if (call != NdkCall.CLOSE_PD) {
                            return inner.invoke(completion, ctx);
                        }
                        NtStatus r = inner.invoke(x -> { }, ctx);
                        return r.isPending() ? NtStatus.STATUS_SUCCESS : r;
                    }
                }));
        out.add(FaultDefaults.withDefaults(wrapped("fault:CL-9/close-returns-early", "NdkCloseAdapter returns at once and closes the adapter on "
                + "another thread, so callbacks of its objects still run after it returned (default completion=pending)", () -> new Hooks() {
                    @Override
                    public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
                        if (call != NdkCall.CLOSE_ADAPTER) {
                            return body.get();
                        }
                        Thread t = new Thread(body::get, "fault-CL-9-close");
                        t.setDaemon(true);
                        t.start();
                        return null;
                    }
                }), Map.of("completion", "pending")));
    }
}
