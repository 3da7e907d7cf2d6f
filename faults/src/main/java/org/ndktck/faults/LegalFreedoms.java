package org.ndktck.faults;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Legal providers that use, hard, a freedom the NDKPI pages give a provider. Each is the reference
 * provider with one freedom pushed far; the kit must give none of them a FAIL, in either completion mode.
 * The freedoms they stand for are listed, with their sources in the catalog, in {@code freedoms.yaml} of the
 * spec module ({@code org.ndktck.spec.rules.Freedoms}); a test fails when a freedom has no provider here.
 * <ul>
 *   <li>{@code legal:resource-shortage}: every {@value #EVERY}th call of each kind among NdkCreatePd,
 *       NdkCreateCq, NdkCreateQp, NdkCreateMr, NdkRegisterMr, NdkInitializeFastRegisterMr, NdkBuildLam and the
 *       work requests (NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate,
 *       NdkReceive: inline only, their tables' "other status codes"),
 *       counted across the whole provider (all its adapters), is refused with STATUS_INSUFFICIENT_RESOURCES
 *       without reaching the reference: every other refusal of a kind inline, the rest through the completion
 *       (STATUS_PENDING, then the completion on the provider's own thread) where the call has one
 *       (GEN-CB-5, MR-CREATE-2, MR-REG-9, LAM-7, MR-FRI-8 "another error");
 *       {@code legal:resource-shortage/pending} is the same over {@code completion=pending};</li>
 *   <li>{@code legal:deregister-refused}: every {@value #EVERY_DEREGISTRATION}rd NdkDeregisterMr, counted across the
 *       provider, fails with STATUS_INSUFFICIENT_RESOURCES without reaching the reference (the MR stays
 *       registered), alternately inline and through the completion (MR-DEREG-2: the table's "other status
 *       codes");</li>
 *   <li>{@code legal:cross-qp-reorder}: each NdkGetCqResults(Ex) batch hands out the entries of different QPs
 *       sharing the CQ in the reverse order of their QPs' first entries, each QP's own entries in order (nothing
 *       on the pages orders entries across QPs: FREE-CROSS-QP-ORDER);</li>
 *   <li>{@code legal:large-page}: PAGE_SIZE 65536 bytes by default (the provider's PAGE_SIZE is its own;
 *       the kit sizes every region from it);</li>
 *   <li>{@code legal:split-tokens}: NdkGetLocalTokenFromMr returns the bitwise complement of the remote token,
 *       so local and remote tokens always differ and lie far apart (the pages let them differ: MR-TOK-1,
 *       MR-TOK-2); SGEs carrying such a local token reach the reference with its own;
 *       {@code legal:split-tokens/pending} is the same over {@code completion=pending};</li>
 *   <li>{@code legal:small-tokens}: tokens are the smallest positive values no live registration or privileged
 *       token holds (1, 2, 3, ...), so they lie next to each other and a retired token is handed out again at
 *       once (token values are the provider's; MR-TOK-6 keeps live ones distinct);</li>
 *   <li>{@code legal:token-key-wraps}: a token is an MR slot shifted left by one bit with a one-bit key below it,
 *       and each fast registration of an MR flips the key, so an MR's fast registrations alternate between two
 *       token values and every second one hands back the token of two registrations before (a retired token
 *       handed out again: FREE-TOKENS; the value a consumer held is dead while it is retired, MR-TOK-6 keeps
 *       live ones distinct);</li>
 *   <li>{@code legal:cq-one-at-a-time}: NdkGetCqResults(Ex) hands out at most one entry a call however many are
 *       queued (nResults is a maximum; only 0 means the CQ is empty);</li>
 *   <li>{@code legal:late-cq-entries}: a CQ entry stays hidden for the first {@value LateCqEntries#HIDDEN_POLLS}
 *       NdkGetCqResults(Ex) calls after it reached the CQ, as if the hardware wrote it late; a flush or close of
 *       its QP shows it at once;</li>
 *   <li>{@code legal:lam-top}: the adapter logical addresses NdkBuildLam hands out lie at the top of the 64-bit
 *       address space (the reference's, with the top 16 bits flipped: 0xFFFF8000_00000000 and up); an
 *       AdapterPageArray posted with NdkFastRegister, and the address of an SGE that carries a privileged token,
 *       are flipped back (LAM logical addresses are the provider's: LAM-4, PRIV-1);</li>
 *   <li>{@code legal:defer-ignored}: NDK_OP_FLAG_DEFER is ignored on an NDKPI 1.2 adapter, every work request is
 *       processed at once (DEF-1: DEFER is only a hint);</li>
 *   <li>{@code legal:closing-refuses-calls}: once the close of an object was requested, requests on it, work
 *       requests on it and creates under it fail inline with STATUS_INVALID_PARAMETER (CL-7);</li>
 *   <li>{@code legal:zero-base-rejected}: NdkFastRegister with BaseVirtualAddress 0 fails inline (AMB-1).</li>
 * </ul>
 */
public final class LegalFreedoms {
    /** Every how many calls of one kind {@code legal:resource-shortage} refuses one. */
    public static final int EVERY = 9;
    /** Every how many NdkDeregisterMr calls {@code legal:deregister-refused} refuses one. */
    public static final int EVERY_DEREGISTRATION = 3;
    /** The bits {@code legal:lam-top} flips in every adapter logical address (an involution). */
    public static final long LAM_FLIP = 0xFFFF_0000_0000_0000L;
    /** PAGE_SIZE of {@code legal:large-page}, in bytes. */
    public static final String LARGE_PAGE = "65536";

    private LegalFreedoms() {
    }

    /** @return the providers, each with its one-line description */
    public static List<NdkProvider> providers() {
        return List.of(
                shortage("legal:resource-shortage", Map.of()),
                shortage("legal:resource-shortage/pending", Map.of("completion", "pending")),
                deregisterRefused(),
                Variants.wrapped("legal:cross-qp-reorder", "NdkGetCqResults(Ex) hands out the entries of different QPs in the reverse "
                        + "order of their QPs' first entries (each QP's own entries keep their order)", CrossQpReorder::new),
                FaultDefaults.withDefaults(Variants.builder("legal:large-page",
                        "PAGE_SIZE is " + LARGE_PAGE + " bytes by default (the provider's PAGE_SIZE is its own)").build(),
                        Map.of("pageSize", LARGE_PAGE)),
                FaultDefaults.withDefaults(Variants.wrapped("legal:split-tokens",
                        "the local token of an MR is the complement of its remote token: they always differ, far apart",
                        SplitTokens::new), Map.of()),
                FaultDefaults.withDefaults(Variants.wrapped("legal:split-tokens/pending",
                        "as legal:split-tokens, over completion=pending", SplitTokens::new), Map.of("completion", "pending")),
                Variants.builder("legal:small-tokens", "tokens are the smallest positive values not in use: 1, 2, 3, ..., a retired "
                        + "token handed out again at once (token values are the provider's; live tokens stay distinct, MR-TOK-6)")
                        .replace(org.ndktck.reference.Pieces.TOKEN_ALLOCATOR, seed -> LegalFreedoms::smallestFree).build(),
                Variants.builder("legal:token-key-wraps", "a token is the MR's slot and a one-bit key; each fast registration "
                        + "flips the key, so every second fast registration of an MR hands back the token it had two "
                        + "registrations before (a retired token handed out again; live tokens stay distinct)")
                        .replace(org.ndktck.reference.Pieces.TOKEN_ALLOCATOR, seed -> new KeyedTokens()::next).build(),
                Variants.wrapped("legal:cq-one-at-a-time", "NdkGetCqResults(Ex) hands out at most one entry a call, however many are "
                        + "queued and however large the consumer's array", CqOneAtATime::new),
                Variants.wrapped("legal:late-cq-entries", "a CQ entry shows only on the third NdkGetCqResults(Ex) after the request "
                        + "completed (the first two say the CQ is empty), except that a flush or close of its QP shows it at once",
                        LateCqEntries::new),
                Variants.wrapped("legal:lam-top",
                        "NdkBuildLam hands out adapter logical addresses at the top of the 64-bit address space", LamTop::new),
                Variants.wrapped("legal:defer-ignored",
                        "NDK_OP_FLAG_DEFER is ignored: every work request is processed at once (DEF-1: DEFER is only a hint)",
                        DeferIgnored::new),
                Variants.wrapped("legal:closing-refuses-calls",
                        "calls on an object whose close was requested, or on its children, fail with STATUS_INVALID_PARAMETER (CL-7)",
                        ClosingRefusesCalls::new),
                Variants.wrapped("legal:zero-base-rejected",
                        "NdkFastRegister with BaseVirtualAddress 0 fails inline with STATUS_INVALID_PARAMETER (AMB-1: either is allowed)",
                        ZeroBaseRejected::new));
    }

    /** The smallest positive token no live registration or privileged token holds (legal:small-tokens). */
    static int smallestFree(org.ndktck.reference.TokenRequest request) {
        int t = 1;
        while (request.inUse().test(t)) {
            t++;
        }
        return t;
    }

    /**
     * Tokens of {@code legal:token-key-wraps}: slot &lt;&lt; 1 | key. A registration without a previous token
     * takes the next slot whose two values no live registration or privileged token holds (slots from 0x100, one
     * allocator per adapter); a fast registration keeps its MR's slot and flips the key.
     */
    static final class KeyedTokens {
        private int nextSlot = 0x100;

        int next(org.ndktck.reference.TokenRequest request) {
            int previous = request.previousToken();
            if (request.purpose() == org.ndktck.reference.TokenPurpose.FAST_REGISTER && previous != 0) {
                return previous ^ 1;
            }
            while (request.inUse().test(nextSlot << 1) || request.inUse().test(nextSlot << 1 | 1)) {
                nextSlot++;
            }
            return nextSlot++ << 1;
        }
    }

    private static NdkProvider shortage(String name, Map<String, String> defaults) {
        // one set of counters for the whole provider: every adapter it opens counts on
        Map<NdkCall, AtomicLong> counters = new EnumMap<>(NdkCall.class);
        for (NdkCall c : ResourceShortage.REFUSED) {
            counters.put(c, new AtomicLong());
        }
        Supplier<Hooks> hooks = () -> new ResourceShortage(counters, EVERY);
        return FaultDefaults.withDefaults(Variants.wrapped(name, "every " + EVERY + "th create, registration, fast-register "
                + "initialization, LAM build and work request (per kind, across the provider) fails with STATUS_INSUFFICIENT_RESOURCES, "
                + "inline or through its completion" + (defaults.isEmpty() ? "" : ", over " + defaults), hooks), defaults);
    }

    private static NdkProvider deregisterRefused() {
        Map<NdkCall, AtomicLong> counters = new EnumMap<>(NdkCall.class);
        counters.put(NdkCall.DEREGISTER_MR, new AtomicLong());
        return Variants.wrapped("legal:deregister-refused", "every " + EVERY_DEREGISTRATION + "rd NdkDeregisterMr (across the provider) fails "
                + "with STATUS_INSUFFICIENT_RESOURCES, inline or through its completion, and the MR stays registered (MR-DEREG-2: "
                + "other status codes)", () -> new ResourceShortage(counters, EVERY_DEREGISTRATION));
    }

    /**
     * Refuses every {@code every}th call of each kind that has a counter (the kinds of {@link #REFUSED} for
     * {@code legal:resource-shortage}), inline or through the completion.
     */
    static final class ResourceShortage implements Hooks {
        static final List<NdkCall> REFUSED = List.of(NdkCall.CREATE_PD, NdkCall.CREATE_CQ, NdkCall.CREATE_QP, NdkCall.CREATE_MR,
                NdkCall.REGISTER_MR, NdkCall.INITIALIZE_FAST_REGISTER_MR, NdkCall.BUILD_LAM, NdkCall.FAST_REGISTER,
                NdkCall.INVALIDATE, NdkCall.READ, NdkCall.WRITE, NdkCall.SEND, NdkCall.SEND_AND_INVALIDATE, NdkCall.RECEIVE);
        private final Map<NdkCall, AtomicLong> counters;
        private final int every;
        private ForwardingAdapter adapter;

        ResourceShortage(Map<NdkCall, AtomicLong> counters, int every) {
            this.counters = counters;
            this.every = every;
        }

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        /** @return 0 to pass the call on, 1 to refuse it inline, 2 to refuse it through its completion */
        private int verdict(NdkCall call) {
            AtomicLong c = counters.get(call);
            if (c == null) {
                return 0;
            }
            long n = c.incrementAndGet();
            if (n % every != 0) {
                return 0;
            }
            return (n / every) % 2 == 1 ? 1 : 2;
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            int v = verdict(call);
            if (v == 0) {
                return inner.invoke(completion, context);
            }
            if (v == 1 || completion == null) {
                return NtStatus.STATUS_INSUFFICIENT_RESOURCES;
            }
            adapter.deliveries().submit(() -> completion.complete(context, NtStatus.STATUS_INSUFFICIENT_RESOURCES));
            return NtStatus.STATUS_PENDING;
        }

        @Override
        public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                            CreateCall<T> inner) {
            int v = verdict(call);
            if (v == 0) {
                return inner.invoke(completion, context);
            }
            if (v == 1 || completion == null) {
                return CreateResult.failed(NtStatus.STATUS_INSUFFICIENT_RESOURCES);
            }
            adapter.deliveries().submit(() -> completion.complete(context, NtStatus.STATUS_INSUFFICIENT_RESOURCES, null));
            return CreateResult.pending();
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            // work requests: "other status codes" of their tables; refused inline (the request never reaches the QP)
            return verdict(request.call()) == 0 ? inner.apply(request) : NtStatus.STATUS_INSUFFICIENT_RESOURCES;
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            // a refusal delivered later still comes before the close of its object ends (CL-4)
            adapter.deliveries().quiesce();
            return inner.invoke(completion, context);
        }
    }

    /**
     * Reorders the entries of one NdkGetCqResults(Ex) batch across QPs: the QPs' groups come in the reverse order
     * of their first entries, each QP's own entries keep their order. No entry is held back (a held entry
     * would need a notification the wrapped CQ no longer gives).
     */
    static final class CrossQpReorder implements Hooks {
        @Override
        public int results(ForwardingCq cq, org.ndktck.spec.NdkResultEx[] results, java.util.function.ToIntFunction<org.ndktck.spec.NdkResultEx[]> inner) {
            int n = inner.applyAsInt(results);
            if (n < 2) {
                return n;
            }
            // group by QPContext (identity), groups in order of first appearance
            java.util.List<Object> order = new java.util.ArrayList<>();
            java.util.Map<Object, java.util.List<org.ndktck.spec.NdkResultEx>> groups = new java.util.IdentityHashMap<>();
            for (int i = 0; i < n; i++) {
                Object key = results[i].qpContext();
                java.util.List<org.ndktck.spec.NdkResultEx> g = groups.get(key);
                if (g == null) {
                    g = new java.util.ArrayList<>();
                    groups.put(key, g);
                    order.add(key);
                }
                g.add(results[i]);
            }
            int k = 0;
            for (int i = order.size() - 1; i >= 0; i--) {
                for (org.ndktck.spec.NdkResultEx e : groups.get(order.get(i))) {
                    results[k++] = e;
                }
            }
            return n;
        }
    }

    /** NdkGetCqResults(Ex) hands out at most one entry a call (the entries stay queued in order for the next calls). */
    static final class CqOneAtATime implements Hooks {
        @Override
        public int results(ForwardingCq cq, org.ndktck.spec.NdkResultEx[] results,
                           java.util.function.ToIntFunction<org.ndktck.spec.NdkResultEx[]> inner) {
            if (results.length <= 1) {
                return inner.applyAsInt(results);
            }
            org.ndktck.spec.NdkResultEx[] one = new org.ndktck.spec.NdkResultEx[1];
            int n = inner.applyAsInt(one);
            if (n > 0) {
                results[0] = one[0];
            }
            return n;
        }
    }

    /**
     * Each CQ entry stays hidden for {@value #HIDDEN_POLLS} result calls after it reached the wrapped CQ, as if
     * the hardware wrote it late; an NdkFlush or close of a QP, or a close of the CQ, shows every hidden entry
     * at once (what it cancelled or completed is in the CQ when it returns). Entries keep their order.
     */
    static final class LateCqEntries implements Hooks {
        static final int HIDDEN_POLLS = 2;
        /** per CQ: entries taken from the wrapped CQ, each with the result calls it has stayed hidden */
        private final Map<ForwardingCq, java.util.ArrayDeque<Object[]>> hidden = new ConcurrentHashMap<>();

        private java.util.ArrayDeque<Object[]> of(ForwardingCq cq) {
            return hidden.computeIfAbsent(cq, k -> new java.util.ArrayDeque<>());
        }

        /** Under the queue's lock: moves every entry of the wrapped CQ into the queue, hidden for {@code age} more calls. */
        private static void take(java.util.ArrayDeque<Object[]> q, java.util.function.ToIntFunction<org.ndktck.spec.NdkResultEx[]> from,
                                 int age) {
            org.ndktck.spec.NdkResultEx[] buf = new org.ndktck.spec.NdkResultEx[16];
            int n;
            while ((n = from.applyAsInt(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    q.add(new Object[]{buf[i], age});
                }
            }
        }

        @Override
        public int results(ForwardingCq cq, org.ndktck.spec.NdkResultEx[] results,
                           java.util.function.ToIntFunction<org.ndktck.spec.NdkResultEx[]> inner) {
            java.util.ArrayDeque<Object[]> q = of(cq);
            synchronized (q) {
                take(q, inner, 0);
                int out = 0;
                while (out < results.length && !q.isEmpty() && (int) q.peek()[1] >= HIDDEN_POLLS) {
                    results[out++] = (org.ndktck.spec.NdkResultEx) q.poll()[0];
                }
                for (Object[] e : q) {
                    e[1] = (int) e[1] + 1;
                }
                return out;
            }
        }

        @Override
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            T r = body.get();
            if ((call == NdkCall.FLUSH || call == NdkCall.CLOSE_QP) && target instanceof ForwardingQp qp) {
                showNow(qp.initiatorCq());
                showNow(qp.receiveCq());
            }
            return r;
        }

        /** After a flush or close of a QP: every entry its CQ holds shows with the next result call. */
        private void showNow(ForwardingCq cq) {
            if (cq == null) {
                return;
            }
            java.util.ArrayDeque<Object[]> q = of(cq);
            synchronized (q) {
                take(q, cq.inner()::getCqResultsEx, HIDDEN_POLLS);
                for (Object[] e : q) {
                    e[1] = HIDDEN_POLLS;
                }
            }
        }
    }

    /** Local token = complement of the remote token; SGEs are translated back for the reference. */
    static final class SplitTokens implements Hooks {
        /** local token the consumer saw -> the reference's token */
        private final Map<Integer, Integer> local = new ConcurrentHashMap<>();

        static int localOf(int token) {
            int l = ~token;
            return l == 0 ? 0x5A5A_5A5A : l;
        }

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call != NdkCall.GET_LOCAL_TOKEN) {
                return token;
            }
            int l = localOf(token);
            local.put(l, token);
            return l;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            NdkSge[] sgl = request.sgl();
            if (sgl == null || sgl.length == 0) {
                return inner.apply(request);
            }
            NdkSge[] out = new NdkSge[sgl.length];
            boolean changed = false;
            for (int i = 0; i < sgl.length; i++) {
                NdkSge e = sgl[i];
                Integer real = e == null ? null : local.get(e.memoryRegionToken());
                if (real != null) {
                    out[i] = new NdkSge(e.address(), e.length(), real);
                    changed = true;
                } else {
                    out[i] = e;
                }
            }
            return inner.apply(changed ? request.withSgl(out) : request);
        }
    }

    /** Clears NDK_OP_FLAG_DEFER of every work request on an NDKPI 1.2 adapter, so nothing is held back. */
    static final class DeferIgnored implements Hooks {
        private ForwardingAdapter adapter;
        private volatile Boolean v12;

        @Override
        public void attach(ForwardingAdapter a) {
            this.adapter = a;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            if ((request.flags() & org.ndktck.spec.NdkOpFlags.DEFER) == 0) {
                return inner.apply(request);
            }
            if (v12 == null) {
                // DEFER is a defined flag only from NDKPI 1.2 on; on 1.1 the request goes on unchanged (and is rejected)
                v12 = adapter.inner().queryAdapterInfo().version().atLeast(org.ndktck.spec.NdkVersion.V1_2);
            }
            return inner.apply(v12 ? request.withFlags(request.flags() & ~org.ndktck.spec.NdkOpFlags.DEFER) : request);
        }
    }

    /** After the close of an object was requested, calls on it and creates under it fail inline (CL-7 allows it). */
    static final class ClosingRefusesCalls implements Hooks {
        private final java.util.Set<NdkObject> closing = java.util.Collections.synchronizedSet(
                java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            closing.add(object);
            return inner.invoke(completion, context);
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            return closing.contains(target) ? NtStatus.STATUS_INVALID_PARAMETER : inner.invoke(completion, context);
        }

        @Override
        public <T extends NdkObject> CreateResult<T> create(NdkCall call, NdkObject parent, CreateCompletion<T> completion, Object context,
                                                            CreateCall<T> inner) {
            return closing.contains(parent) ? CreateResult.failed(NtStatus.STATUS_INVALID_PARAMETER) : inner.invoke(completion, context);
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            return closing.contains(qp) ? NtStatus.STATUS_INVALID_PARAMETER : inner.apply(request);
        }
    }

    /** NdkFastRegister with BaseVirtualAddress 0 fails inline (AMB-1: accepting or rejecting it is the provider's choice). */
    static final class ZeroBaseRejected implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            if (request.call() == NdkCall.FAST_REGISTER && request.baseVirtualAddress() == 0) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            return inner.apply(request);
        }
    }

    /** Flips the top 16 bits of every adapter logical address, as NdkBuildLam hands them out and NdkFastRegister takes them. */
    static final class LamTop implements Hooks {
        @Override
        public NtStatus buildLam(ForwardingAdapter adapter, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion completion,
                                 Object context, RequestCall inner) {
            if (lam == null) {
                return request(NdkCall.BUILD_LAM, adapter, completion, context, inner);
            }
            RequestCompletion flipping = completion == null ? null : (x, st) -> {
                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                    flip(lam);
                }
                completion.complete(x, st);
            };
            NtStatus s = inner.invoke(flipping, context);
            if (NtStatus.STATUS_SUCCESS.equals(s)) {
                flip(lam);
            }
            return s;
        }

        private static void flip(NdkLogicalAddressMapping lam) {
            long[] pages = lam.adapterPageArray();
            if (pages == null) {
                return;
            }
            long[] out = pages.clone();
            int n = Math.min(out.length, lam.adapterPageCount());
            for (int i = 0; i < n; i++) {
                out[i] ^= LAM_FLIP;
            }
            lam.setPages(lam.adapterPageCount(), out);
        }

        /** Privileged tokens handed out: an SGE with one addresses adapter logical addresses (PRIV-1). */
        private final java.util.Set<Integer> privileged = ConcurrentHashMap.newKeySet();

        @Override
        public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
            T r = body.get();
            if (call == NdkCall.GET_PRIVILEGED_TOKEN && r instanceof Integer token) {
                privileged.add(token);
            }
            return r;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            WorkRequest r = request;
            if (r.call() == NdkCall.FAST_REGISTER && r.adapterPageArray() != null) {
                long[] out = r.adapterPageArray().clone();
                for (int i = 0; i < out.length; i++) {
                    out[i] ^= LAM_FLIP;
                }
                r = r.withAdapterPageArray(out);
            }
            NdkSge[] sgl = r.sgl();
            if (sgl != null && !privileged.isEmpty()) {
                NdkSge[] out = sgl.clone();
                boolean changed = false;
                for (int i = 0; i < out.length; i++) {
                    if (out[i] != null && privileged.contains(out[i].memoryRegionToken())) {
                        out[i] = new NdkSge(out[i].address() ^ LAM_FLIP, out[i].length(), out[i].memoryRegionToken());
                        changed = true;
                    }
                }
                if (changed) {
                    r = r.withSgl(out);
                }
            }
            return inner.apply(r);
        }
    }
}
