package org.ndktck.faults;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Providers that behave in ways the rules allow but a careless kit might reject. The kit must give
 * each of them no FAIL:
 * <ul>
 *   <li>{@code legal:early-completion}: every asynchronous request and create returns STATUS_PENDING only
 *       after its completion, called on the provider's own delivery thread, has returned;</li>
 *   <li>{@code legal:foreign-thread-completion}: every asynchronous request and create returns STATUS_PENDING
 *       and completes later on the provider's delivery thread (not the thread that called);</li>
 *   <li>{@code legal:slow}: one call in eight sleeps 2 to 5 ms before it runs (far within the time bound);</li>
 *   <li>{@code legal:reentrant-callbacks}: every asynchronous request and create calls its completion
 *       promptly on the calling thread, before it returns STATUS_PENDING, so a consumer that calls the provider
 *       from inside the callback re-enters it in the middle of a call.</li>
 * </ul>
 * A completion delivered later must still come before the close of its object ends (CL-4, CL-6): with
 * {@code legal:foreign-thread-completion} a close first lets the delivery thread deliver what it holds, then
 * closes as the reference does. The other styles deliver before the call returns and leave closes alone.
 * NdkBuildLam without a completion is left alone.
 */
public final class LegalBehaviours {
    private LegalBehaviours() {
    }

    /**
     * @return the providers, each with its one-line description: these four, then those that use a freedom of
     *     the pages hard ({@link LegalFreedoms#providers()}), then those that take the other reading of an
     *     ambiguity ({@link LegalReadings#providers()})
     */
    public static List<NdkProvider> providers() {
        List<NdkProvider> all = new java.util.ArrayList<>(behaviours());
        all.addAll(LegalFreedoms.providers());
        all.addAll(LegalReadings.providers());
        all.addAll(MisuseFaults.legal());
        all.addAll(SlowProviders.legal());
        all.addAll(LegalPageReadings.providers());
        all.addAll(LegalTokenScopes.providers());
        all.addAll(LegalAcceptedRequests.providers());
        all.addAll(LegalIndependentProviders.providers());
        all.addAll(LegalTinyLimits.providers());
        all.addAll(RegistrationReuseFaults.legal());

        all.addAll(LegalCompletionFreedoms.providers());
        return List.copyOf(all);
    }

    private static List<NdkProvider> behaviours() {
        return List.of(
                p("legal:early-completion",
                        "asynchronous requests and creates pend, and complete on another thread before the call returns",
                        () -> new Convert(Style.EARLY)),
                p("legal:foreign-thread-completion",
                        "asynchronous requests and creates pend, and complete later on the provider's own thread",
                        () -> new Convert(Style.FOREIGN_THREAD)),
                p("legal:slow",
                        "one call in eight sleeps 2 to 5 ms before it runs (within the time bound)",
                        Slow::new),
                p("legal:reentrant-callbacks",
                        "asynchronous requests and creates call their completion on the calling thread before returning STATUS_PENDING",
                        () -> new Convert(Style.REENTRANT)));
    }

    private static NdkProvider p(String name, String description, Supplier<? extends Hooks> hooks) {
        return Variants.wrapped(name, description, hooks);
    }

    /** How a converted call's completion reaches the consumer. */
    enum Style {
        /** On the delivery thread, awaited before the call returns. */
        EARLY,
        /** On the delivery thread, not awaited. */
        FOREIGN_THREAD,
        /** On the calling thread, before the call returns. */
        REENTRANT
    }

    /** Turns every request and create into STATUS_PENDING plus a completion delivered in one {@link Style}. */
    static final class Convert implements Hooks {
        private final Style style;
        private final long delayMillis;
        private ForwardingAdapter adapter;

        Convert(Style style) {
            this(style, 0);
        }

        /**
         * @param style       how a completion reaches the consumer
         * @param delayMillis how long the delivery thread waits before each completion ({@link Style#FOREIGN_THREAD}
         *                    only), in milliseconds: a slow but correct provider ({@link SlowProviders})
         */
        Convert(Style style, long delayMillis) {
            this.style = style;
            this.delayMillis = delayMillis;
        }

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        /** {@link #deliver}, as {@link Await#completeLater} takes it: every delivery is taken. */
        private boolean deliverAlways(Runnable completion) {
            deliver(completion);
            return true;
        }

        private void deliver(Runnable completion) {
            switch (style) {
                case EARLY -> adapter.deliveries().runAndWait(completion);
                case FOREIGN_THREAD -> adapter.deliveries().submit(delayMillis <= 0 ? completion : () -> {
                    try {
                        Thread.sleep(delayMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    completion.run();
                });
                case REENTRANT -> completion.run();
                default -> throw new IllegalStateException(String.valueOf(style));
            }
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            return Await.completeLater(inner, completion, context, this::deliverAlways);
        }

        @Override
        public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                            CreateCall<T> inner) {
            return Await.createLater(inner, completion, context, this::deliverAlways);
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            if (style != Style.FOREIGN_THREAD) {
                return inner.invoke(completion, context);
            }
            adapter.deliveries().quiesce();
            return inner.invoke(completion, context);
        }
    }

    /** Every eighth call sleeps 2, 3, 4 or 5 ms in turn. */
    static final class Slow implements Hooks {
        private final AtomicLong calls = new AtomicLong();

        /**
         * @param n the call's number, from 1
         * @return how long that call sleeps before it runs, in milliseconds: 0, or 2 to 5 for every eighth call
         */
        static long sleepMillis(long n) {
            return n % 8 == 0 ? 2 + (n / 8) % 4 : 0;
        }

        @Override
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            long pause = sleepMillis(calls.incrementAndGet());
            if (pause > 0) {
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return body.get();
        }
    }
}
