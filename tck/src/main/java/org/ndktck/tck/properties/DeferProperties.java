package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.HeldSessions;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Properties of deferred processing (catalog section "Deferred processing"; the NDKPI deferred-processing
 * scheme). DEF-1 (DEFER is a hint) is informational; DEF-5 (end every DEFER run, use DEFER only from
 * NDKPI 1.2) binds the kit and is obeyed by it: DEF-3 and DEF-4 are gated on NDKPI 1.2, and the DEF-2
 * property sets DEFER only on such adapters.
 */
@NdkKit
public class DeferProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;

    /** An initiator request that fails inline. */
    enum Failing {
        /** NdkFastRegister on a QP that was never connected (MR-FR-7). */
        FAST_REGISTER_UNCONNECTED,
        /** NdkFastRegister with remote flags on an MR initialized without remote access (MR-FR-6). */
        FAST_REGISTER_NO_REMOTE_ACCESS,
        /** NdkInvalidate on a QP that was never connected (INV-2). */
        INVALIDATE_UNCONNECTED,
        /** NdkRead on a QP that was never connected (RW-2). */
        READ_UNCONNECTED,
        /** NdkWrite on a QP that was never connected (RW-2). */
        WRITE_UNCONNECTED
    }

    /** What a try of DEF-2 needs: a LAM page, MRs, registered buffers. */
    private record Kit(Lam lam, Registered local, Registered remote) {
    }

    private static Kit kit(NdkSession s, SessionTools t) {
        s.qps();
        int p = s.pageSize();
        Mdl mdl = s.allocate(1).mdl(t.freshVa(), 0, p);
        return new Kit(s.buildLam(mdl, p), t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag()),
                t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ));
    }

    private static WorkRequest failing(NdkSession s, SessionTools t, Kit k, Failing f, int flags) {
        int p = s.pageSize();
        NdkSge[] sgl = {k.local().sge(0, 32)};
        return switch (f) {
            case FAST_REGISTER_UNCONNECTED -> t.fastRegister(t.unconnected(), s.fastRegisterMr(1, true), 1, k.lam().pages(), 0, p, t.freshVa(), RW | flags);
            case FAST_REGISTER_NO_REMOTE_ACCESS -> t.fastRegister(t.target(), s.fastRegisterMr(1, false), 1, k.lam().pages(), 0, p, t.freshVa(), RW | flags);
            case INVALIDATE_UNCONNECTED -> {
                FastRegion r = t.fastRegistered(1, 0, RW, true);
                yield t.invalidate(t.unconnected(), r.mr(), flags);
            }
            case READ_UNCONNECTED -> t.read(t.unconnected(), sgl, k.remote().va(), k.remote().remoteToken(), flags);
            case WRITE_UNCONNECTED -> t.write(t.unconnected(), sgl, k.remote().va(), k.remote().remoteToken(), flags);
        };
    }

    /**
     * DEF-2: an initiator request that fails inline (fast registration or invalidation on an unconnected
     * QP, remote flags on an MR without remote access, read or write on an unconnected QP; with DEFER on
     * NDKPI 1.2 adapters) never produces a CQ entry: after a valid request without DEFER has completed, and
     * again once a quiet period has passed (the try's session is held open for it, {@link HeldSessions}, so
     * the next try does not wait), the CQs hold no entry with a failed request's RequestContext (the session
     * charges such an entry to DEF-2). Requests that were not refused inline are not judged here.
     */
    @Property(tries = 50, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("DEF-2")
    void aRequestRefusedInlineNeverCompletes(@ForAll @Size(min = 1, max = 4) List<Failing> failures, @ForAll boolean defer) {
        // the session stays open through the quiet period and is closed (its CQs drained) at a later try
        HeldSessions.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                Kit k = kit(s, t);
                int flags = defer && s.info().version().atLeast(NdkVersion.V1_2) ? NdkOpFlags.DEFER : 0;
                List<WorkRequest> accepted = new ArrayList<>();
                for (Failing f : failures) {
                    WorkRequest wr = failing(s, t, k, f, flags);
                    if (NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        accepted.add(wr);
                    }
                }
                WorkRequest end = t.write(t.target(), new NdkSge[]{k.local().sge(0, 32)}, k.remote().va(), k.remote().remoteToken(), 0);
                accepted.add(end);
                for (WorkRequest wr : accepted) {
                    if (!wr.returned().equals(NtStatus.STATUS_SUCCESS)) {
                        continue;
                    }
                    t.awaitEntry(wr, "RW-5", "a CQ entry for an accepted request");
                }
                // now, and again when the held session closes after the quiet period (HeldSessions)
                s.drain(s.target());
                s.drain(s.peer());
                k.remote().buffer().acceptActual(0, 32);
                k.local().buffer().acceptActual(0, 32);
            }
        });
    }

    /** A request of a DEFER run. */
    enum Deferred {
        /** A valid fast registration of a fresh MR. */
        FAST_REGISTER,
        /** A valid write to the peer. */
        WRITE,
        /** A valid read from the peer. */
        READ,
        /** A valid invalidation of the run's last fast-registered MR (one is fast-registered with DEFER first if none is). */
        INVALIDATE
    }

    /** @return DEFER runs of 1 to 5 requests at the standard profile (longer at deep, shorter at smoke) */
    @Provide
    Arbitrary<List<Deferred>> deferRuns() {
        int max = TckConfig.current().profile().size(5);
        return Arbitraries.of(Deferred.class).list().ofMinSize(1).ofMaxSize(max);
    }

    /**
     * DEF-3 (NDKPI 1.2): a run of valid requests with DEFER (fast registrations, invalidations, writes, reads)
     * ended by a valid request without DEFER yields every request's CQ entry within the completion bound.
     */
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("DEF-3")
    void aRunEndedWithoutDeferCompletes(@ForAll("deferRuns") List<Deferred> run, @ForAll boolean endWithInvalidate) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                Kit k = kit(s, t);
                int p = s.pageSize();
                List<WorkRequest> posted = new ArrayList<>();
                NdkMr lastMr = null;
                int i = 0;
                for (Deferred d : run) {
                    WorkRequest wr = switch (d) {
                        case FAST_REGISTER -> {
                            lastMr = s.fastRegisterMr(1, true);
                            yield t.fastRegister(t.target(), lastMr, 1, k.lam().pages(), 0, p, t.freshVa(), RW | NdkOpFlags.DEFER);
                        }
                        case WRITE -> t.write(t.target(), new NdkSge[]{k.local().sge((long) i * 32, 32)}, k.remote().va() + (long) i * 32,
                                k.remote().remoteToken(), NdkOpFlags.DEFER);
                        case READ -> t.read(t.target(), new NdkSge[]{k.local().sge((long) i * 32, 32)}, k.remote().va(),
                                k.remote().remoteToken(), NdkOpFlags.DEFER);
                        case INVALIDATE -> {
                            if (lastMr == null) {
                                lastMr = s.fastRegisterMr(1, true);
                                WorkRequest fr = t.fastRegister(t.target(), lastMr, 1, k.lam().pages(), 0, p, t.freshVa(), RW | NdkOpFlags.DEFER);
                                if (!NtStatus.STATUS_SUCCESS.equals(fr.returned())) {
                                    throw Violations.of("DEF-3", fr.detail(), "STATUS_SUCCESS for a valid request with DEFER", "returned " + fr.returned());
                                }
                                posted.add(fr);
                            }
                            WorkRequest inv = t.invalidate(t.target(), lastMr, NdkOpFlags.DEFER);
                            lastMr = null;
                            yield inv;
                        }
                    };
                    if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        throw Violations.of("DEF-3", wr.detail(), "STATUS_SUCCESS for a valid request with DEFER", "returned " + wr.returned());
                    }
                    posted.add(wr);
                    i++;
                }
                WorkRequest end = endWithInvalidate && lastMr != null ? t.invalidate(t.target(), lastMr, 0)
                        : t.write(t.target(), new NdkSge[]{k.local().sge(p / 2, 32)}, k.remote().va() + p / 2, k.remote().remoteToken(), 0);
                if (!NtStatus.STATUS_SUCCESS.equals(end.returned())) {
                    throw Violations.of("DEF-3", end.detail(), "STATUS_SUCCESS for the valid request that ends the DEFER run", "returned " + end.returned());
                }
                posted.add(end);
                for (WorkRequest wr : posted) {
                    t.awaitEntry(wr, "DEF-3", "the CQ entry of every request of a DEFER run ended by a request without DEFER");
                }
                k.remote().buffer().acceptActual(0, p);
                k.local().buffer().acceptActual(0, p);
            }
        });
    }

    /**
     * DEF-4 (NDKPI 1.2): after a valid fast registration with DEFER was accepted, a later request with DEFER
     * that fails inline makes the provider hand the first to the hardware: its CQ entry arrives within the
     * completion bound although no other request follows; the refused request produces no entry (DEF-2). The
     * failing request is a fast registration with remote flags on an MR initialized without remote access, or
     * (half the tries) an NdkWrite with two SGEs on the kit's QP, created with MaxInitiatorRequestSge 1.
     */
    @Property(tries = 30, generation = GenerationMode.RANDOMIZED)
    @Tag("DEF-4")
    void anInlineFailureSubmitsEarlierDeferredRequests(@ForAll @IntRange(min = 1, max = 3) int before, @ForAll boolean dataRequest) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                Kit k = kit(s, t);
                int p = s.pageSize();
                List<WorkRequest> held = new ArrayList<>();
                for (int i = 0; i < before; i++) {
                    WorkRequest wr = t.fastRegister(t.target(), s.fastRegisterMr(1, true), 1, k.lam().pages(), 0, p, t.freshVa(), RW | NdkOpFlags.DEFER);
                    if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                        throw Violations.of("DEF-4", wr.detail(), "STATUS_SUCCESS for a valid fast registration with DEFER", "returned " + wr.returned());
                    }
                    held.add(wr);
                }
                WorkRequest bad = dataRequest
                        ? t.write(t.target(), new NdkSge[]{k.local().sge(0, 16), k.local().sge(16, 16)}, k.remote().va(),
                                k.remote().remoteToken(), NdkOpFlags.DEFER)
                        : t.fastRegister(t.target(), s.fastRegisterMr(1, false), 1, k.lam().pages(), 0, p, t.freshVa(), RW | NdkOpFlags.DEFER);
                if (NtStatus.STATUS_SUCCESS.equals(bad.returned())) {
                    WorkRequest end = t.write(t.target(), new NdkSge[]{k.local().sge(0, 32)}, k.remote().va(), k.remote().remoteToken(), 0);
                    held.add(bad);
                    held.add(end);
                    for (WorkRequest wr : held) {
                        t.awaitEntry(wr, "DEF-3", "the CQ entry of every request of a DEFER run");
                    }
                    k.remote().buffer().acceptActual(0, 32);
                    net.jqwik.api.Assume.that(false);
                }
                for (WorkRequest wr : held) {
                    t.awaitEntry(wr, "DEF-4", "the CQ entry of an earlier DEFER request after a later request failed inline ("
                            + bad.detail() + " returned " + bad.returned() + "), with no request after it");
                }
                s.drain(s.target());
            }
        });
    }
}
