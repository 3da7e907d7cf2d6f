package org.ndktck.faults;

import static org.ndktck.faults.Variants.failUnless;

import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.ndktck.reference.Access;
import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.FrAccessFlags;
import org.ndktck.reference.MrAccessFlags;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.RegisterMrRequest;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NtStatus;

/**
 * Faults taken from the mutants of the reference provider that survived the PIT run (BENCHMARKS.md, section
 * on mutation testing): each is one surviving mutant of {@code StandardChecks} that breaks a provider-checked
 * rule, written as a named fault so the kit keeps catching it. Each replaces one piece of the reference model
 * ({@link Pieces}); the name is {@code fault:RULE-ID/variant} after the rule the kit must FAIL.
 *
 * <ul>
 *   <li>{@code fault:MR-FR-3/rejects-boundary}: Length compared with {@code <} instead of {@code <=} against
 *       AdapterPageCount × PAGE_SIZE − FBO, so a request that fills its pages exactly is rejected
 *       (STATUS_INVALID_PARAMETER inline).</li>
 *   <li>{@code fault:MR-FR-19/needs-local-write}: NdkFastRegister rejects every request without
 *       NDK_OP_FLAG_ALLOW_LOCAL_WRITE (0x08), as if the bit test of 0x20 were always true.</li>
 *   <li>{@code fault:MR-REG-14/needs-local-write}: NdkRegisterMr rejects every request without
 *       NDK_MR_FLAG_ALLOW_LOCAL_WRITE (0x1), so the valid flags 0x0, 0x2 and 0x8 fail.</li>
 *   <li>{@code fault:MR-FR-12/remote-read-always}: a fast registration always grants remote read, whatever its
 *       flags.</li>
 *   <li>{@code fault:MR-REG-8/local-write-always}: a registration always grants local write (Receive target,
 *       Read sink), whatever its flags.</li>
 * </ul>
 * Two more come from mutants PIT found without coverage (run 1): code the kit never reached because its
 * generators never made the input. Each is a wrapper ({@link Hooks}), and the kit's generators now make the input:
 * <ul>
 *   <li>{@code fault:MR-REG-4/mdl-boundary-in-page}: NdkRegisterMr builds its page list by appending each
 *       MDL's PFN array, so a page that two MDLs of the chain share (an MDL boundary inside a page) is counted
 *       twice and every byte after it lands one page off. Chains whose MDLs end on page boundaries are
 *       unaffected.</li>
 *   <li>{@code fault:MR-FR-3/page-array-as-one-run}: NdkFastRegister reads only AdapterPageArray[0] and takes
 *       the other pages as the logical pages that follow it, as if the array were always one run of one LAM
 *       (MR-FR-2 allows any LAM pages in any order).</li>
 *   <li>{@code fault:MR-FR-10/descending-array-as-run}: NdkFastRegister reads a page array whose entries descend
 *       page by page through one LAM as the ascending run from its first entry, so later pages of the region map
 *       the LAM pages after the first entry (a surviving mutant of the reference's one-run fast path). Caught since
 *       FrScenario's page arrays sometimes descend through their LAM ({@code FrScenario.descending}).</li>
 * </ul>
 * From run 5: {@code fault:MR-FR-8/cqs-swapped} is the surviving mutant of {@code DataPath.complete} that puts
 * initiator completions on the receive CQ and receive completions on the initiator CQ; the kit gave each QP one CQ
 * for both until its session used two. {@code fault:SGE-3/inline-token-region-trusted} is the surviving mutant of
 * {@code DataPath.captureInline} that takes an INLINE SGE from the region its token names without checking that
 * the region holds the SGE. {@code fault:DEF-4/data-refusal-keeps-deferred} is the surviving mutant of
 * {@code ReferenceQp.postData} that returns an initiator request's inline failure without handing the held DEFER
 * requests on (the kit's DEF-4 property made only fast registrations fail).
 * </ul>
 */
