package org.ndktck.tck.kit;

import org.ndktck.faults.Misbehaviour;
import org.ndktck.faults.Wrapped;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Legal behaviours the kit must accept (issue 8): variants of the reference provider that are unusual but
 * conformant. Each is a provider class the kit finds by class name.
 */
final class LegalVariants {
    private LegalVariants() {
    }

    /** Base: the reference with every adapter wrapped in a misbehaviour that is in fact legal. */
    abstract static class Legal implements NdkProvider {
        private final NdkProvider delegate;

        Legal(String name, Supplier<Misbehaviour> m) {
            this.delegate = ReferenceProvider.builder().name(name).decorateAdapters(a -> Wrapped.adapter(a, m.get())).build();
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
            super("legal:completion-before-return", () -> new Misbehaviour() {
                @Override
                public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                    NtStatus r = mr.delegate().register(mdl, length, flags, c, ctx);
                    if (r.isPending()) {
                        return r;
                    }
                    c.complete(ctx, r);
                    return NtStatus.STATUS_PENDING;
                }

                @Override
                public CreateResult<NdkMr> createMr(Wrapped.Pd pd, boolean fast, CreateCompletion<NdkMr> c, Object ctx) {
                    CreateResult<NdkMr> r = pd.createMrPlain(fast, c, ctx);
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
            super("legal:completion-on-a-foreign-thread", () -> new Misbehaviour() {
                @Override
                public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                    NtStatus r = mr.delegate().register(mdl, length, flags, c, ctx);
                    if (r.isPending()) {
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
            super("legal:slow-within-the-bound", () -> new Misbehaviour() {
                @Override
                public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                    LockSupport.parkNanos(2_000_000);
                    return mr.delegate().register(mdl, length, flags, c, ctx);
                }

                @Override
                public NtStatus fastRegister(Wrapped.Qp qp, Object context, NdkMr mr, int n, long[] pages, int fbo, long length,
                                             long bva, int flags) {
                    LockSupport.parkNanos(2_000_000);
                    return qp.delegate().fastRegister(context, mr, n, pages, fbo, length, bva, flags);
                }
            });
        }
    }
}
