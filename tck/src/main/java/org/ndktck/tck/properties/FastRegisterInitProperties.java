package org.ndktck.tck.properties;

import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Tuple;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.harness.AsyncOp;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.SpinBarrier;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.spec.Mdl;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * Properties of NdkInitializeFastRegisterMr (catalog section "NdkInitializeFastRegisterMr"; the
 * NDK_FN_INITIALIZE_FAST_REGISTER_MR page). MR-FRI-1 and MR-FRI-5 bind the kit and are obeyed by it.
 *
 * <p>AdapterPageCount is a ULONG carried in an int and compared unsigned; byte sizes are computed without
 * overflow (BigInteger).
 */
@NdkKit
public class FastRegisterInitProperties {
    private static final int FR_FLAGS = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;
    private static final ExecutorService PARALLEL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ndk-tck-parallel-initialize");
        t.setDaemon(true);
        return t;
    });

    // ------------------------------------------------------------------ MR-FRI-2

    @Provide
    Arbitrary<Integer> capacities() {
        Limits l = Limits.current();
        int max = (int) Math.min(l.frmrPageCount(), 256);
        List<Integer> edges = new ArrayList<>(List.of(1, 2, Math.min(16, max), max));
        Arbitrary<Integer> counts = Arbitraries.integers().between(1, max).edgeCases(c -> c.add(edges.toArray(new Integer[0])));
        if (l.frmrPageCount() > max && l.frmrPageCount() <= 4096) {
            // FRMRPageCount itself, outside the range of the others (an edge case outside a range is refused by jqwik)
            return Arbitraries.frequencyOf(Tuple.of(19, counts), Tuple.of(1, Arbitraries.just((int) l.frmrPageCount())));
        }
        return counts;
    }

    /**
     * MR-FRI-2: an MR initialized with N pages (1 to FRMRPageCount; N = FRMRPageCount when it is at most
     * 4096) accepts a valid fast registration of 1 page and, after an invalidation, one of N pages; both
     * complete with success and the region is reachable through the new token (a peer write and read at its
     * first and last bytes).
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("MR-FRI-2")
    void everyPageCountUpToTheInitializedOneWorks(@ForAll("capacities") int n, @ForAll @IntRange(min = 0, max = 4095) int fboSeed) {
        Observations.collect(Observations.PAGES, n == 1 ? "1" : n <= 16 ? "2..16" : "more than 16");
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int fbo = fboSeed % p;
                HostBuffer b = s.allocate(n);
                long length = (long) n * p - fbo;
                Mdl mdl = b.mdl(t.freshVa() + fbo, 0, (int) length);
                Lam lam = s.buildLam(mdl, length);
                NdkMr mr = initialized(s, n);
                long base = t.freshVa() + fbo;
                long oneLength = p - fbo;
                FastRegion one = fastRegister(s, t, b, mdl, lam, mr, 1, fbo, oneLength, base, "1 page of " + n);
                usable(s, one);
                WrOutcome inv = s.invalidate(mr, 0);
                if (!inv.succeeded()) {
                    throw Violations.of("INV-4", inv.call(), "STATUS_SUCCESS for the invalidation of a fast-registered MR", inv.describe());
                }
                FastRegion all = fastRegister(s, t, b, mdl, lam, mr, n, fbo, length, base + (1L << 24), n + " pages of " + n);
                usable(s, all);
            }
        });
    }

    private static NdkMr initialized(NdkSession s, int n) {
        NdkMr mr = s.createMr(s.target(), true);
        Outcome o = s.initializeFastRegister(mr, n, true);
        Refusals.discardIfRefused(o.status());
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS for AdapterPageCount " + u32(n) + " (FRMRPageCount "
                    + u32(s.info().frmrPageCount()) + ")", o.describe());
        }
        return mr;
    }

    private static FastRegion fastRegister(NdkSession s, SessionTools t, HostBuffer b, Mdl mdl, Lam lam,
                                                        NdkMr mr, int pages, int fbo, long length, long base, String what) {
        WrOutcome o = s.fastRegister(s.target().qp(), mr, pages, lam.pages(), fbo, length, base, FR_FLAGS);
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS for a valid fast registration of " + what
                    + " initialized pages", o.describe());
        }
        int token = s.remoteToken(mr);
        return new FastRegion(b, mdl, lam, mr, pages, fbo, length, base, FR_FLAGS, token, s.localToken(mr));
    }

    private static void usable(NdkSession s, FastRegion r) {
        int n = (int) Math.min(8, r.length());
        for (long k : new long[]{0, r.length() - n}) {
            Access w = Probes.writeInside(s, r.region(), k, n);
            Access rd = Probes.readInside(s, r.region(), k, n);
            if (!w.succeeded() || !rd.succeeded() || !java.util.Arrays.equals(rd.data(), Probes.actualAt(r.region(), k, n))) {
                throw Violations.of("MR-FRI-2", w.describe() + "; " + rd.describe(),
                        "a fast registration within the initialized page count is usable with its new token (write, then read back)",
                        w.outcome().describe() + "; " + rd.outcome().describe());
            }
        }
    }

    // ------------------------------------------------------------------ MR-FRI-3

    @Provide
    Arbitrary<Long> unsupportedCounts() {
        Limits l = Limits.current();
        BigInteger maxReg = new BigInteger(Long.toUnsignedString(l.maxRegistrationSize()));
        long byBytes = maxReg.divide(BigInteger.valueOf(l.pageSize())).add(BigInteger.ONE).min(BigInteger.valueOf(1L << 33)).longValue();
        long lowest = Math.max(byBytes, l.frmrPageCount() + 1);
        if (lowest > 0xFFFF_FFFFL) {
            return Arbitraries.just(-1L);
        }
        return Arbitraries.longs().between(lowest, 0xFFFF_FFFFL)
                .edgeCases(c -> c.add(lowest, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL).filter(v -> v >= lowest));
    }

    /**
     * MR-FRI-3: an AdapterPageCount no adapter can support (above FRMRPageCount, and with a byte size above
     * MaxRegistrationSize: the lowest such count, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF) fails, inline or as
     * the completion status; an error other than STATUS_IMPLEMENTATION_LIMIT is an ADVISORY finding. On an
     * adapter where no count qualifies the try is rejected.
     */
    @Property(tries = 100)
    @Tag("MR-FRI-3")
    void anUnsupportableCountFails(@ForAll("unsupportedCounts") long count, @ForAll boolean remoteAccess) {
        net.jqwik.api.Assume.that(count > 0);
        NdkSession.inTry(s -> {
            NdkMr mr = s.createMr(s.target(), true);
            Outcome o = s.initializeFastRegister(mr, (int) count, remoteAccess);
            Checks.mustFail("MR-FRI-3", o.call(), o.status(), o.describe(), NtStatus.STATUS_IMPLEMENTATION_LIMIT,
                    "a failure (STATUS_IMPLEMENTATION_LIMIT) for AdapterPageCount " + u32((int) count) + " pages: above FRMRPageCount "
                            + u32(s.info().frmrPageCount()) + " and above MaxRegistrationSize " + Hex.u64(s.info().maxRegistrationSize()) + " bytes");
        });
    }

    // ------------------------------------------------------------------ MR-FRI-4

    @Provide
    Arbitrary<Long> supportedCounts() {
        Limits l = Limits.current();
        long fr = l.frmrPageCount();
        return Arbitraries.longs().between(16, fr).edgeCases(c -> c.add(16L, fr, Math.max(16, fr - 1), Math.min(fr, 17)));
    }

    /**
     * MR-FRI-4: initializing with 16 pages, with FRMRPageCount, and with any count in between succeeds;
     * STATUS_IMPLEMENTATION_LIMIT (or any other error) for such a count fails the rule.
     * STATUS_INSUFFICIENT_RESOURCES rejects the try (GEN-CB-5).
     */
    @Property
    @Tag("MR-FRI-4")
    void sixteenToFrmrPageCountNeverHitsTheLimit(@ForAll("supportedCounts") long count, @ForAll boolean remoteAccess) {
        NdkSession.inTry(s -> {
            NdkMr mr = s.createMr(s.target(), true);
            Outcome o = s.initializeFastRegister(mr, (int) count, remoteAccess);
            Refusals.discardIfRefused(o.status());
            if (!o.succeeded()) {
                throw Violations.of("MR-FRI-4", o.call(), "STATUS_SUCCESS: 16 <= AdapterPageCount <= FRMRPageCount ("
                        + u32(s.info().frmrPageCount()) + ")", o.describe());
            }
        });
    }

    // ------------------------------------------------------------------ MR-FRI-6

    /** @return 2 to 12 threads at the standard profile, 2 to 6 at smoke, 2 to 24 at deep: more at once than a small command ring of a provider holds */
    @Provide
    Arbitrary<Integer> parallelInitializations() {
        return net.jqwik.api.Arbitraries.integers().between(2, Math.max(2, org.ndktck.tck.harness.TckConfig.current().profile().size(12)));
    }

    /**
     * MR-FRI-6: {@code k} fast-register MRs of one PD initialized from {@code k} threads at once, then
     * {@code k} more one after the other, all complete with success, and each is usable afterwards: a valid
     * one-page fast registration of every MR succeeds. Initializing one MR twice is not tried (AMB-12).
     */
    @Property(tries = 50, generation = GenerationMode.RANDOMIZED)
    @Tag("MR-FRI-6")
    void initializationsInParallelAndInSequenceAllWork(@ForAll("parallelInitializations") int k,
                                                       @ForAll @IntRange(min = 1, max = 16) int pages) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int n = (int) Math.min(pages, Integer.toUnsignedLong(s.info().frmrPageCount()));
                List<NdkMr> parallel = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    parallel.add(s.createMr(s.target(), true));
                }
                // a spinning barrier, not a latch: the k calls reach the provider at once, not one wake-up apart
                SpinBarrier go = new SpinBarrier(k + 1);
                List<Future<Outcome>> results = new ArrayList<>();
                for (NdkMr mr : parallel) {
                    results.add(PARALLEL.submit(() -> {
                        go.arriveAndAwait();
                        return s.initializeFastRegister(mr, n, true);
                    }));
                }
                long bound = s.bounds().callNanos() + s.bounds().completionNanos();
                try {
                    go.arriveAndWatch(bound);
                } catch (TimeoutException e) {
                    go.terminate(); // a thread of the pool did not start in time: the others go on alone
                }
                // an initialization refused for lack of resources (allowed) judges nothing: that MR is left out
                List<NdkMr> all = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    Outcome o = await(results.get(i), bound);
                    if (initializedUnlessRefused(o, "one of " + k + " initializations of one PD's MRs made at once")) {
                        all.add(parallel.get(i));
                    }
                }
                for (int i = 0; i < k; i++) {
                    NdkMr mr = s.createMr(s.target(), true);
                    if (initializedUnlessRefused(s.initializeFastRegister(mr, n, true), "initialization " + (i + 1) + " of " + k
                            + " made one after the other (after " + k + " made at once)")) {
                        all.add(mr);
                    }
                }
                if (all.isEmpty()) {
                    Refusals.discard();
                }
                HostBuffer b = s.allocate(1);
                Mdl mdl = b.mdl(t.freshVa(), 0, p);
                Lam lam = s.buildLam(mdl, p);
                for (NdkMr mr : all) {
                    WrOutcome o = s.fastRegister(s.target().qp(), mr, 1, lam.pages(), 0, p, t.freshVa(), FR_FLAGS);
                    if (!o.succeeded()) {
                        throw Violations.of("MR-FRI-6", o.call(), "each of the " + all.size()
                                + " initialized MRs accepts a valid fast registration afterwards", o.describe());
                    }
                }
            }
        });
    }

    private static Outcome await(Future<Outcome> f, long nanos) {
        try {
            return f.get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw Violations.of("GEN-TIME-1", "NdkInitializeFastRegisterMr from a parallel thread",
                    "the call returns and completes within " + org.ndktck.tck.harness.Bounds.millis(nanos), "it did not");
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error er) {
                throw er;
            }
            throw new IllegalStateException(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean initializedUnlessRefused(Outcome o, String what) {
        if (Refusals.isAllowedRefusal(o.status())) {
            return false;
        }
        requireInitialized(o, what);
        return true;
    }

    private static void requireInitialized(Outcome o, String what) {
        Refusals.discardIfRefused(o.status());
        if (!o.succeeded()) {
            throw Violations.of("MR-FRI-6", o.call() + ", " + what, "STATUS_SUCCESS, inline or through the completion", o.describe());
        }
    }

    // ------------------------------------------------------------------ MR-FRI-7

    /** How MR-FRI-7 posts the fast registration after the initialization. */
    enum When {
        /** From inside the initialization's completion callback (right after an inline success otherwise). */
        INSIDE_COMPLETION,
        /** Right after the initialization ended (inline or through the completion). */
        RIGHT_AFTER
    }

    /**
     * MR-FRI-7: a valid fast registration posted as soon as the initialization has succeeded (right after an
     * inline success, from inside the success completion, or right after it) is accepted and completes with
     * success.
     */
    @CoverageClasses(2)
    @Property(tries = 200)
    @Tag("MR-FRI-7")
    void aFastRegistrationMayFollowTheInitializationAtOnce(@ForAll When when, @ForAll @IntRange(min = 1, max = 8) int pages) {
        SectionChecks.cover("when", when.name(), List.of(When.INSIDE_COMPLETION.name(), When.RIGHT_AFTER.name()));
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int n = (int) Math.min(pages, Integer.toUnsignedLong(s.info().frmrPageCount()));
                HostBuffer b = s.allocate(n);
                Mdl mdl = b.mdl(t.freshVa(), 0, n * p);
                Lam lam = s.buildLam(mdl, (long) n * p);
                QpRef qp = t.target();
                NdkMr mr = s.createMr(s.target(), true);
                long base = t.freshVa();
                AtomicReference<WorkRequest> inside = new AtomicReference<>();
                if (when == When.INSIDE_COMPLETION) {
                    s.insideNextCallback(op -> {
                        if (NtStatus.STATUS_SUCCESS.equals(op.completedStatus())) {
                            inside.set(t.fastRegister(qp, mr, n, lam.pages(), 0, (long) n * p, base, FR_FLAGS));
                        }
                    });
                }
                AsyncOp<NdkMr> init = t.startInitialize(mr, n, true);
                s.insideNextCallback(null);
                Outcome o = t.finish(init, "MR-FRI-8", "STATUS_SUCCESS, STATUS_PENDING, STATUS_IMPLEMENTATION_LIMIT or another error code");
                if (init.insideFailure() != null) {
                    if (init.insideFailure() instanceof RuntimeException re) {
                        throw re;
                    }
                    throw (Error) init.insideFailure();
                }
                requireInitialized(o, "for MR-FRI-7");
                WorkRequest wr = inside.get();
                String how = wr != null ? "posted from inside the initialization's completion callback"
                        : o.returned().isPending() ? "posted right after the initialization completed" : "posted right after an inline success";
                if (wr == null) {
                    wr = t.fastRegister(qp, mr, n, lam.pages(), 0, (long) n * p, base, FR_FLAGS);
                }
                WrOutcome fr = t.complete(wr);
                if (!fr.succeeded()) {
                    throw Violations.of("MR-FRI-7", fr.call() + " " + how + " (" + o.describe() + ")",
                            "STATUS_SUCCESS: a fast registration may follow a successful initialization at once", fr.describe());
                }
            }
        });
    }

    // ------------------------------------------------------------------ MR-FRI-8

    /** The class of an AdapterPageCount: 0, 1..FRMRPageCount, or above FRMRPageCount (unsigned). */
    private static String countClass(long count) {
        return count == 0 ? "0" : Long.compareUnsigned(count, Limits.current().frmrPageCount()) <= 0
                ? "1..FRMRPageCount" : "above FRMRPageCount";
    }

    @Provide
    Arbitrary<Long> anyCounts() {
        Limits l = Limits.current();
        long fr = l.frmrPageCount();
        List<Long> edges = new ArrayList<>(List.of(0L, 1L, 16L, fr, 0xFFFF_FFFFL, 0x8000_0000L));
        if (fr < 0xFFFF_FFFFL) {
            edges.add(fr + 1);
        }
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.longs().between(1, fr)),
                net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(0, 0xFFFF_FFFFL)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(edges)))
                .edgeCases(c -> c.add(edges.toArray(new Long[0])));
    }

    /**
     * MR-FRI-8: whatever the AdapterPageCount (0, 1, 16, FRMRPageCount, one above it, 0x80000000,
     * 0xFFFFFFFF, random) NdkInitializeFastRegisterMr returns STATUS_SUCCESS, STATUS_PENDING or an error
     * code and completes with STATUS_SUCCESS or an error (never STATUS_PENDING, never a warning or
     * informational code); a count from 1 to FRMRPageCount ends in success.
     */
    @Property
    @Tag("MR-FRI-8")
    void initializationEndsInAListedKindOfResult(@ForAll("anyCounts") long count, @ForAll boolean remoteAccess) {
        Checks.cover("count", countClass(count), this::anyCounts, FastRegisterInitProperties::countClass);
        NdkSession.inTry(s -> {
            NdkMr mr = s.createMr(s.target(), true);
            Outcome o = s.initializeFastRegister(mr, (int) count, remoteAccess);
            boolean valid = count >= 1 && Long.compareUnsigned(count, s.info().unsignedFrmrPageCount()) <= 0;
            if (valid && !o.succeeded() && !Refusals.isAllowedRefusal(o.status())) {
                throw Violations.of("MR-FRI-8", o.call(), "STATUS_SUCCESS for a count from 1 to FRMRPageCount ("
                        + u32(s.info().frmrPageCount()) + ")", o.describe());
            }
        });
    }
}
