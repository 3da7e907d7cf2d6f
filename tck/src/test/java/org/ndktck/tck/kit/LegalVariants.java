package org.ndktck.tck.kit;

import org.ndktck.faults.ForwardingPd;
import org.ndktck.faults.ForwardingQp;
import org.ndktck.faults.Hooks;
import org.ndktck.faults.NdkCall;
import org.ndktck.faults.Variants;
import org.ndktck.faults.WorkRequest;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Legal behaviours the kit must accept: variants of the reference provider that are unusual but
 * conformant. Each is a provider class the kit finds by class name.
 */
final class LegalVariants {
    private LegalVariants() {
    }

    /** Base: the reference with every adapter wrapped in hooks whose misbehaviour is in fact legal. */
    abstract static class Legal implements NdkProvider {
        private final NdkProvider delegate;

        Legal(String name, Supplier<Hooks> hooks) {
            this.delegate = Variants.wrapped(name, name, hooks);
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public NdkAdapterFactory configure(Map<String, String> settings) throws InvalidSettingException {
            return delegate.configure(settings);
        }
    }

    /** NdkRegisterMr and NdkCreateMr return STATUS_PENDING but call the completion before they return. */
    public static final class CompletionBeforeReturn extends Legal {
        public CompletionBeforeReturn() {
            super("legal:completion-before-return", () -> new Hooks() {
                @Override
                public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                    NtStatus r = inner.invoke(c, ctx);
                    if (call != NdkCall.REGISTER_MR || r.isPending()) {
                        return r;
                    }
                    c.complete(ctx, r);
                    return NtStatus.STATUS_PENDING;
                }

                @Override
                public CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fast, CreateCompletion<NdkMr> c, Object ctx,
                                                    CreateCall<NdkMr> inner) {
                    CreateResult<NdkMr> r = inner.invoke(c, ctx);
                    if (r.status().isPending()) {
                        return r;
                    }
                    c.complete(ctx, r.status(), r.object());
                    return CreateResult.pending();
                }
            });
        }
    }

    /** NdkRegisterMr pends and completes 1 ms later on a thread of its own. */
    public static final class CompletionOnAForeignThread extends Legal {
        public CompletionOnAForeignThread() {
            super("legal:completion-on-a-foreign-thread", () -> new Hooks() {
                @Override
                public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                    NtStatus r = inner.invoke(c, ctx);
                    if (call != NdkCall.REGISTER_MR || r.isPending()) {
                        return r;
                    }
                    Thread t = new Thread(() -> {
                        LockSupport.parkNanos(1_000_000);
                        c.complete(ctx, r);
                    });
                    t.setDaemon(true);
                    t.start();
                    return NtStatus.STATUS_PENDING;
                }
            });
        }
    }

    /** Every NdkRegisterMr and NdkFastRegister takes 2 ms: slow, but well within the bound. */
    public static final class SlowWithinTheBound extends Legal {
        public SlowWithinTheBound() {
            super("legal:slow-within-the-bound", () -> new Hooks() {
                @Override
                public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                    if (call == NdkCall.REGISTER_MR) {
                        LockSupport.parkNanos(2_000_000);
                    }
                    return inner.invoke(c, ctx);
                }

                @Override
                public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                    if (w.call() == NdkCall.FAST_REGISTER) {
                        LockSupport.parkNanos(2_000_000);
                    }
                    return inner.apply(w);
                }
            });
        }
    }
}
