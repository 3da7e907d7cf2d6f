package org.ndktck.faults;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The misbehaving providers: the reference provider with its calls, completions, CQ entries,
 * headers or tokens disturbed by a {@link Hooks} wrapper. Each breaks one general rule in a way real
 * providers have, and the kit must end it as FAIL of the rule in its name, within the time bound, and go on
 * with a fresh adapter:
 * <ul>
 *   <li>{@code fault:GEN-TIME-1/blocks-forever}: NdkRegisterMr never returns;</li>
 *   <li>{@code fault:GEN-CB-1/pending-never-completes}, {@code fault:GEN-CB-1/completes-twice},
 *       {@code fault:GEN-CB-1/previous-request-context}, {@code fault:GEN-CB-2/after-inline-return}: completion faults;</li>
 *   <li>{@code fault:CQ-2/extra-entry-never-posted}, {@code fault:DEF-2/cq-entry-after-inline-failure}: CQ faults;</li>
 *   <li>{@code fault:GEN-EXC-1/throws-from-call}, {@code fault:GEN-EXC-1/throws-from-completion-path}: exceptions;</li>
 *   <li>{@code fault:GEN-CB-4/success-without-object}, {@code fault:OBJ-1/wrong-object-type}: objects;</li>
 *   <li>{@code fault:MR-TOK-5/token-changes-between-reads}: a token that is not stable.</li>
 * </ul>
 * Five older names are aliases of these, sharing the implementation (their descriptions say so):
 * {@code fault:GEN-CB-1/never}, {@code fault:GEN-CB-2}, {@code fault:GEN-CB-4}, {@code fault:OBJ-1}
 * ({@link SeedPageFaults}) and {@code fault:MR-TOK-5/changes-on-reread} ({@link SectionFaults}).
 * Which calls each one disturbs is chosen so that every kit run that exercises the rule meets it: the three
 * asynchronous MR requests (NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr) for completion
 * faults, NdkRegisterMr alone where a fault costs a time bound per call.
 */
public final class Misbehaviours {
    private Misbehaviours() {
    }

    /** The asynchronous requests of an MR, the calls the completion faults disturb. */
    static final Set<NdkCall> MR_REQUESTS = Set.of(NdkCall.REGISTER_MR, NdkCall.DEREGISTER_MR,
            NdkCall.INITIALIZE_FAST_REGISTER_MR);

    /** A request context no consumer ever passed: what a provider that mixes up its bookkeeping hands back. */
    static final class ForgedContext {
        private static final AtomicLong NEXT = new AtomicLong();
        private final String text;

        ForgedContext(String what) {
            this.text = "forged context #" + NEXT.incrementAndGet() + " (" + what + ")";
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(
                p("fault:GEN-TIME-1/blocks-forever",
                        "NdkRegisterMr never returns (blocks until the adapter is closed or the thread is interrupted)",
                        BlocksForever::new),
                asynchronous("fault:GEN-CB-1/pending-never-completes",
                        "NdkRegisterMr returns STATUS_PENDING and never calls the completion",
                        PendingNeverCompletes::new),
                asynchronous("fault:GEN-CB-1/completes-twice",
                        "MR requests (register, deregister, initialize) return STATUS_PENDING and call the completion twice",
                        CompletesTwice::new),
                p("fault:GEN-CB-2/after-inline-return",
                        "MR requests return their final status inline and then call the completion anyway",
                        AfterInlineReturn::new),
                asynchronous("fault:GEN-CB-1/previous-request-context",
                        "MR requests return STATUS_PENDING and complete with the previous request's context",
                        ForeignContext::new),
                p("fault:CQ-2/extra-entry-never-posted",
                        "the first successful work request on each CQ is followed by an extra entry with a RequestContext never posted",
                        CqForeignRequestContext::new),
                p("fault:GEN-EXC-1/throws-from-call",
                        "NdkRegisterMr throws IllegalStateException instead of returning an NTSTATUS",
                        ThrowsFromCall::new),
                asynchronous("fault:GEN-EXC-1/throws-from-completion-path",
                        "NdkRegisterMr pends; its completion worker thread dies with IllegalStateException before another thread delivers the completion",
                        ThrowsFromCompletionPath::new),
                p("fault:GEN-CB-4/success-without-object",
                        "NdkCreateMr returns STATUS_SUCCESS with no MR (null out parameter)",
                        SuccessWithoutObject::new),
                p("fault:OBJ-1/wrong-object-type",
                        "an MR's NDK_OBJECT_HEADER says NdkObjectTypePd instead of NdkObjectTypeMr",
                        WrongObjectType::new),
                p("fault:DEF-2/cq-entry-after-inline-failure",
                        "a work request that fails inline still puts an entry (with the error status) on its CQ",
                        CqEntryAfterInlineFailure::new),
                p("fault:MR-TOK-5/token-changes-between-reads",
                        "NdkGetRemoteTokenFromMr returns a different token on every second read of one registration",
                        TokenChangesBetweenReads::new));
    }