public final class MutationGapFaults implements NdkProviderSource {


    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.builder("fault:MR-FR-3/rejects-boundary",
                "NdkFastRegister compares Length < AdapterPageCount x PAGE_SIZE - FBO, rejecting a Length that fills the pages exactly")
                .replace(Pieces.MR_FR_3, (FastRegisterRequest r) -> {
                    long capacity = r.pageCount() * r.adapter().pageSize();
                    long fbo = r.unsignedFbo();
                    return failUnless(fbo <= capacity && Long.compareUnsigned(r.length(), capacity - fbo) < 0);
                }).build());
        out.add(Variants.builder("fault:MR-FR-19/needs-local-write",
                "NdkFastRegister rejects every request without NDK_OP_FLAG_ALLOW_LOCAL_WRITE (0x08)")
                .replace(Pieces.MR_FR_19, (FastRegisterRequest r) -> failUnless((r.flags() & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0))
                .build());
        out.add(Variants.builder("fault:MR-REG-14/needs-local-write",
                "NdkRegisterMr rejects every request without NDK_MR_FLAG_ALLOW_LOCAL_WRITE (0x1)")
                .replace(Pieces.MR_REG_14, (RegisterMrRequest r) -> {
                    NtStatus standard = Pieces.MR_REG_14.standard().check(r);
                    return standard.isSuccess() ? failUnless((r.flags() & NdkMrFlags.ALLOW_LOCAL_WRITE) != 0) : standard;
                }).build());
        out.add(Variants.builder("fault:MR-FR-12/remote-read-always",
                "a fast registration grants remote read whatever its NDK_OP_FLAG bits")
                .replace(Pieces.FR_ACCESS_FLAGS, (FrAccessFlags) f -> Pieces.FR_ACCESS_FLAGS.standard().access(f) | Access.REMOTE_READ)
                .build());
        out.add(Variants.builder("fault:MR-REG-8/local-write-always",
                "a registration made with NdkRegisterMr grants local write whatever its NDK_MR_FLAG bits")
                .replace(Pieces.MR_ACCESS_FLAGS, (MrAccessFlags) f -> Pieces.MR_ACCESS_FLAGS.standard().access(f) | Access.LOCAL_WRITE)
                .build());
        out.add(Variants.wrapped("fault:MR-REG-4/mdl-boundary-in-page",
                "NdkRegisterMr appends the PFN arrays of the chain's MDLs, so a page two MDLs share counts twice and later bytes land one page off",
                AppendedPfns::new));
        out.add(Variants.wrapped("fault:MR-FR-3/page-array-as-one-run",
                "NdkFastRegister uses AdapterPageArray[0] and assumes the other entries follow it page by page",
                PageArrayAsOneRun::new));
        out.add(Variants.wrapped("fault:MR-FR-10/page-array-from-lam-start",
                "NdkFastRegister maps a page array that starts at a later page of a LAM as if it started at the LAM's first page",
                PageArrayFromLamStart::new));
        out.add(Variants.wrapped("fault:MR-FR-17/run-rounded-down",
                "NdkFastRegister checks alignment entry by entry only when the page array is not one run; a run is taken from "
                        + "its first entry rounded down to its page, so an array whose every entry is off by the same bytes is registered",
                RunRoundedDown::new));
        out.add(Variants.wrapped("fault:MR-FR-10/descending-array-as-run",
                "NdkFastRegister takes an AdapterPageArray whose entries descend page by page as the ascending run from its first entry",
                DescendingAsRun::new));
        out.add(Variants.wrapped("fault:GEN-EXC-1/create-refusal-throws",
                "NdkCreateCq and NdkCreateQp throw IllegalArgumentException where they would refuse their arguments inline",
                () -> new Hooks() {
                    @Override
                    public <T extends org.ndktck.spec.NdkObject> org.ndktck.spec.CreateResult<T> create(NdkCall call,
                            org.ndktck.spec.NdkObject parent, org.ndktck.spec.CreateCompletion<T> completion, Object context,
                            CreateCall<T> inner) {
                        org.ndktck.spec.CreateResult<T> r = inner.invoke(completion, context);
                        if ((call == NdkCall.CREATE_CQ || call == NdkCall.CREATE_QP) && r != null && r.status() != null
                                && !r.status().isPending() && !r.status().equals(STATUS_SUCCESS)) {
                            throw new IllegalArgumentException(call + " refused its arguments: " + r.status());
                        }
                        return r;
                    }
                }));
        out.add(Variants.wrapped("fault:LAM-4/size-left-as-offered",
                "a successful NdkBuildLam leaves *pLAMSize at the size the consumer offered instead of the bytes it wrote",
                () -> new Hooks() {
                    @Override
                    public NtStatus buildLam(ForwardingAdapter adapter, Mdl mdl, NdkLogicalAddressMapping lam,
                                             org.ndktck.spec.RequestCompletion completion, Object context, RequestCall inner) {
                        int offered = lam.lamSize();
                        NtStatus r = inner.invoke(completion == null ? null : (ctx, st) -> {
                            if (STATUS_SUCCESS.equals(st)) {
                                lam.setLamSize(offered);
                            }
                            completion.complete(ctx, st);
                        }, context);
                        if (STATUS_SUCCESS.equals(r)) {
                            lam.setLamSize(offered);
                        }
                        return r;
                    }
                }));
        out.add(Variants.wrapped("fault:MR-FR-8/cqs-swapped",
                "NdkCreateQp swaps its two CQs: fast-register and other initiator completions appear on the receive CQ, "
                        + "receive completions on the initiator CQ",
                () -> new Hooks() {
                    @Override
                    public org.ndktck.spec.NdkCq[] qpCqs(org.ndktck.spec.NdkCq receiveCq, org.ndktck.spec.NdkCq initiatorCq) {
                        return new org.ndktck.spec.NdkCq[]{initiatorCq, receiveCq};
                    }
                }));
        out.add(Variants.wrapped("fault:SGE-3/inline-token-region-trusted",
                "an INLINE NdkSend or NdkWrite looks its bytes up in the registration its SGE token names, so an SGE whose token is "
                        + "the local token of a registration that does not hold those bytes fails with STATUS_INVALID_PARAMETER",
                InlineTokenRegionTrusted::new));
        out.add(Variants.wrapped("fault:DEF-4/data-refusal-keeps-deferred",
                "an NdkRead, NdkWrite or NdkSend with more SGEs than the QP's MaxInitiatorRequestSge fails inline without handing "
                        + "the QP's earlier DEFER requests to the hardware (fast-register and invalidate refusals do hand them on)",
                () -> new Hooks() {
                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, java.util.function.Function<WorkRequest, NtStatus> inner) {
                        boolean data = w.call() == NdkCall.READ || w.call() == NdkCall.WRITE || w.call() == NdkCall.SEND
                                || w.call() == NdkCall.SEND_AND_INVALIDATE;
                        if (data && Integer.compareUnsigned(w.sgl().length, qp.maxInitiatorRequestSge()) > 0) {
                            return STATUS_INVALID_PARAMETER;
                        }
                        return inner.apply(w);
                    }
                }));
        out.add(Variants.builder("fault:DEF-3/invalidate-defer-refused",
                "NdkInvalidate refuses NDK_OP_FLAG_DEFER with STATUS_INVALID_PARAMETER although the adapter is NDKPI 1.2")
                .replace(Pieces.INV_3_FLAGS, (org.ndktck.reference.InvalidateRequest r) ->
                        failUnless((r.flags() & ~(NdkOpFlags.SILENT_SUCCESS | NdkOpFlags.READ_FENCE)) == 0))
                .build());
        return out;
    }

    /**
     * Hands NdkRegisterMr one MDL over the chain's bytes whose PFNs are the chain's PFN arrays appended one
     * after the other (the first {@code span} of them): right for chains whose MDLs end on page boundaries,
     * one page off after every page two MDLs share.
     */
    static final class AppendedPfns implements Hooks {
        @Override
        public Mdl mdl(NdkCall call, Mdl first) {
            if (call != NdkCall.REGISTER_MR || first == null || first.next() == null) {
                return first;
            }
            List<Long> pfns = new ArrayList<>();
            long bytes = 0;
            int mdls = 0;
            for (Mdl m = first; m != null && mdls < 1 << 16; m = m.next(), mdls++) {
                if (m.virtualAddress() != first.virtualAddress() + bytes) {
                    return first; // a chain that is not virtually contiguous goes on as it is (MR-REG-2 is not this fault)
                }
                bytes += m.unsignedByteCount();
                for (long f : m.pfns()) {
                    pfns.add(f);
                }
            }
            long span = Mdl.spanPages(first.byteOffset(), bytes, first.pageSize());
            if (bytes > 0xFFFF_FFFFL || span > pfns.size()) {
                return first;
            }
            long[] frames = new long[(int) span];
            for (int i = 0; i < frames.length; i++) {
                frames[i] = pfns.get(i);
            }
            return new Mdl(first.pageSize(), first.startVa(), first.byteOffset(), (int) bytes, frames);
        }
    }

    /** Rewrites the AdapterPageArray of every NdkFastRegister to AdapterPageArray[0] + i x PAGE_SIZE. */
    static final class PageArrayAsOneRun implements Hooks {
        private volatile ForwardingAdapter adapter;
        private volatile long pageSize;

        @Override
        public void attach(ForwardingAdapter adapter) {
            this.adapter = adapter;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            long[] given = request.adapterPageArray();
            if (request.call() != NdkCall.FAST_REGISTER || given == null || given.length < 2) {
                return inner.apply(request);
            }
            if (pageSize == 0) {
                pageSize = Integer.toUnsignedLong(adapter.pageSize());
            }
            long[] run = new long[given.length];
            for (int i = 0; i < run.length; i++) {
                run[i] = given[0] + i * pageSize;
            }
            return inner.apply(request.withAdapterPageArray(run));
        }
    }

    /**
     * Remembers the LAMs the consumer builds; an NdkFastRegister whose AdapterPageArray[0] is a later page k of
     * one of them gets every entry moved back by k pages, so the registration maps the LAM from its first page.
     * Page arrays that start at a LAM's first page are unaffected.
     */
    static final class PageArrayFromLamStart implements Hooks {
        private final List<NdkLogicalAddressMapping> lams = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public NtStatus buildLam(ForwardingAdapter adapter, Mdl mdl, NdkLogicalAddressMapping lam, org.ndktck.spec.RequestCompletion completion,
                                 Object context, RequestCall inner) {
            lams.add(lam);
            return inner.invoke(completion, context);
        }

        @Override
        public void releaseLam(NdkLogicalAddressMapping lam, Runnable inner) {
            lams.remove(lam);
            inner.run();
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            long[] given = request.adapterPageArray();
            if (request.call() != NdkCall.FAST_REGISTER || given == null || given.length == 0) {
                return inner.apply(request);
            }
            for (NdkLogicalAddressMapping lam : lams) {
                long[] pages = lam.adapterPageArray();
                int n = Math.min(pages.length, lam.adapterPageCount());
                for (int k = 1; k < n; k++) {
                    if (pages[k] == given[0]) {
                        long[] moved = given.clone();
                        for (int i = 0; i < moved.length; i++) {
                            moved[i] -= pages[k] - pages[0];
                        }
                        return inner.apply(request.withAdapterPageArray(moved));
                    }
                }
            }
            return inner.apply(request);
        }
    }

    /**
     * A fast registration's AdapterPageArray of two or more entries, rewritten before the provider sees it when
     * {@link #rewrite} says so; every other request passes unchanged.
     */
    abstract static class PageArrayRewrite implements Hooks {
        private volatile ForwardingAdapter adapter;

        @Override
        public void attach(ForwardingAdapter adapter) {
            this.adapter = adapter;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, java.util.function.Function<WorkRequest, NtStatus> inner) {
            long[] given = request.adapterPageArray();
            if (request.call() != NdkCall.FAST_REGISTER || given == null || given.length < 2) {
                return inner.apply(request);
            }
            long[] rewritten = rewrite(given, Integer.toUnsignedLong(adapter.pageSize()));
            return inner.apply(rewritten == null ? request : request.withAdapterPageArray(rewritten));
        }

        /**
         * @param given    the consumer's page array (two or more entries; not modified)
         * @param pageSize PAGE_SIZE in bytes
         * @return the array the provider gets, or null to pass {@code given} unchanged
         */
        abstract long[] rewrite(long[] given, long pageSize);
    }

    /**
     * An AdapterPageArray of two or more entries that descends page by page (entry i = entry 0 − i × PAGE_SIZE) reaches
     * the provider as the ascending run entry 0 + i × PAGE_SIZE, as a fast path that compares entry i with
     * {@code first - i × PAGE_SIZE} instead of {@code first + i × PAGE_SIZE} would read it (a surviving PIT mutant of
     * {@code TranslatedPages.ofOneRun}); other arrays pass unchanged.
     */
    static final class DescendingAsRun extends PageArrayRewrite {
        @Override
        long[] rewrite(long[] given, long p) {
            long[] ascending = new long[given.length];
            for (int i = 0; i < given.length; i++) {
                if (given[i] != given[0] - i * p) {
                    return null;
                }
                ascending[i] = given[0] + i * p;
            }
            return ascending;
        }
    }

    /**
     * An AdapterPageArray of two or more entries that is one run (entry i = entry 0 + i × PAGE_SIZE) reaches the provider with every
     * entry rounded down to its page; other arrays pass unchanged (and a lone misaligned entry is still refused).
     */
    static final class RunRoundedDown extends PageArrayRewrite {
        @Override
        long[] rewrite(long[] given, long p) {
            for (int i = 1; i < given.length; i++) {
                if (given[i] != given[0] + i * p) {
                    return null;
                }
            }
            long[] rounded = new long[given.length];
            for (int i = 0; i < rounded.length; i++) {
                rounded[i] = given[i] & -p;
            }
            return rounded;
        }
    }

    /**
     * SGE-3 broken: an INLINE send or write reads each SGE through the registration its token names, when the token
     * is the local token of a registration the consumer read (NdkGetLocalTokenFromMr), and fails with
     * STATUS_INVALID_PARAMETER when that registration does not hold the SGE's bytes.
     */
    static final class InlineTokenRegionTrusted implements Hooks {
        private final java.util.Map<Integer, ForwardingMr> byToken = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call == NdkCall.GET_LOCAL_TOKEN && !mr.fastRegister()) {
                byToken.put(token, mr);
            }
            return token;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, java.util.function.Function<WorkRequest, NtStatus> inner) {
            boolean inline = (w.call() == NdkCall.SEND || w.call() == NdkCall.WRITE) && (w.flags() & NdkOpFlags.INLINE) != 0;
            if (inline) {
                for (org.ndktck.spec.NdkSge sge : w.sgl()) {
                    ForwardingMr mr = byToken.get(sge.memoryRegionToken());
                    if (mr != null && !mr.closed() && mr.mdl() != null) {
                        long offset = sge.address() - mr.base();
                        boolean holds = Long.compareUnsigned(offset, mr.length()) < 0
                                && Long.compareUnsigned(sge.unsignedLength(), mr.length() - offset) <= 0;
                        if (!holds) {
                            return STATUS_INVALID_PARAMETER;
                        }
                    }
                }
            }
            return inner.apply(w);
        }
    }
}
