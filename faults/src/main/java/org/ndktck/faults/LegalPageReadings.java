package org.ndktck.faults;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Legal providers for freedoms the current NDKPI pages give, which a stricter reading of the kit once failed
 * (docs/ARCHITECTURE.md, "Decisions on the page re-reading"). Each is the reference provider with one such freedom
 * used hard; the kit must give none of them a FAIL, in either completion mode.
 * <ul>
 *   <li>{@code legal:iwarp}: the reference with {@code transport=iwarp}: a send that finds no receive posted at the
 *       peer ends the connection (STATUS_CONNECTION_ABORTED, both QPs flushed), as iWARP does (TR-1, AMB-31);</li>
 *   <li>{@code legal:busy-refusals}: every {@value #EVERY_BUSY}th NdkCreateMr, NdkRegisterMr,
 *       NdkInitializeFastRegisterMr, NdkBuildLam, NdkFastRegister and NdkInvalidate (per kind, across the provider)
 *       is refused with a "try later" status other than STATUS_INSUFFICIENT_RESOURCES (STATUS_DEVICE_BUSY,
 *       STATUS_NO_MEMORY, STATUS_DEVICE_NOT_READY in turn), inline or through its completion (their pages' "other
 *       status codes");</li>
 *   <li>{@code legal:close-refused}: every {@value #EVERY_CLOSE}th close of an MR, PD, QP or CQ (across the provider)
 *       fails inline, alternately with STATUS_DEVICE_BUSY and STATUS_UNSUCCESSFUL, without a close callback and with
 *       the object left open; the next close of it goes through (the object-lifetime page of 2022: a close completed
 *       synchronously, in error, gets no callback; CL-2);</li>
 *   <li>{@code legal:result-token-32}: the TypeSpecificCompletionOutput of a ReceiveAndInvalidate CQ entry carries the
 *       invalidated 32-bit token in its low half and other bits in its high half (the NDK_RESULT_EX page defines only
 *       a 32-bit token there; CQ-3);</li>
 *   <li>{@code legal:refast-register-keeps-token}: NdkFastRegister of an MR whose fast registration was never
 *       invalidated is accepted and the new registration reports the same remote token (the token names the MR's
 *       current registration, as after an invalidation; SEC-1, MR-TOK-4);</li>
 *   <li>{@code legal:LIM-2/slot-freed-late}: an adapter holds at most {@value #SLOTS} MRs, and a closed MR's slot
 *       comes back only {@value #SLOT_LAG_MILLIS} ms after its close returned (the pages are silent on when; LIM-2 is a
 *       kit interpretation, reported ADVISORY);</li>
 *   <li>{@code legal:inline-write-refused}: NdkWrite with NDK_OP_FLAG_INLINE fails inline, alternately with
 *       STATUS_NOT_SUPPORTED and STATUS_INVALID_PARAMETER, and moves nothing: the NdkWrite page lists SILENT_SUCCESS,
 *       READ_FENCE and DEFER as its flags, not INLINE (NdkSend and NdkSendAndInvalidate list it; SGE-3).</li>
 * </ul>
 */
public final class LegalPageReadings {
    /** Every how many calls of one kind {@code legal:busy-refusals} refuses one. */
    public static final int EVERY_BUSY = 7;
    /** Every how many closes {@code legal:close-refused} refuses one. */
    public static final int EVERY_CLOSE = 4;
    /** MRs one adapter of {@code legal:LIM-2/slot-freed-late} holds. */
    public static final int SLOTS = 48;
    /** How long after its close a slot of {@code legal:LIM-2/slot-freed-late} stays taken, in milliseconds. */
    public static final int SLOT_LAG_MILLIS = 200;

    private LegalPageReadings() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        Map<NdkCall, AtomicLong> busy = new ConcurrentHashMap<>();
        AtomicLong closes = new AtomicLong();
        return List.of(
                FaultDefaults.withDefaults(Variants.builder("legal:iwarp", "transport iWARP: a send that finds no receive posted "
                        + "at the peer ends the connection (STATUS_CONNECTION_ABORTED, both QPs flushed)").build(), Map.of("transport", "iwarp")),
                Variants.wrapped("legal:busy-refusals", "every " + EVERY_BUSY + "th create, registration, fast-register initialization, "
                        + "LAM build, fast registration and invalidation (per kind) is refused with STATUS_DEVICE_BUSY, STATUS_NO_MEMORY "
                        + "or STATUS_DEVICE_NOT_READY, inline or through its completion", () -> new BusyRefusals(busy)),
                Variants.wrapped("legal:close-refused", "every " + EVERY_CLOSE + "th close fails inline (STATUS_DEVICE_BUSY or "
                        + "STATUS_UNSUCCESSFUL) with no callback and leaves the object open", () -> new CloseRefused(closes)),
                Variants.wrapped("legal:result-token-32", "a ReceiveAndInvalidate CQ entry's TypeSpecificCompletionOutput has the "
                        + "32-bit token in its low half and other bits above it", ResultToken32::new),
                MisuseFaults.refastRegisterKeepsToken("legal:refast-register-keeps-token", "NdkFastRegister of an MR still "
                        + "fast-registered is accepted and the new registration reports the same remote token"),
                Variants.wrapped("legal:LIM-2/slot-freed-late", "an adapter holds " + SLOTS + " MRs; a closed MR's slot comes back "
                        + SLOT_LAG_MILLIS + " ms after its close", SlotFreedLate::new),
                Variants.wrapped("legal:inline-write-refused", "NdkWrite with NDK_OP_FLAG_INLINE fails inline (STATUS_NOT_SUPPORTED "
                        + "or STATUS_INVALID_PARAMETER), a flag the NdkWrite page does not list", InlineWriteRefused::new));
    }

    /** Refuses every NdkWrite with NDK_OP_FLAG_INLINE inline, alternating two statuses; other requests pass on. */
    static final class InlineWriteRefused implements Hooks {
        private final AtomicLong refused = new AtomicLong();

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.WRITE && (request.flags() & org.ndktck.spec.NdkOpFlags.INLINE) != 0) {
                return refused.incrementAndGet() % 2 == 0 ? NtStatus.STATUS_INVALID_PARAMETER : NtStatus.STATUS_NOT_SUPPORTED;
            }
            return inner.apply(request);
        }
    }

    /** The try-later statuses {@code legal:busy-refusals} hands out in turn. */
    static final List<NtStatus> BUSY = List.of(NtStatus.STATUS_DEVICE_BUSY, NtStatus.STATUS_NO_MEMORY, NtStatus.STATUS_DEVICE_NOT_READY);

    /** Refuses every {@value #EVERY_BUSY}th call of each kind with a try-later status, inline or through the completion. */
    static final class BusyRefusals implements Hooks {
        static final Set<NdkCall> KINDS = Set.of(NdkCall.CREATE_MR, NdkCall.REGISTER_MR, NdkCall.INITIALIZE_FAST_REGISTER_MR,
                NdkCall.BUILD_LAM, NdkCall.FAST_REGISTER, NdkCall.INVALIDATE);
        private final Map<NdkCall, AtomicLong> counters;
        private ForwardingAdapter adapter;

        BusyRefusals(Map<NdkCall, AtomicLong> counters) {
            this.counters = counters;
        }

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        /** @return 0 to pass the call on, else 1 + the index of the refusal (odd: inline, even: completion) */
        private long verdict(NdkCall call) {
            if (!KINDS.contains(call)) {
                return 0;
            }
            long n = counters.computeIfAbsent(call, c -> new AtomicLong()).incrementAndGet();
            return n % EVERY_BUSY == 0 ? n / EVERY_BUSY : 0;
        }

        private static NtStatus status(long v) {
            return BUSY.get((int) (v % BUSY.size()));
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            long v = verdict(call);
            if (v == 0) {
                return inner.invoke(completion, context);
            }
            if (v % 2 == 1 || completion == null) {
                return status(v);
            }
            adapter.deliveries().submit(() -> completion.complete(context, status(v)));
            return NtStatus.STATUS_PENDING;
        }

        @Override
        public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                            CreateCall<T> inner) {
            long v = verdict(call);
            if (v == 0) {
                return inner.invoke(completion, context);
            }
            if (v % 2 == 1 || completion == null) {
                return CreateResult.failed(status(v));
            }
            adapter.deliveries().submit(() -> completion.complete(context, status(v), null));
            return CreateResult.pending();
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            long v = verdict(request.call());
            return v == 0 ? inner.apply(request) : status(v);
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            adapter.deliveries().quiesce(); // a refusal delivered later still comes before its object's close ends (CL-4)
            return inner.invoke(completion, context);
        }
    }

    /** Refuses every {@value #EVERY_CLOSE}th close of an MR, PD, QP or CQ inline, leaving the object open. */
    static final class CloseRefused implements Hooks {
        private final AtomicLong counter;

        CloseRefused(AtomicLong counter) {
            this.counter = counter;
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            if (call == NdkCall.CLOSE_ADAPTER) {
                return inner.invoke(completion, context);
            }
            long n = counter.incrementAndGet();
            if (n % EVERY_CLOSE != 0) {
                return inner.invoke(completion, context);
            }
            return (n / EVERY_CLOSE) % 2 == 1 ? NtStatus.STATUS_DEVICE_BUSY : NtStatus.STATUS_UNSUCCESSFUL;
        }
    }

    /** Sets the high 32 bits of a ReceiveAndInvalidate entry's TypeSpecificCompletionOutput. */
    static final class ResultToken32 implements Hooks {
        static final long HIGH = 0x5EED_0000_0000_0000L;

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            int n = inner.applyAsInt(results);
            for (int i = 0; i < n; i++) {
                NdkResultEx e = results[i];
                if (e != null && e.type() == NdkOperationType.RECEIVE_AND_INVALIDATE) {
                    results[i] = new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(), e.type(),
                            (e.typeSpecificCompletionOutput() & 0xFFFF_FFFFL) | HIGH);
                }
            }
            return n;
        }
    }

    /**
     * Holds at most {@value #SLOTS} MRs per adapter, counting a closed MR's slot for {@value #SLOT_LAG_MILLIS} ms after
     * its close returned; a create past that is refused with STATUS_INSUFFICIENT_RESOURCES.
     */
    static final class SlotFreedLate implements Hooks {
        private final AtomicInteger live = new AtomicInteger();
        private final ConcurrentLinkedDeque<Long> releases = new ConcurrentLinkedDeque<>();

        private int taken() {
            long now = System.nanoTime();
            releases.removeIf(t -> t - now <= 0);
            return live.get() + releases.size();
        }

        @Override
        public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                            CreateCall<T> inner) {
            if (call != NdkCall.CREATE_MR) {
                return inner.invoke(completion, context);
            }
            if (taken() >= SLOTS) {
                return CreateResult.failed(NtStatus.STATUS_INSUFFICIENT_RESOURCES);
            }
            live.incrementAndGet();
            CreateResult<T> r = inner.invoke(completion, context);
            if (r.status() != null && r.status().isError()) {
                live.decrementAndGet();
            }
            return r;
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            NtStatus r = inner.invoke(completion, context);
            if (call == NdkCall.CLOSE_MR && object instanceof NdkMr) {
                live.decrementAndGet();
                releases.add(System.nanoTime() + SLOT_LAG_MILLIS * 1_000_000L);
            }
            return r;
        }
    }
}
