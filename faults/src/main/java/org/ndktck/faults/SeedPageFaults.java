package org.ndktck.faults;

import org.ndktck.reference.Access;
import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.ReferenceProvider;
import org.ndktck.reference.RegionView;
import org.ndktck.reference.RegisterMrRequest;
import org.ndktck.reference.RuleCheck;
import org.ndktck.reference.StandardChecks;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
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
import java.util.function.Supplier;

import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

/**
 * The faults of the seed pages (NdkCreateMr, NdkRegisterMr, NdkFastRegister) and the general rules: each
 * provider {@code fault:RULE-ID[/variant]} is the reference provider with one behaviour broken, and the
 * kit must fail exactly that rule on it (docs/ARCHITECTURE.md, "Fault catalogue naming").
 *
 * <p>Validation and data-path faults replace a piece of the reference model
 * ({@link ReferenceProvider.Builder#replace}); completion, callback, object and CQ faults wrap the
 * reference's SPI objects ({@link Wrapped}, {@link Misbehaviour}).
 */
public final class SeedPageFaults implements NdkProviderSource {

    private static final NtStatus STATUS_NOT_SUPPORTED = NtStatus.of(0xC00000BB);

    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        // ------------------------------------------------------------ general asynchronous rules
        out.add(wrapped("fault:GEN-CB-1", "NdkRegisterMr returns STATUS_PENDING and calls its completion twice",
                () -> new PendingRegister(2, false)));
        out.add(wrapped("fault:GEN-CB-1/never", "NdkRegisterMr returns STATUS_PENDING and never calls its completion",
                () -> new PendingRegister(0, false)));
        out.add(wrapped("fault:GEN-CB-1/foreign-context", "NdkRegisterMr pends and completes with a context of its own",
                () -> new PendingRegister(1, true)));
        out.add(wrapped("fault:GEN-CB-2", "NdkRegisterMr and NdkDeregisterMr call the completion after an inline return",
                CompletionAfterInline::new));
        out.add(wrapped("fault:GEN-CB-3", "NdkCreateMr returns STATUS_PENDING with the MR already in the out parameter",
                PendingCreateWritesOut::new));
        out.add(wrapped("fault:GEN-CB-4", "NdkCreateMr returns STATUS_SUCCESS with no MR", SuccessWithoutObject::new));
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
                ThrowsOnBigLength::new));
        out.add(wrapped("fault:GEN-EXC-1/completion-path", "the completion path of NdkRegisterMr throws after calling the completion",
                ThrowAfterCompletion::new));
        // ------------------------------------------------------------ NDK_MR object, NdkCreateMr
        out.add(wrapped("fault:OBJ-1", "an MR's header says NdkObjectTypePd", () -> new Misbehaviour() {
            @Override
            public NdkObjectHeader mrHeader(Wrapped.Mr mr) {
                return new NdkObjectHeader(mr.delegate().header().version(), NdkObjectType.PD);
            }
        }));
        out.add(wrapped("fault:OBJ-2", "an MR's header version is 2.0 on an NDKPI 1.2 adapter", () -> new Misbehaviour() {
            @Override
            public NdkObjectHeader mrHeader(Wrapped.Mr mr) {
                return new NdkObjectHeader(new NdkVersion(2, 0), mr.delegate().header().objectType());
            }
        }));
        out.add(wrapped("fault:MR-CREATE-2", "NdkCreateMr(FastRegister=TRUE) fails with STATUS_NOT_SUPPORTED", () -> new Misbehaviour() {
            @Override
            public CreateResult<NdkMr> createMr(Wrapped.Pd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx) {
                return fastRegister ? CreateResult.failed(STATUS_NOT_SUPPORTED) : pd.createMrPlain(false, c, ctx);
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
        out.add(wrapped("fault:MR-FR-8", "the CQ entry of a fast registration says NdkOperationTypeWrite", () -> new Misbehaviour() {
            @Override
            public int getCqResultsEx(org.ndktck.spec.NdkCq cq, NdkResultEx[] results) {
                int n = cq.getCqResultsEx(results);
                for (int i = 0; i < n; i++) {
                    NdkResultEx e = results[i];
                    if (e != null && e.type() == NdkOperationType.FAST_REGISTER) {
                        results[i] = new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(),
                                NdkOperationType.WRITE, e.typeSpecificCompletionOutput());
                    }
                }
                return n;
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
                .replace(Pieces.MR_FR_17, RuleCheck.<FastRegisterRequest>pass())
                // MR-FR-2 still asks that each entry's page be mapped, but no longer that the entry start it
                .replace(Pieces.MR_FR_2, (RuleCheck<FastRegisterRequest>) r ->
                        r.firstUnmappedPage() < 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER).build());
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

    private static NdkProvider wrapped(String name, String description, Supplier<Misbehaviour> misbehaviour) {
        return ReferenceProvider.builder().name(name).description(description)
                .decorateAdapters(a -> Wrapped.adapter(a, misbehaviour.get())).build();
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
    static final class PendingRegister extends Misbehaviour {
        private final int times;
        private final boolean foreignContext;

        PendingRegister(int times, boolean foreignContext) {
            this.times = times;
            this.foreignContext = foreignContext;
        }

        @Override
        public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion completion, Object context) {
            NtStatus[] result = new NtStatus[1];
            CountDownLatch done = new CountDownLatch(1);
            NtStatus r = mr.delegate().register(mdl, length, flags, (ctx, st) -> {
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

    /** After an inline return of NdkRegisterMr or NdkDeregisterMr, the completion is called anyway. */
    static final class CompletionAfterInline extends Misbehaviour {
        @Override
        public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion completion, Object context) {
            NtStatus r = mr.delegate().register(mdl, length, flags, completion, context);
            if (!r.isPending()) {
                later("callback-after-inline", () -> completion.complete(context, r));
            }
            return r;
        }

        @Override
        public NtStatus deregister(Wrapped.Mr mr, RequestCompletion completion, Object context) {
            NtStatus r = mr.delegate().deregister(completion, context);
            if (!r.isPending()) {
                later("callback-after-inline", () -> completion.complete(context, r));
            }
            return r;
        }
    }

    /** NdkCreateMr: STATUS_PENDING with the MR already written to the out parameter, then the completion. */
    static final class PendingCreateWritesOut extends Misbehaviour {
        @Override
        public CreateResult<NdkMr> createMr(Wrapped.Pd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx) {
            CreateResult<NdkMr> r = pd.createMrPlain(fastRegister, c, ctx);
            if (r.status().isPending() || r.object() == null) {
                return r;
            }
            NdkMr mr = r.object();
            later("pending-create", () -> c.complete(ctx, STATUS_SUCCESS, mr));
            return new CreateResult<>(NtStatus.STATUS_PENDING, mr);
        }
    }

    /** NdkCreateMr: STATUS_SUCCESS and no object. */
    static final class SuccessWithoutObject extends Misbehaviour {
        @Override
        public CreateResult<NdkMr> createMr(Wrapped.Pd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx) {
            CreateResult<NdkMr> r = pd.createMrPlain(fastRegister, c, ctx);
            return STATUS_SUCCESS.equals(r.status()) ? new CreateResult<>(STATUS_SUCCESS, null) : r;
        }
    }

    /** NdkCreateMr: the MR inline, and the completion too. */
    static final class CreateCallbackAfterSuccess extends Misbehaviour {
        @Override
        public CreateResult<NdkMr> createMr(Wrapped.Pd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx) {
            CreateResult<NdkMr> r = pd.createMrPlain(fastRegister, c, ctx);
            if (STATUS_SUCCESS.equals(r.status())) {
                NdkMr mr = r.object();
                later("create-callback-after-success", () -> c.complete(ctx, STATUS_SUCCESS, mr));
            }
            return r;
        }
    }

    /** Once an MR create failed with STATUS_INSUFFICIENT_RESOURCES, every later one does too (the failure leaked its slot). */
    static final class LeakOnInsufficientResources extends Misbehaviour {
        private volatile boolean exhausted;

        @Override
        public CreateResult<NdkMr> createMr(Wrapped.Pd pd, boolean fastRegister, CreateCompletion<NdkMr> c, Object ctx) {
            if (exhausted) {
                return CreateResult.failed(NtStatus.STATUS_INSUFFICIENT_RESOURCES);
            }
            CreateResult<NdkMr> r = pd.createMrPlain(fastRegister, (x, st, mr) -> {
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
    static final class UseAfterCompletion extends Misbehaviour {
        private static NtStatus pendThenTouch(Wrapped.Mr mr, NtStatus r, RequestCompletion completion, Object context) {
            if (r.isPending()) {
                return r;
            }
            later("use-after-completion", () -> {
                completion.complete(context, r);
                if (mr.closed) {
                    throw new IllegalStateException("the provider used MR " + mr + " after its completion, but the consumer had closed it");
                }
            });
            return NtStatus.STATUS_PENDING;
        }

        @Override
        public NtStatus initializeFastRegister(Wrapped.Mr mr, int n, boolean remote, RequestCompletion completion, Object context) {
            return pendThenTouch(mr, mr.delegate().initializeFastRegister(n, remote, completion, context), completion, context);
        }

        @Override
        public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion completion, Object context) {
            return pendThenTouch(mr, mr.delegate().register(mdl, length, flags, completion, context), completion, context);
        }
    }

    /** The completion of NdkInitializeFastRegisterMr is called with a lock held that NdkCloseMr also takes (not reentrant). */
    static final class DeadlockOnCloseFromCompletion extends Misbehaviour {
        private final Semaphore lock = new Semaphore(1);

        @Override
        public NtStatus initializeFastRegister(Wrapped.Mr mr, int n, boolean remote, RequestCompletion completion, Object context) {
            NtStatus r = mr.delegate().initializeFastRegister(n, remote, completion, context);
            if (r.isPending()) {
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
        public NtStatus closeMr(Wrapped.Mr mr, org.ndktck.spec.CloseCompletion completion, Object context) {
            lock.acquireUninterruptibly();
            try {
                return mr.delegate().close(completion, context);
            } finally {
                lock.release();
            }
        }
    }

    /** NdkDeregisterMr never returns (it waits for an event that never comes, ignoring interrupts). */
    static final class DeregisterBlocks extends Misbehaviour {
        private final CountDownLatch never = new CountDownLatch(1);

        @Override
        public NtStatus deregister(Wrapped.Mr mr, RequestCompletion completion, Object context) {
            while (true) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    // a kernel wait that ignores alerts
                }
            }
        }
    }

    /** NdkRegisterMr converts Length to an int with Math.toIntExact. */
    static final class ThrowsOnBigLength extends Misbehaviour {
        @Override
        public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion completion, Object context) {
            Math.toIntExact(length);
            return mr.delegate().register(mdl, length, flags, completion, context);
        }
    }

    /** NdkRegisterMr pends; its completion path throws after calling the completion. */
    static final class ThrowAfterCompletion extends Misbehaviour {
        @Override
        public NtStatus register(Wrapped.Mr mr, Mdl mdl, long length, int flags, RequestCompletion completion, Object context) {
            NtStatus r = mr.delegate().register(mdl, length, flags, completion, context);
            if (r.isPending()) {
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
    static final class StaleRemoteToken extends Misbehaviour {
        @Override
        public int remoteToken(Wrapped.Mr mr) {
            if (!mr.fastRegister()) {
                return mr.delegate().getRemoteToken();
            }
            Object s = mr.state;
            if (s instanceof Integer t) {
                return t;
            }
            int t = mr.delegate().getRemoteToken();
            mr.state = t;
            return t;
        }

        @Override
        public NtStatus initializeFastRegister(Wrapped.Mr mr, int n, boolean remote, RequestCompletion completion, Object context) {
            NtStatus r = mr.delegate().initializeFastRegister(n, remote, (ctx, st) -> {
                if (STATUS_SUCCESS.equals(st)) {
                    mr.state = mr.delegate().getRemoteToken();
                }
                completion.complete(ctx, st);
            }, context);
            if (STATUS_SUCCESS.equals(r)) {
                mr.state = mr.delegate().getRemoteToken();
            }
            return r;
        }
    }

    /** A remote address below the region's Length is also taken as an offset from its base (zero-based addressing). */
    static final class ZeroBased extends Misbehaviour {
        private final boolean fastRegistrations;

        ZeroBased(boolean fastRegistrations) {
            this.fastRegistrations = fastRegistrations;
        }

        private long translate(Wrapped.Qp qp, long address, int token) {
            for (Wrapped.Mr mr : qp.adapter().mrs()) {
                if (mr.closed || mr.length == 0 || mr.base == 0 || mr.fastRegister() != fastRegistrations) {
                    continue;
                }
                int t;
                try {
                    t = mr.delegate().getRemoteToken();
                } catch (RuntimeException e) {
                    continue;
                }
                if (t == token && Long.compareUnsigned(address, mr.length) < 0 && Long.compareUnsigned(address - mr.base, mr.length) >= 0) {
                    return mr.base + address;
                }
            }
            return address;
        }

        @Override
        public NtStatus read(Wrapped.Qp qp, Object context, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
            return qp.delegate().read(context, sgl, translate(qp, remoteAddress, remoteToken), remoteToken, flags);
        }

        @Override
        public NtStatus write(Wrapped.Qp qp, Object context, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
            return qp.delegate().write(context, sgl, translate(qp, remoteAddress, remoteToken), remoteToken, flags);
        }
    }
}