    private static NdkProvider p(String name, String description, Supplier<? extends Hooks> hooks) {
        return Variants.wrapped(name, description, hooks);
    }

    /** A fault whose breach is in a completion: marked so selftest also runs it under completion=pending. */
    private static NdkProvider asynchronous(String name, String description, Supplier<? extends Hooks> hooks) {
        return Variants.onAsynchronousPath(p(name, description, hooks));
    }

    // ------------------------------------------------------------------ GEN-TIME-1

    /** NdkRegisterMr blocks, interruptibly, until the adapter is closed; then it returns STATUS_CANCELLED. */
    static final class BlocksForever implements Hooks {
        private final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call != NdkCall.REGISTER_MR) {
                return inner.invoke(completion, context);
            }
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return NtStatus.STATUS_CANCELLED;
        }

        @Override
        public void adapterClosing() {
            closed.countDown();
        }
    }

    // ------------------------------------------------------------------ completions

    /** Base: a request's final status is learned from the wrapped provider, then delivered the fault's way. */
    private abstract static class Redeliver implements Hooks {
        ForwardingAdapter adapter;

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        boolean disturbs(NdkCall call) {
            return MR_REQUESTS.contains(call);
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (completion == null || !disturbs(call)) {
                return inner.invoke(completion, context);
            }
            NtStatus s = Await.request(inner, completion, context);
            if (s == null || s.isPending()) {
                return s;
            }
            return deliver(completion, context, s);
        }

        /**
         * @param completion the consumer's completion
         * @param context    the consumer's context
         * @param status     the request's final status
         * @return what the call returns
         */
        abstract NtStatus deliver(RequestCompletion completion, Object context, NtStatus status);
    }

    /** NdkRegisterMr returns STATUS_PENDING; the completion is swallowed. */
    static final class PendingNeverCompletes implements Hooks {
        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call != NdkCall.REGISTER_MR || completion == null) {
                return inner.invoke(completion, context);
            }
            inner.invoke((ctx, s) -> {
            }, context);
            return NtStatus.STATUS_PENDING;
        }
    }

    /** STATUS_PENDING, then the completion twice in a row on the provider's delivery thread. */
    static final class CompletesTwice extends Redeliver {
        @Override
        NtStatus deliver(RequestCompletion completion, Object context, NtStatus status) {
            adapter.deliveries().submit(() -> {
                completion.complete(context, status);
                completion.complete(context, status);
            });
            return NtStatus.STATUS_PENDING;
        }
    }

    /** The final status inline, and the completion as well, from the delivery thread. */
    static final class AfterInlineReturn extends Redeliver {
        @Override
        NtStatus deliver(RequestCompletion completion, Object context, NtStatus status) {
            adapter.deliveries().submit(() -> completion.complete(context, status));
            return status;
        }
    }

    /** STATUS_PENDING, then the completion with the context of the request before (or a forged one). */
    static final class ForeignContext extends Redeliver {
        private final AtomicReference<Object> previous = new AtomicReference<>();

        @Override
        NtStatus deliver(RequestCompletion completion, Object context, NtStatus status) {
            Object other = previous.getAndSet(context);
            Object wrong = other == null || other == context ? new ForgedContext("no earlier request") : other;
            adapter.deliveries().submit(() -> completion.complete(wrong, status));
            return NtStatus.STATUS_PENDING;
        }
    }

    /**
     * STATUS_PENDING; a worker thread of the provider dies with a RuntimeException in the completion path, and
     * a second thread, once the first is dead, delivers the completion (so the consumer is not left waiting and
     * the death is the only breach).
     */
    static final class ThrowsFromCompletionPath extends Redeliver {
        private static final AtomicInteger WORKERS = new AtomicInteger();

        @Override
        boolean disturbs(NdkCall call) {
            return call == NdkCall.REGISTER_MR;
        }

        @Override
        NtStatus deliver(RequestCompletion completion, Object context, NtStatus status) {
            adapter.deliveries().submit(() -> {
                Thread worker = new Thread(() -> {
                    throw new IllegalStateException("fault:GEN-EXC-1/throws-from-completion-path: the completion worker of "
                            + "NdkRegisterMr failed while completing the request");
                }, "fault-completion-worker-" + WORKERS.incrementAndGet());
                worker.setDaemon(true);
                worker.start();
                try {
                    worker.join(TimeUnit.SECONDS.toMillis(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                completion.complete(context, status);
            });
            return NtStatus.STATUS_PENDING;
        }
    }

    // ------------------------------------------------------------------ exceptions

    /** NdkRegisterMr throws before it does anything. */
    static final class ThrowsFromCall implements Hooks {
        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call == NdkCall.REGISTER_MR) {
                throw new IllegalStateException("fault:GEN-EXC-1/throws-from-call: NdkRegisterMr threw instead of returning an NTSTATUS");
            }
            return inner.invoke(completion, context);
        }
    }

    // ------------------------------------------------------------------ objects

    /**
     * NdkCreateMr: STATUS_SUCCESS inline, but the out parameter stays null. The MR the reference made is closed
     * again at once, so the PD's close does not wait for an MR the consumer never saw (one breach, not two).
     */
    static final class SuccessWithoutObject implements Hooks {
        @Override
        public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                            CreateCall<T> inner) {
            if (call != NdkCall.CREATE_MR) {
                return inner.invoke(completion, context);
            }
            CreateResult<T> r = Await.create(inner, completion, context);
            if (r != null && NtStatus.STATUS_SUCCESS.equals(r.status())) {
                if (r.object() instanceof NdkMr made) {
                    made.close((ctx) -> {
                    }, null);
                }
                return new CreateResult<>(NtStatus.STATUS_SUCCESS, null);
            }
            return r;
        }
    }

    /** The header of every MR says PD. */
    static final class WrongObjectType implements Hooks {
        @Override
        public NdkObjectHeader header(NdkObject object, NdkObjectHeader header) {
            if (object instanceof ForwardingMr && header != null) {
                return new NdkObjectHeader(header.version(), NdkObjectType.PD);
            }
            return header;
        }
    }

    // ------------------------------------------------------------------ CQ entries

    /** After the first successful post on a CQ, one extra SUCCESS entry with a forged RequestContext. */
    static final class CqForeignRequestContext implements Hooks {
        private final Set<ForwardingCq> forged = ConcurrentHashMap.newKeySet();

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            NtStatus s = inner.apply(request);
            ForwardingCq cq = qp.cqFor(request.type());
            if (NtStatus.STATUS_SUCCESS.equals(s) && cq != null && forged.add(cq)) {
                cq.inject(new NdkResultEx(NtStatus.STATUS_SUCCESS, 0, qp.qpContext(),
                        new ForgedContext("never posted"), request.type(), 0));
            }
            return s;
        }
    }

    /** A post (of the given calls) that fails inline also puts an entry with its error status on its CQ. */
    static final class CqEntryAfterInlineFailure implements Hooks {
        private final Set<NdkCall> calls;

        /** @param calls the work requests that misbehave */
        CqEntryAfterInlineFailure(Set<NdkCall> calls) {
            this.calls = calls;
        }

        /** Every work request misbehaves. */
        CqEntryAfterInlineFailure() {
            this(java.util.EnumSet.allOf(NdkCall.class));
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            NtStatus s = inner.apply(request);
            ForwardingCq cq = qp.cqFor(request.type());
            if (s != null && s.isError() && cq != null && calls.contains(request.call())) {
                cq.inject(new NdkResultEx(s, 0, qp.qpContext(), request.context(), request.type(), 0));
            }
            return s;
        }
    }

    // ------------------------------------------------------------------ tokens

    /** Every second NdkGetRemoteTokenFromMr of an MR returns the token with bit 16 flipped. */
    static final class TokenChangesBetweenReads implements Hooks {
        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call != NdkCall.GET_REMOTE_TOKEN) {
                return token;
            }
            int n = mr.state(AtomicInteger::new).getAndIncrement();
            return (n & 1) == 0 ? token : token ^ 0x0001_0000;
        }
    }
}
