package org.ndktck.faults;

import org.ndktck.reference.Pieces;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.reference.RetireEvent;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.TokenOwner;
import org.ndktck.reference.TokenPurpose;
import org.ndktck.reference.WorkRequestType;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Faulty providers for the rules of the catalog sections after the three seed pages: deregistration,
 * fast-register initialization, tokens, privileged token, SGEs, LAMs, invalidation, posting, read and
 * write, flush, CQ results, DEFER, close ({@link CloseFaults}) and adapter information, plus MR-REG-3 and
 * LAM-5. Each is the reference provider with one piece replaced ({@link Pieces}) or its SPI objects wrapped with one
 * {@link Hooks} changed, named {@code fault:RULE-ID/variant} after the rule the kit must FAIL for it.
 */
public final class SectionFaults implements NdkProviderSource {

    private static ReferenceProvider.Builder fault(String name, String description) {
        return ReferenceProvider.builder().name(name).description(description);
    }

    static NdkProvider wrapped(String name, String description, Supplier<? extends Hooks> hooks) {
        return Variants.wrapped(name, description, hooks);
    }

    static boolean ok(NtStatus s) {
        return NtStatus.STATUS_SUCCESS.equals(s);
    }

    /** @return {@code status}, after {@code action} ran if it is STATUS_SUCCESS */
    static NtStatus onSuccess(NtStatus status, Runnable action) {
        if (ok(status)) {
            action.run();
        }
        return status;
    }

    /** @return a work request's status: STATUS_SUCCESS without posting it when {@code drop}, else what posting it gives */
    private static NtStatus dropIf(boolean drop, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
        return drop ? NtStatus.STATUS_SUCCESS : inner.apply(w);
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
        CloseFaults.close(out);
        adapterInfo(out);
        return out;
    }

    // ------------------------------------------------------------------ NdkDeregisterMr

