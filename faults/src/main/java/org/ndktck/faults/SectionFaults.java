package org.ndktck.faults;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.reference.RetireEvent;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.TokenOwner;
import org.ndktck.reference.TokenPurpose;
import org.ndktck.reference.WorkRequestType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.Mdl;
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
}
