package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.TokenAllocator;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * Faults written from public bug reports of real providers, each reaching an input the kit did not make before
 * the input-space properties (the kit passed every one of them then; BENCHMARKS.md, "Inputs that real providers get
 * wrong", says how that was checked).
 * Each is a wrapper ({@link Hooks}) of the reference provider.
 *
 * <ul>
 *   <li>{@code fault:COV-2/contiguous-frames}: NdkRegisterMr takes each MDL's first page frame and assumes the
 *       others follow it (frame i = PFN[0] + i), as a driver that maps a region as one physically contiguous
 *       block would.</li>
 *   <li>{@code fault:COV-2/first-pair-fast-path}: NdkRegisterMr and NdkBuildLam take an MDL whose first two
 *       frames are adjacent as wholly contiguous (a fast path that checks only the first pair).</li>
 *   <li>{@code fault:COV-1/register-clamped}: NdkRegisterMr registers at most 2^31 − 1 bytes (a signed 32-bit
 *       device maximum) and still reports success.</li>
 *   <li>{@code fault:COV-1/length-32-bit}: NdkRegisterMr keeps Length in 32 bits: it registers Length mod 2^32
 *       bytes (a Length of 2^32 + 5 registers 5 bytes); the check against the chain's ByteCount still sees the
 *       whole Length.</li>
 *   <li>{@code fault:COV-1/fast-register-fewer-pages}: NdkFastRegister maps at most 2^16 pages (a device page
 *       list of 65536 entries) and the Length those pages hold of a request that passes its checks, and still
 *       reports success.</li>
 *   <li>{@code fault:COV-3/bogus-token-invalidates-latest}: an NdkSendAndInvalidate whose token names no live
 *       fast registration invalidates the most recently fast-registered live MR instead.</li>
 *   <li>{@code fault:COV-4/first-sge-token-for-all}: a data request of several SGEs (not INLINE) looks up SGE 0's
 *       token once and uses it for every SGE, so a bad token at a later position goes unnoticed.</li>
 *   <li>{@code fault:COV-4/first-sge-only}: a data request of several SGEs (not INLINE) uses SGE 0 alone.</li>
 *   <li>{@code fault:MR-TOK-6/counter-16-bit}, {@code fault:MR-TOK-6/counter-17-bit}: tokens come from a counter of
 *       16 (17) bits that never asks which tokens are live, so after 2^16 (2^17) allocations on one adapter a new
 *       registration gets the token of one that is still live.</li>
 * </ul>
 */
public final class RealInputFaults implements NdkProviderSource {

    /** The most bytes {@code fault:COV-1/register-clamped} registers: 2^31 − 1. */
    static final long CLAMP = (1L << 31) - 1;
    /** The most pages {@code fault:COV-1/fast-register-fewer-pages} maps: 2^16. */
    static final int FR_PAGE_LIMIT = 1 << 16;

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:COV-2/contiguous-frames",
                "NdkRegisterMr assumes each MDL's page frames follow its first one (frame i = PFN[0] + i)",
                () -> new ContiguousFrames(false, false)));
        out.add(Variants.wrapped("fault:COV-2/first-pair-fast-path",
                "NdkRegisterMr and NdkBuildLam take an MDL whose first two page frames are adjacent as wholly contiguous",
                () -> new ContiguousFrames(true, true)));
        out.add(Variants.wrapped("fault:COV-1/register-clamped",
                "NdkRegisterMr registers at most 2^31 - 1 bytes of a longer Length and reports success",
                () -> new Hooks() {
                    @Override
                    public long registerLength(ForwardingMr mr, long length) {
                        return Long.compareUnsigned(length, CLAMP) > 0 ? CLAMP : length;
                    }
                }));
        out.add(Variants.wrapped("fault:COV-1/length-32-bit",
                "NdkRegisterMr keeps Length in 32 bits: a Length above 2^32 registers Length mod 2^32 bytes",
                () -> new Hooks() {
                    @Override
                    public long registerLength(ForwardingMr mr, long length) {
                        // the chain check sees the whole Length (MR-REG-13 holds); the region is then set up from its low 32 bits
                        Mdl chain = mr.mdl();
                        boolean fits = chain != null && Long.compareUnsigned(length, chain.chainByteCount()) <= 0;
                        return fits && Long.compareUnsigned(length, 0xFFFF_FFFFL) > 0 && (length & 0xFFFF_FFFFL) != 0
                                ? length & 0xFFFF_FFFFL : length;
                    }
                }));
        out.add(Variants.wrapped("fault:COV-1/fast-register-fewer-pages",
                "NdkFastRegister maps at most 2^16 pages (and the Length they hold) of a longer request and reports success",
                FewerPages::new));
        out.add(Variants.wrapped("fault:COV-3/bogus-token-invalidates-latest",
                "an NdkSendAndInvalidate whose token names no live fast registration invalidates the most recent live one instead",
                BogusTokenInvalidatesLatest::new));
        out.add(Variants.wrapped("fault:COV-4/first-sge-token-for-all",
                "NdkRead, NdkWrite, NdkSend and NdkReceive look up the token of SGE 0 once and use it for every SGE of the list",
                () -> new SglRewrite() {
                    @Override
                    NdkSge[] rewrite(NdkSge[] sgl) {
                        NdkSge[] out = sgl.clone();
                        for (int i = 1; i < out.length; i++) {
                            out[i] = new NdkSge(sgl[i].address(), sgl[i].length(), sgl[0].memoryRegionToken());
                        }
                        return out;
                    }
                }));
        out.add(Variants.wrapped("fault:COV-4/first-sge-only",
                "NdkRead, NdkWrite, NdkSend and NdkReceive use SGE 0 of a list of several and ignore the others",
                () -> new SglRewrite() {
                    @Override
                    NdkSge[] rewrite(NdkSge[] sgl) {
                        return new NdkSge[]{sgl[0]};
                    }
                }));
        out.add(counterAllocator("fault:MR-TOK-6/counter-16-bit", 16));
        out.add(counterAllocator("fault:MR-TOK-6/counter-17-bit", 17));
        return out;
    }

    /**
     * A token allocator that counts in {@code bits} bits (skipping 0) and never asks which tokens are live, so after
     * 2^bits allocations on one adapter it hands out the token of a registration that is still live.
     */
    static NdkProvider counterAllocator(String name, int bits) {
        return Variants.builder(name, "tokens come from a " + bits + "-bit counter that wraps into tokens still live")
                .replace(Pieces.TOKEN_ALLOCATOR, (TokenAllocator.Factory) seed -> {
                    int[] counter = {0};
                    return request -> {
                        int mask = (1 << bits) - 1;
                        int token;
                        do {
                            token = ++counter[0] & mask;
                        } while (token == 0);
                        return token;
                    };
                }).build();
    }

    /** The SGL of every non-INLINE NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate and NdkReceive of two or more SGEs, rewritten. */
    abstract static class SglRewrite implements Hooks {
        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, java.util.function.Function<WorkRequest, NtStatus> inner) {
            boolean data = w.call() == NdkCall.READ || w.call() == NdkCall.WRITE || w.call() == NdkCall.SEND
                    || w.call() == NdkCall.SEND_AND_INVALIDATE || w.call() == NdkCall.RECEIVE;
            if (!data || w.sgl() == null || w.sgl().length < 2 || (w.flags() & org.ndktck.spec.NdkOpFlags.INLINE) != 0) {
                return inner.apply(w);
            }
            return inner.apply(w.withSgl(rewrite(w.sgl())));
        }

        /** @return the SGL the provider gets (two or more SGEs given; not modified) */
        abstract NdkSge[] rewrite(NdkSge[] sgl);
    }

    /**
     * Remembers the MRs the consumer fast-registers (forgetting those it invalidates); an NdkSendAndInvalidate
     * whose token is the remote token of none of them reaches the provider with the token of the most recent
     * one, as a provider that looks an invalid token up loosely (by a slot index, by the last MR) would act.
     */
    static final class BogusTokenInvalidatesLatest implements Hooks {
        private final List<org.ndktck.spec.NdkMr> fastRegistered = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, java.util.function.Function<WorkRequest, NtStatus> inner) {
            if (w.call() == NdkCall.FAST_REGISTER && w.mr() != null) {
                fastRegistered.remove(w.mr());
                fastRegistered.add(w.mr());
            } else if (w.call() == NdkCall.INVALIDATE && w.mr() != null) {
                fastRegistered.remove(w.mr());
            } else if (w.call() == NdkCall.SEND_AND_INVALIDATE && !fastRegistered.isEmpty()) {
                boolean named = false;
                for (org.ndktck.spec.NdkMr mr : fastRegistered) {
                    named |= mr.getRemoteToken() == w.remoteToken();
                }
                if (!named) {
                    org.ndktck.spec.NdkMr latest = fastRegistered.get(fastRegistered.size() - 1);
                    fastRegistered.remove(latest);
                    return inner.apply(w.withRemoteToken(latest.getRemoteToken()));
                }
            }
            return inner.apply(w);
        }
    }

    /**
     * Rewrites the MDLs of NdkRegisterMr (and, when asked, NdkBuildLam) so that each MDL's frames are its first
     * frame plus i: always, or only when its first two frames are adjacent.
     */
    static final class ContiguousFrames implements Hooks {
        private final boolean onlyWhenFirstPairAdjacent;
        private final boolean lamToo;

        ContiguousFrames(boolean onlyWhenFirstPairAdjacent, boolean lamToo) {
            this.onlyWhenFirstPairAdjacent = onlyWhenFirstPairAdjacent;
            this.lamToo = lamToo;
        }

        @Override
        public Mdl mdl(NdkCall call, Mdl first) {
            if (first == null || !(call == NdkCall.REGISTER_MR || (lamToo && call == NdkCall.BUILD_LAM))) {
                return first;
            }
            return rewrite(first);
        }

        private Mdl rewrite(Mdl first) {
            Mdl head = null;
            Mdl prev = null;
            int walked = 0;
            for (Mdl m = first; m != null && walked < 1 << 16; m = m.next(), walked++) {
                Mdl copy = new Mdl(m.pageSize(), m.startVa(), m.byteOffset(), m.byteCount(), frames(m.pfns()));
                if (head == null) {
                    head = copy;
                } else {
                    prev.setNext(copy);
                }
                prev = copy;
            }
            return head;
        }

        private long[] frames(long[] pfns) {
            if (pfns.length < 2 || (onlyWhenFirstPairAdjacent && pfns[1] != pfns[0] + 1)) {
                return pfns;
            }
            long[] out = new long[pfns.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = pfns[0] + i;
            }
            return out;
        }
    }

    /** An NdkFastRegister of more than {@link #FR_PAGE_LIMIT} pages reaches the provider cut to that many pages. */
    static final class FewerPages implements Hooks {
        private volatile ForwardingAdapter adapter;

        @Override
        public void attach(ForwardingAdapter adapter) {
            this.adapter = adapter;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, java.util.function.Function<WorkRequest, NtStatus> inner) {
            if (w.call() != NdkCall.FAST_REGISTER || w.adapterPageArray() == null
                    || Integer.compareUnsigned(w.adapterPageCount(), FR_PAGE_LIMIT) <= 0
                    || w.adapterPageArray().length < FR_PAGE_LIMIT) {
                return inner.apply(w);
            }
            long p = Integer.toUnsignedLong(adapter.pageSize());
            long fbo = Integer.toUnsignedLong(w.fbo());
            if (fbo >= p || Long.compareUnsigned(w.length(), Integer.toUnsignedLong(w.adapterPageCount()) * p - fbo) > 0) {
                return inner.apply(w); // the request's own checks (MR-FR-3, MR-FR-16) see it as it is
            }
            long room = FR_PAGE_LIMIT * p - fbo;
            long length = Long.compareUnsigned(w.length(), room) > 0 ? room : w.length();
            long[] pages = java.util.Arrays.copyOf(w.adapterPageArray(), FR_PAGE_LIMIT);
            return inner.apply(new WorkRequest(w.call(), w.context(), w.mr(), FR_PAGE_LIMIT, pages, w.fbo(), length,
                    w.baseVirtualAddress(), w.sgl(), w.remoteAddress(), w.remoteToken(), w.flags()));
        }
    }
}