    private static void deregistration(List<NdkProvider> out) {
        out.add(wrapped("fault:MR-DEREG-2/refuses", "NdkDeregisterMr of a registered MR fails with STATUS_INVALID_DEVICE_STATE",
                () -> new Hooks() {
                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        return call == NdkCall.DEREGISTER_MR ? INVALID_DEVICE_STATE : inner.invoke(c, ctx);
                    }
                }));
        out.add(fault("fault:MR-DEREG-3/token-kept", "a deregistered region's token still grants remote and local access")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.DEREGISTER).build());
    }

    // ------------------------------------------------------------------ NdkInitializeFastRegisterMr

    /** STATUS_INVALID_DEVICE_STATE, 0xC0000184: the error the wrapped faults report. */
    static final NtStatus INVALID_DEVICE_STATE = NtStatus.of(0xC0000184);

    /** An informational status (0x40000000) where STATUS_SUCCESS belongs. */
    static final NtStatus INFORMATIONAL = NtStatus.of(0x40000000);

    private static NtStatus informational(NtStatus s) {
        return ok(s) ? INFORMATIONAL : s;
    }

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
        out.add(wrapped("fault:MR-FRI-6/not-reentrant", "an initialization made while another one runs fails with STATUS_INVALID_DEVICE_STATE",
                () -> new Hooks() {
                    final AtomicInteger running = new AtomicInteger();

                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        if (call != NdkCall.INITIALIZE_FAST_REGISTER_MR) {
                            return inner.invoke(c, ctx);
                        }
                        if (running.incrementAndGet() > 1) {
                            running.decrementAndGet();
                            return INVALID_DEVICE_STATE;
                        }
                        try {
                            LockSupport.parkNanos(2_000_000L);
                            return inner.invoke(c, ctx);
                        } finally {
                            running.decrementAndGet();
                        }
                    }
                }));
        out.add(wrapped("fault:MR-FRI-7/first-fast-register-refused",
                "the first NdkFastRegister after an initialization fails inline with STATUS_INVALID_DEVICE_STATE", () -> new Hooks() {
                    final Set<Object> fresh = ConcurrentHashMap.newKeySet();

                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        if (call != NdkCall.INITIALIZE_FAST_REGISTER_MR) {
                            return inner.invoke(c, ctx);
                        }
                        return Hooks.mapStatus(inner, c, ctx, st -> onSuccess(st, () -> fresh.add(target)));
                    }

                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        return w.call() == NdkCall.FAST_REGISTER && fresh.remove(w.mr()) ? INVALID_DEVICE_STATE : inner.apply(w);
                    }
                }));
        out.add(wrapped("fault:MR-FRI-8/informational-status",
                "NdkInitializeFastRegisterMr ends in the informational status 0x40000000 instead of STATUS_SUCCESS", () -> new Hooks() {
                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        return call == NdkCall.INITIALIZE_FAST_REGISTER_MR ? Hooks.mapStatus(inner, c, ctx, SectionFaults::informational)
                                : inner.invoke(c, ctx);
                    }
                }));
    }

    // ------------------------------------------------------------------ tokens

    private static void tokens(List<NdkProvider> out) {
        out.add(wrapped("fault:MR-TOK-1/token-late",
                "the first remote token read after a registration or initialization completes is not yet the new one", () -> new Hooks() {
                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        if (call != NdkCall.REGISTER_MR && call != NdkCall.INITIALIZE_FAST_REGISTER_MR) {
                            return inner.invoke(c, ctx);
                        }
                        AtomicInteger stale = ((ForwardingMr) target).state(AtomicInteger::new);
                        return Hooks.mapStatus(inner, c, ctx, st -> onSuccess(st, () -> stale.set(1)));
                    }

                    @Override
                    public int token(NdkCall call, ForwardingMr mr, int token) {
                        return call == NdkCall.GET_REMOTE_TOKEN && mr.state(AtomicInteger::new).getAndSet(0) == 1 ? token ^ 0x00A50001 : token;
                    }
                }));
        out.add(wrapped("fault:MR-TOK-2/wrong-local-token", "NdkGetLocalTokenFromMr returns a token that names nothing", () -> new Hooks() {
            @Override
            public int token(NdkCall call, ForwardingMr mr, int token) {
                return call == NdkCall.GET_LOCAL_TOKEN ? token ^ 0x5A000000 : token;
            }
        }));
        out.add(wrapped("fault:MR-TOK-5/changes-on-reread", "alias of fault:MR-TOK-5/token-changes-between-reads: every second read "
                + "of an MR's remote token gives another value", Misbehaviours.TokenChangesBetweenReads::new));
        out.add(fault("fault:MR-TOK-6/shared-token", "every registration gets the same token 0x1234")
                .replace(Pieces.TOKEN_ALLOCATOR, seed -> request -> request.purpose() == TokenPurpose.PRIVILEGED ? 1 : 0x1234).build());
    }

    // ------------------------------------------------------------------ privileged token

    private static void privileged(List<NdkProvider> out) {
        out.add(fault("fault:PRIV-1/privileged-refused", "an SGE with the privileged token is refused (STATUS_ACCESS_VIOLATION)")
                .replace(Pieces.SGE_1, r -> r.owner() == TokenOwner.PRIVILEGED ? NtStatus.STATUS_ACCESS_VIOLATION : NtStatus.STATUS_SUCCESS)
                .build());
        out.add(wrapped("fault:PRIV-2/pd-wide-key",
                "the privileged token used as a remote token reaches the PD's latest registered region", () -> new Hooks() {
                    /** The remote token of each PD's latest registration, by the PD's privileged token. */
                    final Map<Integer, Integer> latestByPrivileged = new ConcurrentHashMap<>();

                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        if (call != NdkCall.REGISTER_MR) {
                            return inner.invoke(c, ctx);
                        }
                        ForwardingMr mr = (ForwardingMr) target;
                        return Hooks.mapStatus(inner, c, ctx, st -> onSuccess(st, () -> latestByPrivileged.put(
                                mr.pd().inner().getPrivilegedMemoryRegionToken(), mr.inner().getRemoteToken())));
                    }

                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        Integer latest = w.isReadOrWrite() ? latestByPrivileged.get(w.remoteToken()) : null;
                        return inner.apply(latest == null || latest == 0 ? w : w.withRemoteToken(latest));
                    }
                }));
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
        out.add(wrapped("fault:SGE-3/token-checked", "an INLINE send whose SGE token is 0 or 0xFFFFFFFF fails with STATUS_INVALID_PARAMETER",
                () -> inlineTokenChecked(NdkCall.SEND)));
        out.add(wrapped("fault:SGE-3/inline-write-token-checked", "an INLINE NdkWrite whose SGE token is 0 or 0xFFFFFFFF fails with "
                + "STATUS_INVALID_PARAMETER (inline sends are handled right)", () -> inlineTokenChecked(NdkCall.WRITE)));
        out.add(wrapped("fault:SGE-3/inline-first-page-only", "an INLINE send gathers each SGE only up to the end of the page it "
                + "starts in, so inline bytes that cross a page boundary are cut short", () -> new Hooks() {
                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        if (w.call() != NdkCall.SEND || (w.flags() & NdkOpFlags.INLINE) == 0) {
                            return inner.apply(w);
                        }
                        long p = qp.adapter.pageSize();
                        NdkSge[] cut = new NdkSge[w.sgl().length];
                        for (int i = 0; i < cut.length; i++) {
                            NdkSge sge = w.sgl()[i];
                            long toPageEnd = p - Long.remainderUnsigned(sge.address(), p);
                            cut[i] = new NdkSge(sge.address(), (int) Math.min(sge.unsignedLength(), toPageEnd), sge.memoryRegionToken());
                        }
                        return inner.apply(w.withSgl(cut));
                    }
                }));
        out.add(wrapped("fault:SGE-3/inline-first-sge-only", "an INLINE send gathers its first SGE only; the bytes of the others are never sent",
                () -> new Hooks() {
                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        if (w.call() != NdkCall.SEND || (w.flags() & NdkOpFlags.INLINE) == 0 || w.sgl().length < 2) {
                            return inner.apply(w);
                        }
                        return inner.apply(w.withSgl(new NdkSge[]{w.sgl()[0]}));
                    }
                }));
    }

    /** Hooks that fail an INLINE request of {@code call} inline when an SGE token is 0 or 0xFFFFFFFF (SGE-3 broken). */
    private static Hooks inlineTokenChecked(NdkCall call) {
        return new Hooks() {
            @Override
            public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                if (w.call() == call && (w.flags() & NdkOpFlags.INLINE) != 0) {
                    for (NdkSge sge : w.sgl()) {
                        if (sge.memoryRegionToken() == 0 || sge.memoryRegionToken() == -1) {
                            return NtStatus.STATUS_INVALID_PARAMETER;
                        }
                    }
                }
                return inner.apply(w);
            }
        };
    }

    // ------------------------------------------------------------------ LAMs and MDL addresses

    private static void lams(List<NdkProvider> out) {
        out.add(wrapped("fault:MR-REG-3/dereferences-va", "NdkRegisterMr reaches memory through the MDL's virtual address "
                + "(the same fault as fault:MR-REG-3/va-as-page-frames)", () -> new CatalogueGaps.VaAsPageFrames(NdkCall.REGISTER_MR)));
        out.add(wrapped("fault:LAM-5/dereferences-va", "NdkBuildLam maps the pages the MDL's virtual address names as physical",
                () -> new CatalogueGaps.VaAsPageFrames(NdkCall.BUILD_LAM)));
        out.add(fault("fault:LAM-2/gaps-accepted", "NdkBuildLam maps a chain that is not virtually contiguous")
                .replace(Pieces.LAM_2, RuleCheck.pass()).build());
        out.add(fault("fault:LAM-3/truncates", "NdkBuildLam succeeds with a buffer too small for the mapping")
                .replace(Pieces.LAM_3, RuleCheck.pass()).build());
        out.add(wrapped("fault:LAM-3/size-not-returned", "STATUS_BUFFER_TOO_SMALL leaves *pLAMSize at the size offered", () -> new Hooks() {
            @Override
            public NtStatus buildLam(ForwardingAdapter a, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion c, Object ctx,
                                     RequestCall inner) {
                int offered = lam.lamSize();
                return Hooks.mapStatus(inner, c, ctx, st -> {
                    if (NtStatus.STATUS_BUFFER_TOO_SMALL.equals(st)) {
                        lam.setLamSize(offered);
                    }
                    return st;
                });
            }
        }));
        out.add(wrapped("fault:LAM-4/fbo-zero", "NdkBuildLam reports *pFBO 0 whatever the chain's offset", () -> new Hooks() {
            @Override
            public NtStatus buildLam(ForwardingAdapter a, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion c, Object ctx,
                                     RequestCall inner) {
                return Hooks.mapStatus(inner, c, ctx, st -> onSuccess(st, () -> lam.setFbo(0)));
            }
        }));
        out.add(wrapped("fault:LAM-7/informational-status", "NdkBuildLam ends in the informational status 0x40000000 instead of STATUS_SUCCESS",
                () -> new Hooks() {
                    @Override
                    public NtStatus buildLam(ForwardingAdapter a, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion c, Object ctx,
                                             RequestCall inner) {
                        return Hooks.mapStatus(inner, c, ctx, SectionFaults::informational);
                    }
                }));
        out.add(wrapped("fault:LAM-REL-1/rewrites-next", "NdkReleaseLam rewrites Next of the chain's first MDL (to the same value)",
                () -> new Hooks() {
                    final Map<NdkLogicalAddressMapping, Mdl> chains = new ConcurrentHashMap<>();

                    @Override
                    public NtStatus buildLam(ForwardingAdapter a, Mdl mdl, NdkLogicalAddressMapping lam, RequestCompletion c, Object ctx,
                                             RequestCall inner) {
                        chains.put(lam, mdl);
                        return inner.invoke(c, ctx);
                    }

                    @Override
                    public void releaseLam(NdkLogicalAddressMapping lam, Runnable inner) {
                        inner.run();
                        Mdl m = chains.remove(lam);
                        if (m != null) {
                            m.setNext(m.next());
                        }
                    }
                }));
    }

    // ------------------------------------------------------------------ CQ entries

    /** Hooks whose CQs hand out {@code map(entry)} of each entry, or drop it where the map gives null. */
    private static Supplier<Hooks> entries(Function<NdkResultEx, NdkResultEx> map) {
        return () -> new Hooks() {
            @Override
            public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
                return Hooks.mapResults(results, inner, map);
            }
        };
    }

    private static NdkResultEx with(NdkResultEx e, Object qpContext, Object requestContext, NdkOperationType type, long typeSpecific) {
        return new NdkResultEx(e.status(), e.bytesTransferred(), qpContext, requestContext, type, typeSpecific);
    }

    // ------------------------------------------------------------------ NdkInvalidate

    private static void invalidation(List<NdkProvider> out) {
        out.add(fault("fault:INV-2/unconnected-accepted", "NdkInvalidate on a QP that was never connected is accepted")
                .replace(Pieces.INV_2, RuleCheck.pass()).build());
        out.add(wrapped("fault:INV-3/entry-lost", "the CQ entry of a successful NdkInvalidate is never delivered",
                entries(e -> e.type() == NdkOperationType.INVALIDATE ? null : e)));
        out.add(fault("fault:INV-4/token-kept", "an invalidated fast registration's token still grants access")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.INVALIDATE).build());
        out.add(fault("fault:INV-5/token-kept", "a token named by a peer's NdkSendAndInvalidate stays valid")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.REMOTE_INVALIDATE).build());
    }

    // ------------------------------------------------------------------ NdkRead, NdkWrite

    private static boolean fastRegisterReadOrWrite(WorkRequest w) {
        return w.call() == NdkCall.FAST_REGISTER || w.isReadOrWrite();
    }

    private static void readWrite(List<NdkProvider> out) {
        out.add(fault("fault:RW-2/unconnected-accepted", "NdkRead and NdkWrite on a QP that was never connected are accepted (and fail on the CQ)")
                .replace(Pieces.RW_2, RuleCheck.pass()).build());
        out.add(fault("fault:RW-3/read-past-end", "a read is checked against the region's page frames, not its Length")
                .replace(Pieces.MR_REG_4, r -> r.type() == WorkRequestType.READ ? NtStatus.STATUS_SUCCESS : Pieces.MR_REG_4.standard().check(r))
                .build());
        out.add(fault("fault:RW-4/sink-kept", "a read with RDMA_READ_LOCAL_INVALIDATE leaves the sink's token valid")
                .replace(Pieces.TOKEN_RETIREMENT, event -> event != RetireEvent.READ_LOCAL_INVALIDATE).build());
        out.add(wrapped("fault:RW-5/silent-ignored", "NDK_OP_FLAG_SILENT_SUCCESS is ignored: successful requests still produce entries",
                () -> new Hooks() {
                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        return inner.apply(fastRegisterReadOrWrite(w) ? w.withFlags(w.flags() & ~NdkOpFlags.SILENT_SUCCESS) : w);
                    }
                }));
        out.add(wrapped("fault:RW-5/silent-failure-lost", "a request with SILENT_SUCCESS that fails produces no CQ entry", () -> new Hooks() {
            final Set<Object> silent = ConcurrentHashMap.newKeySet();

            @Override
            public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                if (w.isReadOrWrite() && (w.flags() & NdkOpFlags.SILENT_SUCCESS) != 0 && w.context() != null) {
                    silent.add(w.context());
                }
                return inner.apply(w);
            }

            @Override
            public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
                return Hooks.mapResults(results, inner, e -> silent.contains(e.requestContext()) && !ok(e.status()) ? null : e);
            }
        }));
    }

    // ------------------------------------------------------------------ NdkFlush, posting

    private static void flushAndPosting(List<NdkProvider> out) {
        out.add(wrapped("fault:FL-1/flush-ignored", "NdkFlush does nothing", () -> new Hooks() {
            @Override
            public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
                return call == NdkCall.FLUSH ? null : body.get();
            }
        }));
        out.add(wrapped("fault:FL-1/cancelled-as-success", "flushed receives complete with STATUS_SUCCESS instead of STATUS_CANCELLED",
                entries(e -> e.type() == NdkOperationType.RECEIVE && NtStatus.STATUS_CANCELLED.equals(e.status())
                        ? new NdkResultEx(NtStatus.STATUS_SUCCESS, 0, e.qpContext(), e.requestContext(), e.type(), 0) : e)));
        out.add(wrapped("fault:WRP-2/posts-lost-after-flush", "requests posted on a QP after NdkFlush return STATUS_SUCCESS and never complete",
                () -> new Hooks() {
                    @Override
                    public <T> T call(NdkCall call, NdkObject target, Supplier<T> body) {
                        T r = body.get();
                        if (call == NdkCall.FLUSH) {
                            ((ForwardingQp) target).state(AtomicBoolean::new).set(true);
                        }
                        return r;
                    }

                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        boolean lost = w.call() == NdkCall.FAST_REGISTER || w.call() == NdkCall.INVALIDATE || w.call() == NdkCall.WRITE;
                        return dropIf(lost && qp.state(AtomicBoolean::new).get(), w, inner);
                    }
                }));
    }

    // ------------------------------------------------------------------ CQ results

    private static void cqs(List<NdkProvider> out) {
        out.add(wrapped("fault:CQ-1/count-beyond-array",
                "when more entries are waiting than the array holds, the result calls return the number waiting (the extra entries are lost)",
                () -> new Hooks() {
                    @Override
                    public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
                        int n = inner.applyAsInt(results);
                        return n == results.length ? n + inner.applyAsInt(new NdkResultEx[64]) : n;
                    }
                }));
        out.add(wrapped("fault:CQ-2/qp-context-null", "CQ entries carry a null QPContext",
                entries(e -> with(e, null, e.requestContext(), e.type(), e.typeSpecificCompletionOutput()))));
        out.add(wrapped("fault:CQ-2/foreign-request-context", "CQ entries carry a copy of the RequestContext, not the consumer's own value",
                entries(e -> with(e, e.qpContext(), String.valueOf(e.requestContext()), e.type(), e.typeSpecificCompletionOutput()))));
        out.add(wrapped("fault:CQ-3/read-as-write", "NDK_RESULT_EX.Type of an NdkRead says NdkOperationTypeWrite",
                entries(e -> e.type() == NdkOperationType.READ ? with(e, e.qpContext(), e.requestContext(), NdkOperationType.WRITE, 0) : e)));
        out.add(wrapped("fault:CQ-3/invalidated-token-missing", "a ReceiveAndInvalidate entry carries 0 instead of the invalidated token",
                entries(e -> e.type() == NdkOperationType.RECEIVE_AND_INVALIDATE ? with(e, e.qpContext(), e.requestContext(), e.type(), 0) : e)));
    }

    // ------------------------------------------------------------------ DEFER

    private static void defer(List<NdkProvider> out) {
        out.add(wrapped("fault:DEF-2/entry-after-inline-failure", "a request refused inline still gets a CQ entry with its error status "
                + "(NdkFastRegister, NdkInvalidate, NdkRead and NdkWrite; fault:DEF-2/cq-entry-after-inline-failure does it for every request)",
                () -> new Misbehaviours.CqEntryAfterInlineFailure(Set.of(NdkCall.FAST_REGISTER, NdkCall.INVALIDATE, NdkCall.READ, NdkCall.WRITE))));
        out.add(wrapped("fault:DEF-3/deferred-dropped", "requests with NDK_OP_FLAG_DEFER are accepted and never processed", () -> new Hooks() {
            @Override
            public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                return dropIf(fastRegisterReadOrWrite(w) && (w.flags() & NdkOpFlags.DEFER) != 0, w, inner);
            }
        }));
        out.add(wrapped("fault:DEF-4/held-after-inline-failure",
                "DEFER fast registrations are held until the next request without DEFER, even when a request fails inline in between",
                () -> new Hooks() {
                    @Override
                    public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
                        List<Runnable> held = qp.state(ArrayList::new);
                        if (w.call() == NdkCall.FAST_REGISTER && (w.flags() & NdkOpFlags.DEFER) != 0) {
                            if ((w.flags() & 0x28) != 0 && w.mr() instanceof ForwardingMr m && Boolean.FALSE.equals(m.remoteAccess())) {
                                return NtStatus.STATUS_ACCESS_VIOLATION;
                            }
                            synchronized (held) {
                                held.add(() -> inner.apply(w.withFlags(w.flags() & ~NdkOpFlags.DEFER)));
                            }
                            return NtStatus.STATUS_SUCCESS;
                        }
                        if (w.call() != NdkCall.RECEIVE && w.call() != NdkCall.SEND_AND_INVALIDATE) {
                            List<Runnable> now;
                            synchronized (held) {
                                now = new ArrayList<>(held);
                                held.clear();
                            }
                            now.forEach(Runnable::run);
                        }
                        return inner.apply(w);
                    }
                }));
    }


    // ------------------------------------------------------------------ NDK_ADAPTER_INFO

    private static void adapterInfo(List<NdkProvider> out) {
        out.add(wrapped("fault:AI-1/frmr-8", "NDK_ADAPTER_INFO reports FRMRPageCount 8", () -> new Hooks() {
            @Override
            public NdkAdapterInfo adapterInfo(NdkAdapterInfo i) {
                return new NdkAdapterInfo(i.version(), i.adapterFlags(), 8, i.maxRegistrationSize(), i.maxWindowSize(),
                        i.maxInitiatorRequestSge(), i.maxReceiveRequestSge(), i.maxReadRequestSge(), i.maxTransferLength(),
                        i.maxInlineDataSize(), i.maxInboundReadLimit(), i.maxOutboundReadLimit(), i.maxReceiveQueueDepth(),
                        i.maxInitiatorQueueDepth(), i.maxCqDepth());
            }
        }));
    }
}
