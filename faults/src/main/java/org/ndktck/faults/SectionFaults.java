package org.ndktck.faults;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.reference.RetireEvent;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.TokenOwner;
import org.ndktck.reference.TokenPurpose;
import org.ndktck.reference.WorkRequestType;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Faulty providers for the rules of the catalog sections after the three seed pages: deregistration,
 * fast-register initialization, tokens, privileged token, SGEs, LAMs, invalidation, posting, read and
 * write, flush, CQ results, DEFER, close and adapter information, plus MR-REG-3 and LAM-5. Each is the
 * reference provider with one piece replaced ({@link Pieces}) or one SPI object wrapped
 * ({@link SectionWrap}), named {@code fault:RULE-ID/variant} after the rule the kit must FAIL for it.
 */
public final class SectionFaults implements NdkProviderSource {

    private static ReferenceProvider.Builder fault(String name, String description) {
        return ReferenceProvider.builder().name(name).description(description);
    }

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        deregistration(out);
        initialization(out);
        tokens(out);
        privileged(out);
        sges(out);
        lams(out);
        invalidation(out);
        readWrite(out);
        flushAndPosting(out);
        cqs(out);
        defer(out);
        close(out);
        adapterInfo(out);
        return out;
    }

    // ------------------------------------------------------------------ NdkDeregisterMr

    private static void deregistration(List<NdkProvider> out) {
        out.add(fault("fault:MR-DEREG-2/refuses", "NdkDeregisterMr of a registered MR fails with STATUS_INVALID_DEVICE_STATE")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus deregister(RequestCompletion completion, Object requestContext) {
                                return NtStatus.of(0xC0000184);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:MR-DEREG-3/token-kept", "a deregistered region's token still grants remote and local access")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.DEREGISTER).build());
    }

    // ------------------------------------------------------------------ NdkInitializeFastRegisterMr

    /** STATUS_INVALID_DEVICE_STATE, 0xC0000184: the error the wrapped faults report. */
    static final NtStatus INVALID_DEVICE_STATE = NtStatus.of(0xC0000184);

    private static void initialization(List<NdkProvider> out) {
        out.add(fault("fault:MR-FRI-2/off-by-one", "a fast registration of exactly the initialized AdapterPageCount is refused")
                .replace(Pieces.MR_FR_18, r -> r.adapterPageCount() != 0
                        && Integer.compareUnsigned(r.adapterPageCount(), r.mr().initializedPageCount()) < 0
                        ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_INVALID_PARAMETER).build());
        out.add(fault("fault:MR-FRI-3/no-limit", "any AdapterPageCount is accepted, even 0xFFFFFFFF")
                .replace(Pieces.MR_FRI_3, RuleCheck.pass()).build());
        out.add(fault("fault:MR-FRI-4/limit-at-frmr", "AdapterPageCount = FRMRPageCount gives STATUS_IMPLEMENTATION_LIMIT")
                .replace(Pieces.MR_FRI_3, r -> Integer.compareUnsigned(r.adapterPageCount(), r.adapter().settings().frmrPageCount()) < 0
                        ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_IMPLEMENTATION_LIMIT).build());
        out.add(fault("fault:MR-FRI-6/not-reentrant", "an initialization made while another one runs fails with STATUS_INVALID_DEVICE_STATE")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    final AtomicInteger running = new AtomicInteger();

                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus initializeFastRegister(int count, boolean remote, RequestCompletion c, Object ctx) {
                                if (running.incrementAndGet() > 1) {
                                    running.decrementAndGet();
                                    return INVALID_DEVICE_STATE;
                                }
                                try {
                                    LockSupport.parkNanos(2_000_000L);
                                    return inner.initializeFastRegister(count, remote, c, ctx);
                                } finally {
                                    running.decrementAndGet();
                                }
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:MR-FRI-7/first-fast-register-refused",
                "the first NdkFastRegister after an initialization fails inline with STATUS_INVALID_DEVICE_STATE")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    final Set<Object> fresh = ConcurrentHashMap.newKeySet();

                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus initializeFastRegister(int count, boolean remote, RequestCompletion c, Object ctx) {
                                NtStatus r = inner.initializeFastRegister(count, remote, (x, st) -> {
                                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                                        fresh.add(inner);
                                    }
                                    c.complete(x, st);
                                }, ctx);
                                if (NtStatus.STATUS_SUCCESS.equals(r)) {
                                    fresh.add(inner);
                                }
                                return r;
                            }
                        };
                    }

                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public NtStatus fastRegister(Object ctx, NdkMr mr, int n, long[] pages, int fbo, long length, long base, int flags) {
                                Object key = mr instanceof SectionWrap.Mr w ? w.inner : mr;
                                if (fresh.remove(key)) {
                                    return INVALID_DEVICE_STATE;
                                }
                                return inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:MR-FRI-8/informational-status",
                "NdkInitializeFastRegisterMr ends in the informational status 0x40000000 instead of STATUS_SUCCESS")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus initializeFastRegister(int count, boolean remote, RequestCompletion c, Object ctx) {
                                NtStatus r = inner.initializeFastRegister(count, remote,
                                        (x, st) -> c.complete(x, NtStatus.STATUS_SUCCESS.equals(st) ? NtStatus.of(0x40000000) : st), ctx);
                                return NtStatus.STATUS_SUCCESS.equals(r) ? NtStatus.of(0x40000000) : r;
                            }
                        };
                    }
                })).build());
    }

    // ------------------------------------------------------------------ tokens

    private static void tokens(List<NdkProvider> out) {
        out.add(fault("fault:MR-TOK-1/token-late",
                "the first remote token read after a registration or initialization completes is not yet the new one")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        AtomicInteger stale = new AtomicInteger();
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                                return mark(inner.register(mdl, length, flags, (x, st) -> c.complete(x, mark(st)), ctx));
                            }

                            @Override
                            public NtStatus initializeFastRegister(int count, boolean remote, RequestCompletion c, Object ctx) {
                                return mark(inner.initializeFastRegister(count, remote, (x, st) -> c.complete(x, mark(st)), ctx));
                            }

                            private NtStatus mark(NtStatus st) {
                                if (NtStatus.STATUS_SUCCESS.equals(st)) {
                                    stale.set(1);
                                }
                                return st;
                            }

                            @Override
                            public int getRemoteToken() {
                                int token = inner.getRemoteToken();
                                return stale.getAndSet(0) == 1 ? token ^ 0x00A50001 : token;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:MR-TOK-2/wrong-local-token", "NdkGetLocalTokenFromMr returns a token that names nothing")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public int getLocalToken() {
                                return inner.getLocalToken() ^ 0x5A000000;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:MR-TOK-5/changes-on-reread", "every second read of the remote token gives another value")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        AtomicInteger reads = new AtomicInteger();
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public int getRemoteToken() {
                                int token = inner.getRemoteToken();
                                return (reads.incrementAndGet() & 1) == 0 ? token ^ 0x40000000 : token;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:MR-TOK-6/shared-token", "every registration gets the same token 0x1234")
                .replace(Pieces.TOKEN_ALLOCATOR, seed -> request -> request.purpose() == TokenPurpose.PRIVILEGED ? 1 : 0x1234).build());
    }

    // ------------------------------------------------------------------ privileged token

    private static void privileged(List<NdkProvider> out) {
        out.add(fault("fault:PRIV-1/privileged-refused", "an SGE with the privileged token is refused (STATUS_ACCESS_VIOLATION)")
                .replace(Pieces.SGE_1, r -> r.owner() == TokenOwner.PRIVILEGED ? NtStatus.STATUS_ACCESS_VIOLATION : NtStatus.STATUS_SUCCESS)
                .build());
        out.add(fault("fault:PRIV-2/pd-wide-key",
                "the privileged token used as a remote token reaches the PD's latest registered region")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    final Map<Integer, AtomicInteger> latestByPrivileged = new ConcurrentHashMap<>();

                    @Override
                    NdkPd pd(NdkPd inner) {
                        AtomicInteger latest = new AtomicInteger();
                        latestByPrivileged.put(inner.getPrivilegedMemoryRegionToken(), latest);
                        return new SectionWrap.Pd(this, inner) {
                            @Override
                            public org.ndktck.spec.CreateResult<NdkMr> createMr(boolean fast, org.ndktck.spec.CreateCompletion<NdkMr> c, Object ctx) {
                                return super.createMr(fast, c, ctx);
                            }
                        };
                    }

                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        AtomicInteger latest = latestByPrivileged.get(pd.inner.getPrivilegedMemoryRegionToken());
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                                NtStatus r = inner.register(mdl, length, flags, (x, st) -> {
                                    if (NtStatus.STATUS_SUCCESS.equals(st)) {
                                        latest.set(inner.getRemoteToken());
                                    }
                                    c.complete(x, st);
                                }, ctx);
                                if (NtStatus.STATUS_SUCCESS.equals(r)) {
                                    latest.set(inner.getRemoteToken());
                                }
                                return r;
                            }
                        };
                    }

                    private int translate(int token) {
                        AtomicInteger latest = latestByPrivileged.get(token);
                        return latest == null || latest.get() == 0 ? token : latest.get();
                    }

                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public NtStatus read(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return inner.read(ctx, sgl, address, translate(token), flags);
                            }

                            @Override
                            public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return inner.write(ctx, sgl, address, translate(token), flags);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:PRIV-3/privileged-read-sink-refused",
                "a LAM address with the privileged token is refused as an RDMA-read sink although the adapter sets RDMA_READ_SINK_NOT_REQUIRED")
                .replace(Pieces.MR_REG_6, r -> r.sink() && r.type() == WorkRequestType.READ && r.owner() == TokenOwner.PRIVILEGED
                        ? NtStatus.STATUS_ACCESS_VIOLATION : Pieces.MR_REG_6.standard().check(r)).build());
    }

    // ------------------------------------------------------------------ SGEs

    private static void sges(List<NdkProvider> out) {
        out.add(fault("fault:SGE-2/bounds-ignored", "a local SGE is not checked against its region's bounds (only the page frames limit it)")
                .replace(Pieces.SGE_2_BOUNDS, RuleCheck.pass()).build());
        out.add(fault("fault:SGE-2/foreign-pd", "a local SGE may carry the token of a region of another PD")
                .replace(Pieces.SGE_2_TOKEN, r -> switch (r.owner()) {
                    case NONE -> NtStatus.STATUS_ACCESS_VIOLATION;
                    case PRIVILEGED -> r.samePd() ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_ACCESS_VIOLATION;
                    case REGISTRATION -> r.region() != null && r.region().live() ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_ACCESS_VIOLATION;
                }).build());
        out.add(fault("fault:SGE-3/token-checked", "an INLINE send whose SGE token is 0 or 0xFFFFFFFF fails with STATUS_INVALID_PARAMETER")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public NtStatus send(Object ctx, NdkSge[] sgl, int flags) {
                                if ((flags & NdkOpFlags.INLINE) != 0) {
                                    for (NdkSge sge : sgl) {
                                        if (sge.memoryRegionToken() == 0 || sge.memoryRegionToken() == -1) {
                                            return NtStatus.STATUS_INVALID_PARAMETER;
                                        }
                                    }
                                }
                                return inner.send(ctx, sgl, flags);
                            }
                        };
                    }
                })).build());
    }

    // ------------------------------------------------------------------ LAMs and MDL addresses

    /**
     * @param mdl a chain
     * @return the same chain with each MDL's page frames taken from its virtual address (PFN = VA / PAGE_SIZE),
     *     as a provider that dereferences the MDL's virtual address would reach memory
     */
    static Mdl framesFromVirtualAddress(Mdl mdl) {
        Mdl first = null;
        Mdl prev = null;
        for (Mdl m = mdl; m != null; m = m.next()) {
            long[] pfns = new long[m.pfns().length];
            long startPfn = Long.divideUnsigned(m.startVa(), m.pageSize());
            for (int i = 0; i < pfns.length; i++) {
                pfns[i] = startPfn + i;
            }
            Mdl copy = new Mdl(m.pageSize(), m.startVa(), m.byteOffset(), m.byteCount(), pfns);
            if (first == null) {
                first = copy;
            } else {
                prev.setNext(copy);
            }
            prev = copy;
        }
        return first;
    }

    private static void lams(List<NdkProvider> out) {
        out.add(fault("fault:MR-REG-3/dereferences-va", "NdkRegisterMr reaches memory through the MDL's virtual address")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                                return inner.register(framesFromVirtualAddress(mdl), length, flags, c, ctx);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:LAM-5/dereferences-va", "NdkBuildLam maps the pages the MDL's virtual address names as physical")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkAdapter adapter(NdkAdapter inner) {
                        return new SectionWrap.Adapter(this, inner) {
                            @Override
                            public NtStatus buildLam(Mdl mdl, long length, RequestCompletion c, Object ctx, NdkLogicalAddressMapping lam) {
                                return inner.buildLam(framesFromVirtualAddress(mdl), length, c, ctx, lam);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:LAM-2/gaps-accepted", "NdkBuildLam maps a chain that is not virtually contiguous")
                .replace(Pieces.LAM_2, RuleCheck.pass()).build());
        out.add(fault("fault:LAM-3/truncates", "NdkBuildLam succeeds with a buffer too small for the mapping")
                .replace(Pieces.LAM_3, RuleCheck.pass()).build());
        out.add(fault("fault:LAM-3/size-not-returned", "STATUS_BUFFER_TOO_SMALL leaves *pLAMSize at the size offered")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkAdapter adapter(NdkAdapter inner) {
                        return new SectionWrap.Adapter(this, inner) {
                            @Override
                            public NtStatus buildLam(Mdl mdl, long length, RequestCompletion c, Object ctx, NdkLogicalAddressMapping lam) {
                                int offered = lam.lamSize();
                                NtStatus r = inner.buildLam(mdl, length, (x, st) -> {
                                    if (NtStatus.STATUS_BUFFER_TOO_SMALL.equals(st)) {
                                        lam.setLamSize(offered);
                                    }
                                    c.complete(x, st);
                                }, ctx, lam);
                                if (NtStatus.STATUS_BUFFER_TOO_SMALL.equals(r)) {
                                    lam.setLamSize(offered);
                                }
                                return r;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:LAM-4/fbo-zero", "NdkBuildLam reports *pFBO 0 whatever the chain's offset")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkAdapter adapter(NdkAdapter inner) {
                        return new SectionWrap.Adapter(this, inner) {
                            @Override
                            public NtStatus buildLam(Mdl mdl, long length, RequestCompletion c, Object ctx, NdkLogicalAddressMapping lam) {
                                NtStatus r = inner.buildLam(mdl, length, (x, st) -> {
                                    lam.setFbo(0);
                                    c.complete(x, st);
                                }, ctx, lam);
                                if (NtStatus.STATUS_SUCCESS.equals(r)) {
                                    lam.setFbo(0);
                                }
                                return r;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:LAM-7/informational-status", "NdkBuildLam ends in the informational status 0x40000000 instead of STATUS_SUCCESS")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkAdapter adapter(NdkAdapter inner) {
                        return new SectionWrap.Adapter(this, inner) {
                            @Override
                            public NtStatus buildLam(Mdl mdl, long length, RequestCompletion c, Object ctx, NdkLogicalAddressMapping lam) {
                                NtStatus r = inner.buildLam(mdl, length,
                                        (x, st) -> c.complete(x, NtStatus.STATUS_SUCCESS.equals(st) ? NtStatus.of(0x40000000) : st), ctx, lam);
                                return NtStatus.STATUS_SUCCESS.equals(r) ? NtStatus.of(0x40000000) : r;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:LAM-REL-1/rewrites-next", "NdkReleaseLam rewrites Next of the chain's first MDL (to the same value)")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    final Map<NdkLogicalAddressMapping, Mdl> chains = new ConcurrentHashMap<>();

                    @Override
                    NdkAdapter adapter(NdkAdapter inner) {
                        return new SectionWrap.Adapter(this, inner) {
                            @Override
                            public NtStatus buildLam(Mdl mdl, long length, RequestCompletion c, Object ctx, NdkLogicalAddressMapping lam) {
                                chains.put(lam, mdl);
                                return inner.buildLam(mdl, length, c, ctx, lam);
                            }

                            @Override
                            public void releaseLam(NdkLogicalAddressMapping lam) {
                                inner.releaseLam(lam);
                                Mdl m = chains.remove(lam);
                                if (m != null) {
                                    m.setNext(m.next());
                                }
                            }
                        };
                    }
                })).build());
    }

    // ------------------------------------------------------------------ NdkInvalidate

    private static void invalidation(List<NdkProvider> out) {
        out.add(fault("fault:INV-2/unconnected-accepted", "NdkInvalidate on a QP that was never connected is accepted")
                .replace(Pieces.INV_2, RuleCheck.pass()).build());
        out.add(fault("fault:INV-3/entry-lost", "the CQ entry of a successful NdkInvalidate is never delivered")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new FilteringCq(this, inner, e -> e.type() != NdkOperationType.INVALIDATE);
                    }
                })).build());
        out.add(fault("fault:INV-4/token-kept", "an invalidated fast registration's token still grants access")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.INVALIDATE).build());
        out.add(fault("fault:INV-5/token-kept", "a token named by a peer's NdkSendAndInvalidate stays valid")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.REMOTE_INVALIDATE).build());
    }

    /** A CQ that silently drops the entries a predicate rejects (both result calls read the extended entries). */
    static class FilteringCq extends SectionWrap.Cq {
        private final java.util.function.Predicate<NdkResultEx> keep;

        FilteringCq(SectionWrap.Hooks hooks, NdkCq inner, java.util.function.Predicate<NdkResultEx> keep) {
            super(hooks, inner);
            this.keep = keep;
        }

        @Override
        public int getCqResultsEx(NdkResultEx[] results) {
            int out = 0;
            while (out < results.length) {
                NdkResultEx[] got = new NdkResultEx[results.length - out];
                int n = inner.getCqResultsEx(got);
                if (n == 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    if (keep.test(got[i])) {
                        results[out++] = got[i];
                    }
                }
            }
            return out;
        }

        @Override
        public int getCqResults(NdkResult[] results) {
            NdkResultEx[] ex = new NdkResultEx[results.length];
            int n = getCqResultsEx(ex);
            for (int i = 0; i < n; i++) {
                results[i] = ex[i].toResult();
            }
            return n;
        }
    }

    // ------------------------------------------------------------------ NdkRead, NdkWrite

    private static void readWrite(List<NdkProvider> out) {
        out.add(fault("fault:RW-2/unconnected-accepted", "NdkRead and NdkWrite on a QP that was never connected are accepted (and fail on the CQ)")
                .replace(Pieces.RW_2, RuleCheck.pass()).build());
        out.add(fault("fault:RW-3/read-past-end", "a read is checked against the region's page frames, not its Length")
                .replace(Pieces.MR_REG_4, r -> r.type() == WorkRequestType.READ ? NtStatus.STATUS_SUCCESS : Pieces.MR_REG_4.standard().check(r))
                .build());
        out.add(fault("fault:RW-4/sink-kept", "a read with RDMA_READ_LOCAL_INVALIDATE leaves the sink's token valid")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.READ_LOCAL_INVALIDATE).build());
        out.add(fault("fault:RW-5/silent-ignored", "NDK_OP_FLAG_SILENT_SUCCESS is ignored: successful requests still produce entries")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        int mask = ~NdkOpFlags.SILENT_SUCCESS;
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public NtStatus fastRegister(Object ctx, NdkMr mr, int n, long[] pages, int fbo, long length, long base, int flags) {
                                return inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags & mask);
                            }

                            @Override
                            public NtStatus read(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return inner.read(ctx, sgl, address, token, flags & mask);
                            }

                            @Override
                            public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return inner.write(ctx, sgl, address, token, flags & mask);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:RW-5/silent-failure-lost", "a request with SILENT_SUCCESS that fails produces no CQ entry")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    final Set<Object> silent = ConcurrentHashMap.newKeySet();

                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public NtStatus read(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                note(ctx, flags);
                                return inner.read(ctx, sgl, address, token, flags);
                            }

                            @Override
                            public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                note(ctx, flags);
                                return inner.write(ctx, sgl, address, token, flags);
                            }
                        };
                    }

                    private void note(Object ctx, int flags) {
                        if ((flags & NdkOpFlags.SILENT_SUCCESS) != 0 && ctx != null) {
                            silent.add(ctx);
                        }
                    }

                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new FilteringCq(this, inner, e -> !(silent.contains(e.requestContext())
                                && !NtStatus.STATUS_SUCCESS.equals(e.status())));
                    }
                })).build());
    }

    // ------------------------------------------------------------------ NdkFlush, posting

    /** A CQ that rewrites each entry (both result calls read the extended entries). */
    static class MappingCq extends SectionWrap.Cq {
        private final java.util.function.UnaryOperator<NdkResultEx> map;

        MappingCq(SectionWrap.Hooks hooks, NdkCq inner, java.util.function.UnaryOperator<NdkResultEx> map) {
            super(hooks, inner);
            this.map = map;
        }

        @Override
        public int getCqResultsEx(NdkResultEx[] results) {
            int n = inner.getCqResultsEx(results);
            for (int i = 0; i < n; i++) {
                results[i] = map.apply(results[i]);
            }
            return n;
        }

        @Override
        public int getCqResults(NdkResult[] results) {
            NdkResultEx[] ex = new NdkResultEx[results.length];
            int n = getCqResultsEx(ex);
            for (int i = 0; i < n; i++) {
                results[i] = ex[i].toResult();
            }
            return n;
        }
    }

    private static void flushAndPosting(List<NdkProvider> out) {
        out.add(fault("fault:FL-1/flush-ignored", "NdkFlush does nothing").decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
            @Override
            NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                return new SectionWrap.Qp(this, inner, pd) {
                    @Override
                    public void flush() {
                    }
                };
            }
        })).build());
        out.add(fault("fault:FL-1/cancelled-as-success", "flushed receives complete with STATUS_SUCCESS instead of STATUS_CANCELLED")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new MappingCq(this, inner, e -> e.type() == NdkOperationType.RECEIVE && NtStatus.STATUS_CANCELLED.equals(e.status())
                                ? new NdkResultEx(NtStatus.STATUS_SUCCESS, 0, e.qpContext(), e.requestContext(), e.type(), 0) : e);
                    }
                })).build());
        out.add(fault("fault:WRP-2/posts-lost-after-flush", "requests posted on a QP after NdkFlush return STATUS_SUCCESS and never complete")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        java.util.concurrent.atomic.AtomicBoolean flushed = new java.util.concurrent.atomic.AtomicBoolean();
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public void flush() {
                                inner.flush();
                                flushed.set(true);
                            }

                            @Override
                            public NtStatus fastRegister(Object ctx, NdkMr mr, int n, long[] pages, int fbo, long length, long base, int flags) {
                                return flushed.get() ? NtStatus.STATUS_SUCCESS : inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags);
                            }

                            @Override
                            public NtStatus invalidate(Object ctx, NdkMr mr, int flags) {
                                return flushed.get() ? NtStatus.STATUS_SUCCESS : inner.invalidate(ctx, mr, flags);
                            }

                            @Override
                            public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return flushed.get() ? NtStatus.STATUS_SUCCESS : inner.write(ctx, sgl, address, token, flags);
                            }
                        };
                    }
                })).build());
    }

    // ------------------------------------------------------------------ CQ results

    private static NdkResultEx with(NdkResultEx e, Object qpContext, Object requestContext, NdkOperationType type, long typeSpecific) {
        return new NdkResultEx(e.status(), e.bytesTransferred(), qpContext, requestContext, type, typeSpecific);
    }

    private static void cqs(List<NdkProvider> out) {
        out.add(fault("fault:CQ-1/count-beyond-array",
                "when more entries are waiting than the array holds, the result calls return the number waiting (the extra entries are lost)")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new SectionWrap.Cq(this, inner) {
                            @Override
                            public int getCqResultsEx(NdkResultEx[] results) {
                                int n = inner.getCqResultsEx(results);
                                return n == results.length ? n + inner.getCqResultsEx(new NdkResultEx[64]) : n;
                            }

                            @Override
                            public int getCqResults(NdkResult[] results) {
                                int n = inner.getCqResults(results);
                                return n == results.length ? n + inner.getCqResults(new NdkResult[64]) : n;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:CQ-2/qp-context-null", "CQ entries carry a null QPContext")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new MappingCq(this, inner, e -> with(e, null, e.requestContext(), e.type(), e.typeSpecificCompletionOutput()));
                    }
                })).build());
        out.add(fault("fault:CQ-2/foreign-request-context", "CQ entries carry a copy of the RequestContext, not the consumer's own value")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new MappingCq(this, inner, e -> with(e, e.qpContext(), String.valueOf(e.requestContext()), e.type(),
                                e.typeSpecificCompletionOutput()));
                    }
                })).build());
        out.add(fault("fault:CQ-3/read-as-write", "NDK_RESULT_EX.Type of an NdkRead says NdkOperationTypeWrite")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new MappingCq(this, inner, e -> e.type() == NdkOperationType.READ
                                ? with(e, e.qpContext(), e.requestContext(), NdkOperationType.WRITE, 0) : e);
                    }
                })).build());
        out.add(fault("fault:CQ-3/invalidated-token-missing", "a ReceiveAndInvalidate entry carries 0 instead of the invalidated token")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new MappingCq(this, inner, e -> e.type() == NdkOperationType.RECEIVE_AND_INVALIDATE
                                ? with(e, e.qpContext(), e.requestContext(), e.type(), 0) : e);
                    }
                })).build());
    }

    // ------------------------------------------------------------------ DEFER

    /** A CQ that first returns the entries a faulty QP injected. */
    static class InjectingCq extends SectionWrap.Cq {
        final java.util.concurrent.ConcurrentLinkedQueue<NdkResultEx> injected = new java.util.concurrent.ConcurrentLinkedQueue<>();

        InjectingCq(SectionWrap.Hooks hooks, NdkCq inner) {
            super(hooks, inner);
        }

        @Override
        public int getCqResultsEx(NdkResultEx[] results) {
            int n = 0;
            NdkResultEx e;
            while (n < results.length && (e = injected.poll()) != null) {
                results[n++] = e;
            }
            if (n < results.length) {
                NdkResultEx[] rest = new NdkResultEx[results.length - n];
                int m = inner.getCqResultsEx(rest);
                System.arraycopy(rest, 0, results, n, m);
                n += m;
            }
            return n;
        }

        @Override
        public int getCqResults(NdkResult[] results) {
            NdkResultEx[] ex = new NdkResultEx[results.length];
            int n = getCqResultsEx(ex);
            for (int i = 0; i < n; i++) {
                results[i] = ex[i].toResult();
            }
            return n;
        }
    }

    /** A DEFER request the faulty QP of DEF-3 and DEF-4 holds itself. */
    private interface Held {
        NtStatus post();
    }

    private static void defer(List<NdkProvider> out) {
        out.add(fault("fault:DEF-2/entry-after-inline-failure", "a request refused inline still gets a CQ entry with its error status")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new InjectingCq(this, inner);
                    }

                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        return new SectionWrap.Qp(this, inner, pd) {
                            private NtStatus echo(Object ctx, NtStatus r, NdkOperationType type) {
                                if (r != null && r.isError() && iq instanceof InjectingCq c) {
                                    c.injected.add(new NdkResultEx(r, 0, qpContext, ctx, type, 0));
                                }
                                return r;
                            }

                            @Override
                            public NtStatus fastRegister(Object ctx, NdkMr mr, int n, long[] pages, int fbo, long length, long base, int flags) {
                                return echo(ctx, inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags), NdkOperationType.FAST_REGISTER);
                            }

                            @Override
                            public NtStatus invalidate(Object ctx, NdkMr mr, int flags) {
                                return echo(ctx, inner.invalidate(ctx, mr, flags), NdkOperationType.INVALIDATE);
                            }

                            @Override
                            public NtStatus read(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return echo(ctx, inner.read(ctx, sgl, address, token, flags), NdkOperationType.READ);
                            }

                            @Override
                            public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return echo(ctx, inner.write(ctx, sgl, address, token, flags), NdkOperationType.WRITE);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:DEF-3/deferred-dropped", "requests with NDK_OP_FLAG_DEFER are accepted and never processed")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public NtStatus fastRegister(Object ctx, NdkMr mr, int n, long[] pages, int fbo, long length, long base, int flags) {
                                return (flags & NdkOpFlags.DEFER) != 0 ? NtStatus.STATUS_SUCCESS
                                        : inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags);
                            }

                            @Override
                            public NtStatus read(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return (flags & NdkOpFlags.DEFER) != 0 ? NtStatus.STATUS_SUCCESS : inner.read(ctx, sgl, address, token, flags);
                            }

                            @Override
                            public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                return (flags & NdkOpFlags.DEFER) != 0 ? NtStatus.STATUS_SUCCESS : inner.write(ctx, sgl, address, token, flags);
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:DEF-4/held-after-inline-failure",
                "DEFER fast registrations are held until the next request without DEFER, even when a request fails inline in between")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    final Map<Object, Boolean> remote = new ConcurrentHashMap<>();

                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus initializeFastRegister(int count, boolean remoteAccess, RequestCompletion c, Object ctx) {
                                remote.put(inner, remoteAccess);
                                return inner.initializeFastRegister(count, remoteAccess, c, ctx);
                            }
                        };
                    }

                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        List<Held> held = new ArrayList<>();
                        return new SectionWrap.Qp(this, inner, pd) {
                            private void release() {
                                List<Held> now;
                                synchronized (held) {
                                    now = new ArrayList<>(held);
                                    held.clear();
                                }
                                for (Held h : now) {
                                    h.post();
                                }
                            }

                            @Override
                            public NtStatus fastRegister(Object ctx, NdkMr mr, int n, long[] pages, int fbo, long length, long base, int flags) {
                                if ((flags & NdkOpFlags.DEFER) != 0) {
                                    Object key = mr instanceof SectionWrap.Mr w ? w.inner : mr;
                                    if ((flags & 0x28) != 0 && Boolean.FALSE.equals(remote.get(key))) {
                                        return NtStatus.STATUS_ACCESS_VIOLATION;
                                    }
                                    synchronized (held) {
                                        held.add(() -> inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags & ~NdkOpFlags.DEFER));
                                    }
                                    return NtStatus.STATUS_SUCCESS;
                                }
                                release();
                                return inner.fastRegister(ctx, mr, n, pages, fbo, length, base, flags);
                            }

                            @Override
                            public NtStatus invalidate(Object ctx, NdkMr mr, int flags) {
                                release();
                                return inner.invalidate(ctx, mr, flags);
                            }

                            @Override
                            public NtStatus read(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                release();
                                return inner.read(ctx, sgl, address, token, flags);
                            }

                            @Override
                            public NtStatus write(Object ctx, NdkSge[] sgl, long address, int token, int flags) {
                                release();
                                return inner.write(ctx, sgl, address, token, flags);
                            }

                            @Override
                            public NtStatus send(Object ctx, NdkSge[] sgl, int flags) {
                                release();
                                return inner.send(ctx, sgl, flags);
                            }
                        };
                    }
                })).build());
    }

    // ------------------------------------------------------------------ close

    private static final java.util.concurrent.ExecutorService EARLY = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ndk-fault-early-callback");
        t.setDaemon(true);
        return t;
    });

    private static void close(List<NdkProvider> out) {
        out.add(fault("fault:CL-1/callback-after-success", "an MR close that returns STATUS_SUCCESS calls the close callback too")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus close(CloseCompletion completion, Object ctx) {
                                NtStatus r = inner.close(completion, ctx);
                                if (NtStatus.STATUS_SUCCESS.equals(r)) {
                                    completion.complete(ctx);
                                }
                                return r;
                            }
                        };
                    }
                })).build());
        out.add(fault("fault:CL-2/refuses-registered-mr", "closing a registered MR fails with STATUS_INVALID_DEVICE_STATE (deregister first)")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        java.util.concurrent.atomic.AtomicBoolean registered = new java.util.concurrent.atomic.AtomicBoolean();
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            @Override
                            public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                                NtStatus r = inner.register(mdl, length, flags, (x, st) -> {
                                    registered.compareAndSet(false, NtStatus.STATUS_SUCCESS.equals(st));
                                    c.complete(x, st);
                                }, ctx);
                                registered.compareAndSet(false, NtStatus.STATUS_SUCCESS.equals(r));
                                return r;
                            }

                            @Override
                            public NtStatus deregister(RequestCompletion c, Object ctx) {
                                registered.set(false);
                                return inner.deregister(c, ctx);
                            }

                            @Override
                            public NtStatus close(CloseCompletion completion, Object ctx) {
                                return registered.get() ? INVALID_DEVICE_STATE : inner.close(completion, ctx);
                            }
                        };
                    }
                })).build());
        // The fault shows only when the registration pends: it carries completion=pending as its default.
        out.add(FaultDefaults.withDefaults(fault("fault:CL-4/close-callback-first",
                "closing an MR with a request pending calls the close callback at once, before the request's completion")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkMr mr(NdkMr inner, SectionWrap.Pd pd, boolean fastRegister) {
                        AtomicInteger pending = new AtomicInteger();
                        return new SectionWrap.Mr(this, inner, pd, fastRegister) {
                            private RequestCompletion counted(RequestCompletion c) {
                                pending.incrementAndGet();
                                return (x, st) -> {
                                    pending.decrementAndGet();
                                    c.complete(x, st);
                                };
                            }

                            private NtStatus settle(NtStatus r) {
                                if (!r.isPending()) {
                                    pending.decrementAndGet();
                                }
                                return r;
                            }

                            @Override
                            public NtStatus register(Mdl mdl, long length, int flags, RequestCompletion c, Object ctx) {
                                return settle(inner.register(mdl, length, flags, counted(c), ctx));
                            }

                            @Override
                            public NtStatus initializeFastRegister(int count, boolean remote, RequestCompletion c, Object ctx) {
                                return settle(inner.initializeFastRegister(count, remote, counted(c), ctx));
                            }

                            @Override
                            public NtStatus close(CloseCompletion completion, Object ctx) {
                                if (pending.get() <= 0) {
                                    return inner.close(completion, ctx);
                                }
                                NtStatus r = inner.close(x -> { }, ctx);
                                EARLY.execute(() -> completion.complete(ctx));
                                if (NtStatus.STATUS_SUCCESS.equals(r)) {
                                    return NtStatus.STATUS_PENDING;
                                }
                                return r;
                            }
                        };
                    }
                })).build(), java.util.Map.of("completion", "pending")));
        out.add(fault("fault:CL-5/close-leaves-requests", "closing a QP leaves its pending receives and sends without a completion")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    final Set<Object> orphans = ConcurrentHashMap.newKeySet();

                    @Override
                    NdkQp qp(NdkQp inner, SectionWrap.Pd pd, NdkCq rq, NdkCq iq) {
                        Set<Object> mine = ConcurrentHashMap.newKeySet();
                        return new SectionWrap.Qp(this, inner, pd) {
                            @Override
                            public NtStatus receive(Object ctx, NdkSge[] sgl) {
                                mine.add(ctx);
                                return inner.receive(ctx, sgl);
                            }

                            @Override
                            public NtStatus send(Object ctx, NdkSge[] sgl, int flags) {
                                mine.add(ctx);
                                return inner.send(ctx, sgl, flags);
                            }

                            @Override
                            public NtStatus close(CloseCompletion completion, Object ctx) {
                                orphans.addAll(mine);
                                return inner.close(completion, ctx);
                            }
                        };
                    }

                    @Override
                    NdkCq cq(NdkCq inner) {
                        return new FilteringCq(this, inner, e -> !(orphans.contains(e.requestContext()) && NtStatus.STATUS_CANCELLED.equals(e.status())));
                    }
                })).build());
        out.add(fault("fault:CL-6/success-with-children", "closing a PD with live MRs or QPs returns STATUS_SUCCESS at once")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkPd pd(NdkPd inner) {
                        return new SectionWrap.Pd(this, inner) {
                            @Override
                            public NtStatus close(CloseCompletion completion, Object ctx) {
                                NtStatus r = inner.close(x -> { }, ctx);
                                return r.isPending() ? NtStatus.STATUS_SUCCESS : r;
                            }
                        };
                    }
                })).build());
    }

    // ------------------------------------------------------------------ NDK_ADAPTER_INFO

    private static void adapterInfo(List<NdkProvider> out) {
        out.add(fault("fault:AI-1/frmr-8", "NDK_ADAPTER_INFO reports FRMRPageCount 8")
                .decorateAdapters(SectionWrap.decorator(() -> new SectionWrap.Hooks() {
                    @Override
                    NdkAdapter adapter(NdkAdapter inner) {
                        return new SectionWrap.Adapter(this, inner) {
                            @Override
                            public NdkAdapterInfo queryAdapterInfo() {
                                NdkAdapterInfo i = inner.queryAdapterInfo();
                                return new NdkAdapterInfo(i.version(), i.adapterFlags(), 8, i.maxRegistrationSize(), i.maxWindowSize(),
                                        i.maxInitiatorRequestSge(), i.maxReceiveRequestSge(), i.maxReadRequestSge(), i.maxTransferLength(),
                                        i.maxInlineDataSize(), i.maxInboundReadLimit(), i.maxOutboundReadLimit(), i.maxReceiveQueueDepth(),
                                        i.maxInitiatorQueueDepth(), i.maxCqDepth());
                            }
                        };
                    }
                })).build());
    }
}
