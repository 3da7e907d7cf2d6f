package org.ndktck.faults;

import org.ndktck.reference.Access;
import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.reference.RegionView;
import org.ndktck.reference.RegisterMrRequest;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.StandardChecks;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

/**
 * The faults of the seed pages (NdkCreateMr, NdkRegisterMr, NdkFastRegister) and the general rules: each
 * provider {@code fault:RULE-ID[/variant]} is the reference provider with one behaviour broken, and the
 * kit must fail exactly that rule on it (docs/ARCHITECTURE.md, "Fault catalogue naming").
 *
 * <p>Validation and data-path faults replace a piece of the reference model
 * ({@link ReferenceProvider.Builder#replace}); completion, callback, object and CQ faults wrap the
 * reference's SPI objects ({@link Hooks}). Four names are aliases of a fault of {@link Misbehaviours} (their
 * descriptions say so): {@code fault:GEN-CB-1/never}, {@code fault:GEN-CB-2}, {@code fault:GEN-CB-4},
 * {@code fault:OBJ-1}.
 */
public final class SeedPageFaults implements NdkProviderSource {

    private static final NtStatus STATUS_NOT_SUPPORTED = NtStatus.of(0xC00000BB);

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        // ------------------------------------------------------------ general asynchronous rules
        out.add(wrapped("fault:GEN-CB-1", "NdkRegisterMr returns STATUS_PENDING and calls its completion twice",
                () -> new PendingRegister(2, false)));
        out.add(wrapped("fault:GEN-CB-1/never", "alias of fault:GEN-CB-1/pending-never-completes: NdkRegisterMr returns "
                + "STATUS_PENDING and never calls its completion", Misbehaviours.PendingNeverCompletes::new));
        out.add(wrapped("fault:GEN-CB-1/foreign-context", "NdkRegisterMr pends and completes with a context of its own",
                () -> new PendingRegister(1, true)));
        out.add(wrapped("fault:GEN-CB-2", "alias of fault:GEN-CB-2/after-inline-return: MR requests return their final status "
                + "inline and then call the completion anyway", Misbehaviours.AfterInlineReturn::new));
        out.add(wrapped("fault:GEN-CB-3", "NdkCreateMr returns STATUS_PENDING with the MR already in the out parameter",
                PendingCreateWritesOut::new));
        out.add(wrapped("fault:GEN-CB-4", "alias of fault:GEN-CB-4/success-without-object: NdkCreateMr returns STATUS_SUCCESS "
                + "with no MR", Misbehaviours.SuccessWithoutObject::new));
        out.add(wrapped("fault:GEN-CB-4/callback-after-success", "NdkCreateMr returns the MR inline and also calls the completion",
                CreateCallbackAfterSuccess::new));
        out.add(withDefaults(wrapped("fault:GEN-CB-5", "a create that fails with STATUS_INSUFFICIENT_RESOURCES leaks, so the adapter "
                + "never recovers (default maxObjects=16, so the kit reaches exhaustion)", LeakOnInsufficientResources::new),
                Map.of("maxObjects", "16")));
        out.add(wrapped("fault:GEN-LIFE-1", "the completion path of NdkInitializeFastRegisterMr and NdkRegisterMr uses the MR after the "
                + "completion returned (a closed MR makes the provider thread die)", UseAfterCompletion::new));
        out.add(wrapped("fault:GEN-LIFE-1/deadlock", "the provider holds a lock while it calls the completion; NdkCloseMr takes the same lock",
                DeadlockOnCloseFromCompletion::new));
        out.add(wrapped("fault:GEN-TIME-1", "NdkDeregisterMr never returns", DeregisterBlocks::new));
        out.add(wrapped("fault:GEN-EXC-1", "NdkRegisterMr throws ArithmeticException for a Length above 2^31 - 1 (Math.toIntExact)",
                () -> new Hooks() {
                    @Override
                    public NtStatus request(NdkCall call, NdkObject target, RequestCompletion c, Object ctx, RequestCall inner) {
                        if (call == NdkCall.REGISTER_MR) {
                            Math.toIntExact(((ForwardingMr) target).length());
                        }
                        return inner.invoke(c, ctx);
                    }
                }));
        out.add(wrapped("fault:GEN-EXC-1/completion-path", "the completion path of NdkRegisterMr throws after calling the completion",
                ThrowAfterCompletion::new));
        // ------------------------------------------------------------ NDK_MR object, NdkCreateMr
        out.add(wrapped("fault:OBJ-1", "alias of fault:OBJ-1/wrong-object-type: an MR's header says NdkObjectTypePd",
                Misbehaviours.WrongObjectType::new));
        out.add(wrapped("fault:OBJ-2", "an MR's header version is 2.0 on an NDKPI 1.2 adapter", () -> new Hooks() {
            @Override
            public NdkObjectHeader header(NdkObject object, NdkObjectHeader header) {
                return object instanceof ForwardingMr ? new NdkObjectHeader(new NdkVersion(2, 0), header.objectType()) : header;
            }
        }));
        out.add(wrapped("fault:OBJ-2/adapter-header-version", "the adapter's own header version is 2.0 on an NDKPI 1.2 adapter",
                () -> new Hooks() {
                    @Override
                    public NdkObjectHeader header(NdkObject object, NdkObjectHeader header) {
                        return object instanceof ForwardingAdapter ? new NdkObjectHeader(new NdkVersion(2, 0), header.objectType()) : header;
                    }
                }));
        out.add(wrapped("fault:MR-CREATE-2", "NdkCreateMr(FastRegister=TRUE) fails with STATUS_NOT_SUPPORTED", () -> new Hooks() {
            @Override
            public CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx,
                                                CreateCall<NdkMr> inner) {
                return fastRegister ? CreateResult.failed(STATUS_NOT_SUPPORTED) : inner.invoke(c, ctx);
            }
        }));
        // ------------------------------------------------------------ NdkRegisterMr
        out.add(piece("fault:MR-REG-2", "an MDL chain that is not virtually contiguous is accepted")
                .replace(Pieces.MR_REG_2, RuleCheck.<RegisterMrRequest>pass()).build());
        out.add(piece("fault:MR-REG-2/chain-size", "contiguity is checked over the whole chain, not over Length, so a chain broken after "
                + "Length is rejected").replace(Pieces.MR_REG_2, (RuleCheck<RegisterMrRequest>) r -> wholeChainContiguous(r.mdl())
                ? StandardChecks.registerChainContiguous(r) : STATUS_INVALID_PARAMETER).build());
        out.add(wrapped("fault:MR-REG-4", "remote addresses into NdkRegisterMr regions are also taken as offsets (zero-based addressing)",
                () -> new ZeroBased(false)));
        out.add(piece("fault:MR-REG-4/whole-pages", "access to NdkRegisterMr regions is granted by whole pages, not byte-exact bounds")
                .replace(Pieces.BOUNDS, (region, address, length) -> region.fastRegistered()
                        ? StandardChecks.byteExactBounds(region, address, length) : wholePages(region, address, length)).build());
        out.add(piece("fault:MR-REG-4/chain-size", "a registration covers the whole MDL chain, not Length")
                .replace(Pieces.EXTENT, (length, chain) -> chain).build());
        out.add(piece("fault:MR-REG-7", "NDK_MR_FLAG_RDMA_READ_SINK makes NdkRegisterMr fail")
                .replace(Pieces.MR_REG_7, (RuleCheck<RegisterMrRequest>) r -> (r.flags() & 0x8) != 0 ? STATUS_INVALID_PARAMETER : STATUS_SUCCESS)
                .build());
        out.add(piece("fault:MR-REG-8", "NDK_MR_FLAG_ALLOW_LOCAL_WRITE also grants remote write")
                .replace(Pieces.MR_ACCESS_FLAGS, f -> StandardChecks.mrFlagsToAccess(f) | ((f & 0x1) != 0 ? Access.REMOTE_WRITE : 0)).build());
        out.add(piece("fault:MR-REG-9", "a non-contiguous chain is refused with the warning STATUS_BUFFER_OVERFLOW (0x80000005), not an error")
                .replace(Pieces.MR_REG_2, (RuleCheck<RegisterMrRequest>) r -> StandardChecks.registerChainContiguous(r).equals(STATUS_SUCCESS)
                        ? STATUS_SUCCESS : NtStatus.STATUS_BUFFER_OVERFLOW).build());
        out.add(withDefaults(piece("fault:MR-REG-10", "a registration of exactly MaxRegistrationSize bytes is refused (off by one; "
                + "default maxRegistrationSize=0x100000, so the kit reaches the limit)")
                .replace(Pieces.MR_REG_10, (RuleCheck<RegisterMrRequest>) r ->
                        Long.compareUnsigned(r.length(), r.adapter().settings().maxRegistrationSize()) < 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER)
                .build(), Map.of("maxRegistrationSize", "0x100000")));
        out.add(piece("fault:MR-REG-11", "Length 0 is accepted and means \"no bounds\": the whole chain is reachable")
                .replace(Pieces.MR_REG_11, RuleCheck.<RegisterMrRequest>pass())
                .replace(Pieces.EXTENT, (length, chain) -> length == 0 ? chain : length).build());
        out.add(piece("fault:MR-REG-12", "a registration whose end wraps past 2^64 is accepted")
                .replace(Pieces.MR_REG_12, RuleCheck.<RegisterMrRequest>pass()).build());
        out.add(piece("fault:MR-REG-13", "Length above the chain's ByteCount is accepted")
                .replace(Pieces.MR_REG_13, RuleCheck.<RegisterMrRequest>pass()).build());
        out.add(piece("fault:MR-REG-14", "the undefined flag bit 0x4 alone grants remote write")
                .replace(Pieces.MR_REG_14, RuleCheck.<RegisterMrRequest>pass())
                .replace(Pieces.MR_ACCESS_FLAGS, f -> StandardChecks.mrFlagsToAccess(f) | ((f & 0x4) != 0 ? Access.REMOTE_WRITE | Access.LOCAL_WRITE : 0))
                .build());
        // ------------------------------------------------------------ NdkFastRegister
        out.add(piece("fault:MR-FR-3", "the page count comes from Length alone, ignoring FBO")
                .replace(Pieces.MR_FR_3, (RuleCheck<FastRegisterRequest>) r -> {
                    long p = r.adapter().pageSize();
                    long pagesNeeded = Long.divideUnsigned(r.length(), p) + (Long.remainderUnsigned(r.length(), p) == 0 ? 0 : 1);
                    return Long.compareUnsigned(pagesNeeded, r.pageCount()) <= 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
                }).build());
        out.add(piece("fault:MR-FR-3/length-32bit", "Length is compared in 32 bits (its low 32 bits against the limit)")
                .replace(Pieces.MR_FR_3, (RuleCheck<FastRegisterRequest>) r -> {
                    long limit = r.pageCount() * r.adapter().pageSize() - r.unsignedFbo();
                    return Integer.toUnsignedLong((int) r.length()) <= limit ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
                }).build());
        out.add(piece("fault:MR-FR-3/signed", "Length is compared as a signed value, so one with the top bit set passes")
                .replace(Pieces.MR_FR_3, (RuleCheck<FastRegisterRequest>) r -> {
                    long limit = r.pageCount() * r.adapter().pageSize() - r.unsignedFbo();
                    return r.length() <= limit ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
                }).build());
        out.add(piece("fault:MR-FR-4", "BaseVirtualAddress is not tied to FBO")
                .replace(Pieces.MR_FR_4, RuleCheck.<FastRegisterRequest>pass()).build());
        out.add(piece("fault:MR-FR-6", "remote access flags are granted on an MR initialized without remote access")
                .replace(Pieces.MR_FR_6, RuleCheck.<FastRegisterRequest>pass()).build());
        out.add(piece("fault:MR-FR-7", "NdkFastRegister works on a QP that was never connected")
                .replace(Pieces.MR_FR_7, RuleCheck.<FastRegisterRequest>pass()).build());
        out.add(wrapped("fault:MR-FR-8", "the CQ entry of a fast registration says NdkOperationTypeWrite", () -> new Hooks() {
            @Override
            public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
                return Hooks.mapResults(results, inner, e -> e != null && e.type() == NdkOperationType.FAST_REGISTER
                        ? new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(), NdkOperationType.WRITE,
                        e.typeSpecificCompletionOutput()) : e);
            }
        }));
        out.add(wrapped("fault:MR-FR-9", "after NdkFastRegister, NdkGetRemoteTokenFromMr still gives the token read before it",
                StaleRemoteToken::new));
        out.add(wrapped("fault:MR-FR-10", "remote addresses into fast registrations are also taken as offsets (zero-based addressing)",
                () -> new ZeroBased(true)));
        out.add(piece("fault:MR-FR-10/fbo-dropped", "data placement ignores FBO: BaseVirtualAddress + k lands at byte k of the first page")
                .replace(Pieces.FBO_PLACEMENT, (fbo, bva, pageSize) -> 0).build());
        out.add(piece("fault:MR-FR-10/whole-pages", "access to fast registrations is granted by whole pages, not byte-exact bounds")
                .replace(Pieces.BOUNDS, (region, address, length) -> region.fastRegistered()
                        ? wholePages(region, address, length) : StandardChecks.byteExactBounds(region, address, length)).build());
        out.add(piece("fault:MR-FR-11", "NDK_OP_FLAG_RDMA_READ_SINK makes NdkFastRegister fail")
                .replace(Pieces.MR_FR_11, (RuleCheck<FastRegisterRequest>) r -> (r.flags() & 0x80) != 0 ? STATUS_INVALID_PARAMETER : STATUS_SUCCESS)
                .build());
        out.add(piece("fault:MR-FR-12", "every fast registration is writable as a local sink")
                .replace(Pieces.FR_ACCESS_FLAGS, f -> StandardChecks.frFlagsToAccess(f) | Access.LOCAL_WRITE).build());
        out.add(piece("fault:MR-FR-14", "Length 0 is accepted and means \"no bounds\"")
                .replace(Pieces.MR_FR_14, RuleCheck.<FastRegisterRequest>pass())
                .replace(Pieces.BOUNDS, (region, address, length) -> region.length() == 0 || StandardChecks.byteExactBounds(region, address, length))
                .build());
        out.add(piece("fault:MR-FR-15", "a fast registration whose end wraps past 2^64 is accepted")
                .replace(Pieces.MR_FR_15, RuleCheck.<FastRegisterRequest>pass()).build());
        out.add(piece("fault:MR-FR-16", "FBO of PAGE_SIZE or more is taken modulo PAGE_SIZE")
                .replace(Pieces.MR_FR_16, RuleCheck.<FastRegisterRequest>pass())
                .replace(Pieces.MR_FR_4, (RuleCheck<FastRegisterRequest>) r -> {
                    long mask = r.adapter().pageSize() - 1L;
                    return (r.baseVirtualAddress() & mask) == (r.unsignedFbo() & mask) ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
                })
                .replace(Pieces.FBO_PLACEMENT, (fbo, bva, pageSize) -> (int) (Integer.toUnsignedLong(fbo) % pageSize)).build());
        out.add(piece("fault:MR-FR-17", "page addresses are rounded down to PAGE_SIZE instead of being checked")
                // MR-FR-2 (kept) asks only that each entry's page be mapped, not that the entry start it
                .replace(Pieces.MR_FR_17, RuleCheck.<FastRegisterRequest>pass()).build());
        out.add(piece("fault:MR-FR-18", "AdapterPageCount is checked against FRMRPageCount, not the initialized count")
                .replace(Pieces.MR_FR_18, RuleCheck.<FastRegisterRequest>pass()).build());
        out.add(piece("fault:MR-FR-19", "the undefined flag bit 0x20 alone grants remote write")
                .replace(Pieces.MR_FR_19, RuleCheck.<FastRegisterRequest>pass())
                .replace(Pieces.FR_ACCESS_FLAGS, f -> StandardChecks.frFlagsToAccess(f) | ((f & 0x20) != 0 ? Access.REMOTE_WRITE | Access.LOCAL_WRITE : 0))
                .build());
        return out;
    }

    private static ReferenceProvider.Builder piece(String name, String description) {
        return ReferenceProvider.builder().name(name).description(description);
    }

    /** See {@link FaultDefaults#withDefaults}. */
    static NdkProvider withDefaults(NdkProvider provider, Map<String, String> defaults) {
        return FaultDefaults.withDefaults(provider, defaults);
    }

    private static NdkProvider wrapped(String name, String description, Supplier<? extends Hooks> hooks) {
        return Variants.wrapped(name, description, hooks);
    }

    /** {@code bounds} granting whole pages: [page start of base, page end of base + Length). */
    static boolean wholePages(RegionView region, long address, long length) {
        long p = region.pageSize();
        long start = region.base() - region.firstByteOffset();
        long span = region.length() + region.firstByteOffset();
        long pagesBytes = (span + p - 1) / p * p;
        long offset = address - start;
        return Long.compareUnsigned(offset, pagesBytes) < 0 && Long.compareUnsigned(length, pagesBytes - offset) <= 0;
    }

    static boolean wholeChainContiguous(Mdl first) {
        int guard = 0;
        for (Mdl m = first; m != null && m.next() != null && guard < 1_000_000; m = m.next(), guard++) {
            if (m.next().virtualAddress() != m.virtualAddress() + m.unsignedByteCount()) {
                return false;
            }
        }
        return true;
    }

    /** Runs on a fresh daemon thread (so an exception reaches the default uncaught-exception handler). */
    static void later(String name, Runnable r) {
        Thread t = new Thread(r, "fault-" + name);
        t.setDaemon(true);
        t.start();
    }

    // ------------------------------------------------------------------ misbehaviours

    /** NdkRegisterMr returns STATUS_PENDING and calls the completion {@code times} times (optionally with a foreign context). */
    static final class PendingRegister implements Hooks {
        private final int times;
        private final boolean foreignContext;

        PendingRegister(int times, boolean foreignContext) {
            this.times = times;
            this.foreignContext = foreignContext;
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call != NdkCall.REGISTER_MR) {
                return inner.invoke(completion, context);
            }
            NtStatus[] result = new NtStatus[1];
            CountDownLatch done = new CountDownLatch(1);
            NtStatus r = inner.invoke((ctx, st) -> {
                result[0] = st;
                done.countDown();
            }, context);
            if (!r.isPending()) {
                result[0] = r;
                done.countDown();
            }
            later("pending-register", () -> {
                try {
                    done.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < times; i++) {
                    completion.complete(foreignContext ? new Object() : context, result[0]);
                }
            });
            return NtStatus.STATUS_PENDING;
        }
    }

    /** NdkCreateMr: STATUS_PENDING with the MR already written to the out parameter, then the completion. */
    static final class PendingCreateWritesOut implements Hooks {
        @Override
        public CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx,
                                            CreateCall<NdkMr> inner) {
            CreateResult<NdkMr> r = inner.invoke(c, ctx);
            if (r.status().isPending() || r.object() == null) {
                return r;
            }
            NdkMr mr = r.object();
            later("pending-create", () -> c.complete(ctx, STATUS_SUCCESS, mr));
            return new CreateResult<>(NtStatus.STATUS_PENDING, mr);
        }
    }

    /** NdkCreateMr: the MR inline, and the completion too. */
    static final class CreateCallbackAfterSuccess implements Hooks {
        @Override
        public CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx,
                                            CreateCall<NdkMr> inner) {
            CreateResult<NdkMr> r = inner.invoke(c, ctx);
            if (STATUS_SUCCESS.equals(r.status())) {
                NdkMr mr = r.object();
                later("create-callback-after-success", () -> c.complete(ctx, STATUS_SUCCESS, mr));
            }
            return r;
        }
    }

    /** Once an MR create failed with STATUS_INSUFFICIENT_RESOURCES, every later one does too (the failure leaked its slot). */
    static final class LeakOnInsufficientResources implements Hooks {
        private volatile boolean exhausted;

        @Override
        public CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx,
                                            CreateCall<NdkMr> inner) {
            if (exhausted) {
                return CreateResult.failed(NtStatus.STATUS_INSUFFICIENT_RESOURCES);
            }
            CreateResult<NdkMr> r = inner.invoke((x, st, mr) -> {
                if (NtStatus.STATUS_INSUFFICIENT_RESOURCES.equals(st)) {
                    exhausted = true;
                }
                c.complete(x, st, mr);
            }, ctx);
            if (NtStatus.STATUS_INSUFFICIENT_RESOURCES.equals(r.status())) {
                exhausted = true;
            }
            return r;
        }
    }

    /**
     * NdkInitializeFastRegisterMr and NdkRegisterMr pend; after the completion returns, the provider's thread
     * touches the MR (its bookkeeping epilogue): a closed MR makes it throw, as a use after free would crash.
     */
    static final class UseAfterCompletion implements Hooks {
        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            NtStatus r = inner.invoke(completion, context);
            if ((call != NdkCall.REGISTER_MR && call != NdkCall.INITIALIZE_FAST_REGISTER_MR) || r.isPending()) {
                return r;
            }
            ForwardingMr mr = (ForwardingMr) target;
            later("use-after-completion", () -> {
                completion.complete(context, r);
                if (mr.closed()) {
                    throw new IllegalStateException("the provider used MR " + mr + " after its completion, but the consumer had closed it");
                }
            });
            return NtStatus.STATUS_PENDING;
        }
    }

    /** The completion of NdkInitializeFastRegisterMr is called with a lock held that NdkCloseMr also takes (not reentrant). */
    static final class DeadlockOnCloseFromCompletion implements Hooks {
        private final Semaphore lock = new Semaphore(1);

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            NtStatus r = inner.invoke(completion, context);
            if (call != NdkCall.INITIALIZE_FAST_REGISTER_MR || r.isPending()) {
                return r;
            }
            later("deadlock", () -> {
                lock.acquireUninterruptibly();
                try {
                    completion.complete(context, r);
                } finally {
                    lock.release();
                }
            });
            return NtStatus.STATUS_PENDING;
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            if (call != NdkCall.CLOSE_MR) {
                return inner.invoke(completion, context);
            }
            lock.acquireUninterruptibly();
            try {
                return inner.invoke(completion, context);
            } finally {
                lock.release();
            }
        }
    }

    /** NdkDeregisterMr never returns (it waits for an event that never comes, ignoring interrupts). */
    static final class DeregisterBlocks implements Hooks {
        private final CountDownLatch never = new CountDownLatch(1);

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            while (call == NdkCall.DEREGISTER_MR) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    // a kernel wait that ignores alerts
                }
            }
            return inner.invoke(completion, context);
        }
    }

    /** NdkRegisterMr pends; its completion path throws after calling the completion. */
    static final class ThrowAfterCompletion implements Hooks {
        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            NtStatus r = inner.invoke(completion, context);
            if (call != NdkCall.REGISTER_MR || r.isPending()) {
                return r;
            }
            later("throw-after-completion", () -> {
                completion.complete(context, r);
                throw new IllegalStateException("bug in the completion path of NdkRegisterMr");
            });
            return NtStatus.STATUS_PENDING;
        }
    }

    /** Fast-register MRs keep answering NdkGetRemoteTokenFromMr with the first token they gave. */
    static final class StaleRemoteToken implements Hooks {
        private static AtomicReference<Integer> first(ForwardingMr mr) {
            return mr.state(AtomicReference::new);
        }

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (call != NdkCall.GET_REMOTE_TOKEN || !mr.fastRegister()) {
                return token;
            }
            first(mr).compareAndSet(null, token);
            return first(mr).get();
        }

        @Override
        public NtStatus request(NdkCall call, NdkObject target, RequestCompletion completion, Object context, RequestCall inner) {
            if (call != NdkCall.INITIALIZE_FAST_REGISTER_MR) {
                return inner.invoke(completion, context);
            }
            ForwardingMr mr = (ForwardingMr) target;
            return Hooks.mapStatus(inner, completion, context, st -> {
                if (STATUS_SUCCESS.equals(st)) {
                    first(mr).set(mr.inner().getRemoteToken());
                }
                return st;
            });
        }
    }

    /** A remote address below the region's Length is also taken as an offset from its base (zero-based addressing). */
    static final class ZeroBased implements Hooks {
        private final boolean fastRegistrations;
        private final Set<ForwardingMr> mrs = ConcurrentHashMap.newKeySet();

        ZeroBased(boolean fastRegistrations) {
            this.fastRegistrations = fastRegistrations;
        }

        private NdkMr keep(NdkMr mr) {
            if (mr instanceof ForwardingMr m && m.fastRegister() == fastRegistrations) {
                mrs.add(m);
            }
            return mr;
        }

        @Override
        public CreateResult<NdkMr> createMr(ForwardingPd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx,
                                            CreateCall<NdkMr> inner) {
            CreateResult<NdkMr> r = inner.invoke(c == null ? null : (x, st, mr) -> c.complete(x, st, keep(mr)), ctx);
            keep(r == null ? null : r.object());
            return r;
        }

        @Override
        public NtStatus close(NdkCall call, NdkObject object, CloseCompletion completion, Object context, CloseCall inner) {
            mrs.remove(object);
            return inner.invoke(completion, context);
        }

        private long translate(long address, int token) {
            for (ForwardingMr mr : mrs) {
                if (mr.closed() || mr.length() == 0 || mr.base() == 0) {
                    continue;
                }
                int t;
                try {
                    t = mr.inner().getRemoteToken();
                } catch (RuntimeException e) {
                    continue;
                }
                if (t == token && Long.compareUnsigned(address, mr.length()) < 0 && Long.compareUnsigned(address - mr.base(), mr.length()) >= 0) {
                    return mr.base() + address;
                }
            }
            return address;
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            return inner.apply(w.isReadOrWrite() ? w.withRemoteAddress(translate(w.remoteAddress(), w.remoteToken())) : w);
        }
    }
}
