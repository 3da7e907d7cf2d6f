package org.ndktck.tck.properties;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.FastRegisterPlans;
import org.ndktck.tck.generators.FrCase;
import org.ndktck.tck.generators.FrPlan;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.FrScenario;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static org.ndktck.tck.properties.DataPathChecks.dataPathIsExact;

/**
 * Properties of NdkFastRegister (catalog section "NdkFastRegister"; the NDK_FN_FAST_REGISTER page).
 *
 * <p>"Never registered" means: the request fails inline (no CQ entry, DEF-2) or completes on the CQ with
 * an error status, never with success, and afterwards the MR grants no access (docs/ARCHITECTURE.md).
 * Every scenario is built by {@link FrScenario} from a generated {@link FrPlan} that is valid or breaks
 * exactly the property's rule.
 */
@NdkKit
public class FastRegisterProperties {

    private static Arbitrary<FrPlan> breaking(FrCase c) {
        return FastRegisterPlans.breaking(c, Limits.current());
    }

    private static void cover(FrPlan plan, Supplier<Arbitrary<FrPlan>> gen) {
        Checks.cover("case", plan.edge(), gen, FrPlan::edge);
    }

    // ------------------------------------------------------------------ MR-FR-3

    @Provide
    Arbitrary<FrPlan> lengthOver() {
        return breaking(FrCase.LENGTH_OVER);
    }

    /**
     * MR-FR-3: a request whose Length exceeds AdapterPageCount × PAGE_SIZE − FBO is never registered:
     * one byte over, pages × PAGE_SIZE with FBO ignored, Length with bit 32 set whose low 32 bits are
     * within the limit, Length with the top bit set, and 2^20-page arrays (bytes past 2^32).
     */
    @Property
    @Tag("MR-FR-3")
    void lengthOverTheLimitIsNeverRegistered(@ForAll("lengthOver") FrPlan plan) {
        cover(plan, this::lengthOver);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            Checks.neverRegistered(s, sc, "MR-FR-3", () -> "Length " + Hex.u64(plan.length()) + " > AdapterPageCount x PAGE_SIZE - FBO = "
                    + Hex.u64((long) plan.pageCount() * s.pageSize() - Integer.toUnsignedLong(plan.fbo())));
        });
    }

    @Provide
    Arbitrary<FrPlan> lengthAtLimit() {
        return FastRegisterPlans.validAtLimit(Limits.current());
    }

    /**
     * MR-FR-3, its boundary: a valid request whose Length is exactly AdapterPageCount × PAGE_SIZE − FBO fits
     * its pages, so the provider's Length check must let it through: it ends in STATUS_SUCCESS. A failure is
     * charged to MR-FR-11 when the same request without NDK_OP_FLAG_RDMA_READ_SINK succeeds (see
     * {@link FrScenario#diagnoseValidFailure}), else to MR-FR-3 (a limit computed with {@code <} instead of
     * {@code <=}, or a Length check that rounds the limit down).
     */
    @Property
    @Tag("MR-FR-3")
    void lengthAtTheLimitIsRegistered(@ForAll("lengthAtLimit") FrPlan plan) {
        cover(plan, this::lengthAtLimit);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            WrOutcome o = sc.post();
            if (!FrScenario.registered(o)) {
                org.ndktck.tck.RuleViolation v = sc.diagnoseValidFailure(o);
                if (v.ruleId().equals("MR-FR-11")) {
                    throw v;
                }
                throw Violations.of("MR-FR-3", o.call(), "STATUS_SUCCESS: Length " + Hex.u64(plan.length())
                        + " equals AdapterPageCount x PAGE_SIZE - FBO, so it fits the pages", o.describe());
            }
        });
    }

    // ------------------------------------------------------------------ MR-FR-4

    @Provide
    Arbitrary<FrPlan> bvaIncongruent() {
        return breaking(FrCase.BVA_INCONGRUENT);
    }

    /**
     * MR-FR-4: a BaseVirtualAddress that is not FBO + n × PAGE_SIZE is never registered (off by +1 and −1,
     * by PAGE_SIZE / 2, BaseVirtualAddress 0 with FBO &gt; 0, the top bit set).
     */
    @Property
    @Tag("MR-FR-4")
    void incongruentBaseVirtualAddressIsNeverRegistered(@ForAll("bvaIncongruent") FrPlan plan) {
        cover(plan, this::bvaIncongruent);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            Checks.neverRegistered(s, sc, "MR-FR-4", () -> "BaseVirtualAddress mod PAGE_SIZE = "
                    + Hex.u32((int) (plan.baseVirtualAddress() & (s.pageSize() - 1))) + " differs from FBO " + Hex.u32(plan.fbo()));
        });
    }

    // ------------------------------------------------------------------ MR-FR-6

    @Provide
    Arbitrary<FrPlan> remoteOnLocalMr() {
        return breaking(FrCase.REMOTE_ON_LOCAL_MR);
    }

    /**
     * MR-FR-6: remote access flags on an MR initialized with RemoteAccess = FALSE: the request fails,
     * with STATUS_ACCESS_VIOLATION, inline or as the status of its one CQ entry (AMB-11; another error status
     * is ADVISORY); an inline failure has no CQ entry (DEF-2, checked as the CQ is drained); the MR grants no
     * access.
     */
    @Property
    @Tag("MR-FR-6")
    void remoteFlagsOnALocalOnlyMrFail(@ForAll("remoteOnLocalMr") FrPlan plan) {
        cover(plan, this::remoteOnLocalMr);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            WrOutcome o = sc.post();
            Checks.mustFail("MR-FR-6", o.call(), o.status(), o.describe(), NtStatus.STATUS_ACCESS_VIOLATION,
                    "a failure (STATUS_ACCESS_VIOLATION inline) for Flags " + Hex.opFlags(plan.flags()) + " on an MR initialized with RemoteAccess = FALSE");
            s.drain(s.target());
            sc.assertGrantsNothing("MR-FR-6", "remote flags on an MR without remote access");
        });
    }

    // ------------------------------------------------------------------ MR-FR-7

    @Provide
    Arbitrary<FrPlan> validPlans() {
        return FastRegisterPlans.valid(Limits.current());
    }

    /**
     * MR-FR-7: a valid request on a QP that was never connected fails, preferably with
     * STATUS_CONNECTION_INVALID (another error is ADVISORY), and leaves no CQ entry.
     */
    @Property
    @Tag("MR-FR-7")
    void fastRegisterOnAnUnconnectedQpFails(@ForAll("validPlans") FrPlan plan) {
        cover(plan, this::validPlans);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            WrOutcome o = sc.postOn(s.unconnectedQp());
            Checks.mustFail("MR-FR-7", o.call(), o.status(), o.describe(), NtStatus.STATUS_CONNECTION_INVALID,
                    "a failure (STATUS_CONNECTION_INVALID) on a QP that was never connected");
            s.drain(s.target());
        });
    }

    // ------------------------------------------------------------------ MR-FR-8

    /**
     * MR-FR-8: a valid request returns STATUS_SUCCESS (MR-FRI-2 otherwise) and then exactly one CQ entry
     * on the initiator CQ with the request's RequestContext, the QP's QPContext, STATUS_SUCCESS and
     * NDK_RESULT_EX.Type = NdkOperationTypeFastRegister (4); half the tries read it with
     * NdkGetCqResults, the others with NdkGetCqResultsEx.
     */
    @Property
    @Tag("MR-FR-8")
    void successfulFastRegisterCompletesOnTheCq(@ForAll("validPlans") FrPlan plan) {
        cover(plan, this::validPlans);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            boolean plain = (plan.salt() & 1) != 0;
            WorkRequest wr = s.postFastRegister(s.target().qp(), sc.mr(), plan.pageCount(), sc.pageArray(), plan.fbo(), plan.length(),
                    plan.baseVirtualAddress(), plan.flags());
            if (!NtStatus.STATUS_SUCCESS.equals(wr.returned())) {
                throw sc.diagnoseValidFailure(s.complete(wr));
            }
            if (plain) {
                long start = System.nanoTime();
                while (wr.entry() == null) {
                    List<NdkResult> got = s.drainPlain(s.target().cq());
                    if (wr.entry() == null && got.isEmpty() && s.bounds().completionExpired(start)) {
                        throw Violations.of("MR-FR-8", wr.detail(), "a CQ entry (NdkGetCqResults) within " + s.bounds().describeCompletionBound(),
                                "none");
                    }
                    Thread.onSpinWait();
                }
            }
            WrOutcome o = s.complete(wr);
            if (o.entry() == null) {
                throw Violations.of("MR-FR-8", o.call(), "a CQ entry after STATUS_SUCCESS", "none");
            }
            if (!plain && o.entry().type() != NdkOperationType.FAST_REGISTER) {
                throw Violations.of("MR-FR-8", o.call(), "NDK_RESULT_EX.Type = NdkOperationTypeFastRegister (4)", "Type = " + o.entry().type());
            }
            if (!o.succeeded()) {
                throw sc.diagnoseValidFailure(o);
            }
        });
    }

    // ------------------------------------------------------------------ MR-FR-9 / MR-FR-10

    @Provide
    Arbitrary<FrPlan> remotePlans() {
        return FastRegisterPlans.validRemoteAccess(Limits.current());
    }

    private static long pickOffset(FrPlan plan, int k) {
        long len = plan.length();
        long salt = plan.salt() ^ (k * 0x9E3779B97F4A7C15L);
        return switch (k % 3) {
            case 0 -> 0;
            case 1 -> len - 1;
            default -> Long.remainderUnsigned(salt, len);
        };
    }

    /**
     * MR-FR-9: after a successful NdkFastRegister, NdkGetRemoteTokenFromMr gives the token of the new
     * registration: with it the peer writes bytes at BaseVirtualAddress + k and reads the same bytes back
     * (k at the start, the end and inside the region). Where the bytes land in host memory is MR-FR-10's.
     */
    @Property
    @Tag("MR-FR-9")
    void remoteTokenOfTheNewRegistrationGrantsAccess(@ForAll("remotePlans") FrPlan plan) {
        cover(plan, this::remotePlans);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            sc.postValid();
            int token = s.remoteToken(sc.mr());
            Region r = sc.region(token);
            for (int i = 0; i < 2; i++) {
                long k = pickOffset(plan, i);
                int n = (int) Math.min(Math.min(8, s.maxAccess()), plan.length() - k);
                byte[] data = new byte[n];
                Arrays.fill(data, (byte) (0x3C + i));
                data[0] = (byte) ~Probes.expectedAt(r, k, 1)[0];
                Access w = s.peerWrite(plan.baseVirtualAddress() + k, token, data);
                if (!w.succeeded()) {
                    throw Violations.of("MR-FR-9", w.outcome().call(), "success: the token read after NdkFastRegister returned ("
                            + Hex.u32(token) + ") grants the peer write access to " + r, w.describe());
                }
                Access rd = s.peerRead(plan.baseVirtualAddress() + k, token, n);
                if (!rd.succeeded() || !Arrays.equals(rd.data(), data)) {
                    throw Violations.of("MR-FR-9", rd.outcome().call(), "success with the bytes just written (" + Hex.bytes(data) + ")",
                            rd.describe() + (rd.succeeded() ? " with " + Hex.bytes(rd.data()) : ""));
                }
            }
            sc.buffer().acceptActual(0, (int) Math.min(sc.buffer().size(), Integer.MAX_VALUE));
        });
    }

    /**
     * MR-FR-10: remote addresses are absolute (zero-based addressing is not supported). After a
     * registration at a non-zero BaseVirtualAddress, a peer write at BaseVirtualAddress + k changes
     * exactly byte FBO + k of the page array's memory, a read there returns it; an access at k alone, at
     * BaseVirtualAddress − 1, at BaseVirtualAddress + Length, straddling either end, or at the rest of the
     * first and last pages fails and changes no byte (guard frames and painted bytes checked).
     */
    @Property
    @Tag("MR-FR-10")
    void remoteAddressesAreAbsolute(@ForAll("remotePlans") FrPlan plan) {
        cover(plan, this::remotePlans);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            sc.postValid();
            Region r = sc.region(s.remoteToken(sc.mr()));
            dataPathIsExact(s, r, plan.salt(), "MR-FR-10", "MR-FR-9");
        });
    }

    // ------------------------------------------------------------------ MR-FR-11

    private static final Integer[] READ_SINK_FLAGS = {0x80, 0x90, 0x88, 0xB8, 0xB0, 0x98, 0x82};

    @Provide
    Arbitrary<FrPlan> readSinkPlans() {
        Limits l = Limits.current();
        return net.jqwik.api.Combinators.combine(FastRegisterPlans.valid(l), net.jqwik.api.Arbitraries.of(READ_SINK_FLAGS))
                .as((p, f) -> p.withFlags(f, true));
    }

    /**
     * MR-FR-11: on an adapter that sets NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED, NDK_OP_FLAG_RDMA_READ_SINK
     * (0x80), alone or with other defined flags, never makes a valid fast registration fail (when it does,
     * the kit posts the same request without 0x80: if that fails too the request is charged to MR-FRI-2).
     * NOT_APPLICABLE on other adapters (catalog {@code requires}).
     */
    @Property
    @Tag("MR-FR-11")
    void readSinkFlagNeverMakesAFastRegistrationFail(@ForAll("readSinkPlans") FrPlan plan) {
        Checks.cover("flags", Hex.u32(plan.flags()), this::readSinkPlans, p -> Hex.u32(p.flags()));
        NdkSession.inTry(s -> {
            FrScenario.prepare(s, plan).postValid();
        });
    }

    // ------------------------------------------------------------------ MR-FR-12

    @Provide
    Arbitrary<FrPlan> localSinkPlans() {
        Limits l = Limits.current();
        int sink = l.readSinkNotRequired() ? 0 : NdkOpFlags.RDMA_READ_SINK;
        Integer[] flags = {0x00, 0x08, 0x10, 0x18, 0x38, 0x30};
        return net.jqwik.api.Combinators.combine(FastRegisterPlans.validRemoteAccess(l), net.jqwik.api.Arbitraries.of(flags))
                .as((p, f) -> p.withFlags(f | sink, true));
    }

    /**
     * MR-FR-12: without NDK_OP_FLAG_ALLOW_LOCAL_WRITE (0x10) a fast-registered region is not a local sink:
     * an NdkRead into it (an SGE at BaseVirtualAddress + k with the MR's local token) completes with an
     * error and changes no byte; with 0x10 (or 0x30) it succeeds and the bytes arrive. On adapters without
     * RDMA_READ_SINK_NOT_REQUIRED both variants carry NDK_OP_FLAG_RDMA_READ_SINK (MR-FR-11, consumer part).
     * Then a peer NdkRead through the remote token succeeds with the region's bytes exactly when
     * NDK_OP_FLAG_ALLOW_REMOTE_READ (0x08) is set, and changes no byte.
     */
    @Property
    @Tag("MR-FR-12")
    void withoutLocalWriteTheRegionIsNoLocalSink(@ForAll("localSinkPlans") FrPlan plan) {
        Checks.cover("flags", Hex.u32(plan.flags()), this::localSinkPlans, p -> Hex.u32(p.flags()));
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            sc.postValid();
            Region r = sc.region(0);
            long k = Long.remainderUnsigned(plan.salt(), plan.length());
            int n = (int) Math.min(Math.min(16, s.maxAccess()), plan.length() - k);
            int local = s.localToken(sc.mr());
            NdkSge sge = new NdkSge(plan.baseVirtualAddress() + k, n, local);
            boolean allowed = (plan.flags() & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0;
            Access a = s.targetReadInto(sge, 0);
            if (allowed) {
                if (!a.succeeded()) {
                    throw Violations.of("MR-FR-12", a.outcome().call(), "success: Flags " + Hex.opFlags(plan.flags())
                            + " include ALLOW_LOCAL_WRITE, so the region is a local sink", a.describe());
                }
                r.buffer().acceptActual(0, (int) r.buffer().size());
            } else if (a.succeeded()) {
                throw Violations.of("MR-FR-12", a.outcome().call(), "an error completion: Flags " + Hex.opFlags(plan.flags())
                        + " lack NDK_OP_FLAG_ALLOW_LOCAL_WRITE (0x10), so the region is no local sink", a.describe());
            }
            s.checkMemory("MR-FR-12", () -> a.outcome().call());
            Region remote = sc.region(s.remoteToken(sc.mr()));
            boolean canRead = (plan.flags() & NdkOpFlags.ALLOW_REMOTE_READ) != 0;
            Access rd = Probes.readInside(s, remote, k, n);
            if (rd.succeeded() != canRead) {
                // Denied although allowed: the new registration's token does not grant its access (MR-FR-9), which a
                // provider breaking the addressing (MR-FR-10) also shows; granted although not allowed: MR-FR-12.
                throw Violations.of(canRead ? "MR-FR-9" : "MR-FR-12", rd.outcome().call(), (canRead ? "success" : "an error completion") + ": Flags "
                        + Hex.opFlags(plan.flags()) + (canRead ? " include" : " lack") + " NDK_OP_FLAG_ALLOW_REMOTE_READ (0x08)", rd.describe());
            }
            if (canRead && !Arrays.equals(rd.data(), Probes.expectedAt(remote, k, n))) {
                // BaseVirtualAddress + k did not reach byte k of the region: the addressing rule (MR-FR-10).
                throw Violations.of("MR-FR-10", rd.outcome().call(), "the region's bytes " + Hex.bytes(Probes.expectedAt(remote, k, n)),
                        Hex.bytes(rd.data()));
            }
            s.checkMemory("MR-FR-12", () -> rd.outcome().call());
        });
    }

    // ------------------------------------------------------------------ MR-FR-14

    @Provide
    Arbitrary<FrPlan> zeroLength() {
        return breaking(FrCase.ZERO_LENGTH);
    }

    /**
     * MR-FR-14: a fast registration with Length 0 grants no access: it fails, or if it is accepted no peer
     * read or write at BaseVirtualAddress, inside the pages or just before succeeds or changes a byte.
     */
    @Property
    @Tag("MR-FR-14")
    void zeroLengthGrantsNothing(@ForAll("zeroLength") FrPlan plan) {
        cover(plan, this::zeroLength);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            WrOutcome o = sc.post();
            Region r = sc.region(s.remoteToken(sc.mr()));
            long base = plan.baseVirtualAddress();
            long[] addresses = {base, base + 1, base + s.pageSize() / 2, base - 1};
            for (long a : addresses) {
                Access w = Probes.writeAt(s, r, a, 1);
                Access rd = Probes.readAt(s, r, a, 1);
                if (w.succeeded() || rd.succeeded()) {
                    throw Violations.of("MR-FR-14", plan.toString(), "no access at all through a registration of Length 0 (" + o.describe() + ")",
                            (w.succeeded() ? w : rd).describe());
                }
            }
            s.checkMemory("MR-FR-14", "peer accesses through a fast registration of Length 0");
        });
    }

    // ------------------------------------------------------------------ MR-FR-15 .. MR-FR-18

    @Provide
    Arbitrary<FrPlan> wraps() {
        return breaking(FrCase.WRAPS);
    }

    /** MR-FR-15: a fast registration whose end (BaseVirtualAddress + Length) passes 2^64 is never registered. */
    @Property
    @Tag("MR-FR-15")
    void wrappingRegionIsNeverRegistered(@ForAll("wraps") FrPlan plan) {
        cover(plan, this::wraps);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            Checks.neverRegistered(s, sc, "MR-FR-15", () -> "BaseVirtualAddress + Length passes 2^64");
        });
    }

    @Provide
    Arbitrary<FrPlan> fboTooBig() {
        return breaking(FrCase.FBO_TOO_BIG);
    }

    /** MR-FR-16: FBO ≥ PAGE_SIZE is never registered (FBO is an offset within the first page, AMB-10). */
    @Property
    @Tag("MR-FR-16")
    void fboOfAPageOrMoreIsNeverRegistered(@ForAll("fboTooBig") FrPlan plan) {
        cover(plan, this::fboTooBig);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            Checks.neverRegistered(s, sc, "MR-FR-16", () -> "FBO " + Hex.u32(plan.fbo()) + " >= PAGE_SIZE " + Hex.u32(s.pageSize()));
        });
    }

    @Provide
    Arbitrary<FrPlan> misaligned() {
        return breaking(FrCase.PAGE_MISALIGNED);
    }

    /**
     * MR-FR-17: a page array with an entry that is not PAGE_SIZE-aligned is never registered: the first, the
     * last, a middle one, or every entry moved by the same delta (byte addresses passed for pages).
     */
    @Property
    @Tag("MR-FR-17")
    void misalignedPageAddressIsNeverRegistered(@ForAll("misaligned") FrPlan plan) {
        cover(plan, this::misaligned);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            int shown = plan.misalignIndex() == FrPlan.EVERY_ENTRY ? 0 : plan.misalignIndex();
            Checks.neverRegistered(s, sc, "MR-FR-17", () -> "AdapterPageArray[" + shown + "] = "
                    + Hex.u64(sc.pageArray()[shown]) + " is not PAGE_SIZE-aligned"
                    + (plan.misalignIndex() == FrPlan.EVERY_ENTRY ? " (as is every entry)" : ""));
        });
    }

    @Provide
    Arbitrary<FrPlan> pagesOverInit() {
        return breaking(FrCase.PAGES_OVER_INIT);
    }

    /**
     * MR-FR-18: AdapterPageCount above the count given to NdkInitializeFastRegisterMr is never registered,
     * even when it is within FRMRPageCount (256 initialized, 257 used).
     */
    @Property
    @Tag("MR-FR-18")
    void moreThanTheInitializedPagesIsNeverRegistered(@ForAll("pagesOverInit") FrPlan plan) {
        cover(plan, this::pagesOverInit);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            Checks.neverRegistered(s, sc, "MR-FR-18", () -> "AdapterPageCount " + Hex.u32(plan.pageCount())
                    + " > the initialized AdapterPageCount " + Hex.u32(plan.initPageCount()));
        });
    }

    // ------------------------------------------------------------------ MR-FR-19

    @Provide
    Arbitrary<FrPlan> undefinedFlag() {
        return breaking(FrCase.UNDEFINED_FLAG);
    }

    /**
     * MR-FR-19: the undefined NDK_OP_FLAG bit 0x20 (without 0x10, so not ALLOW_REMOTE_WRITE 0x30) never
     * grants remote write: if the request is accepted, a peer write anywhere in the region fails and
     * changes no byte. The same request without the bit 0x20 (its defined flags only, e.g. 0x00 or 0x08:
     * valid, without ALLOW_LOCAL_WRITE) must then register: the provider's check of the bit 0x20 may refuse
     * that bit, not the defined flags around it.
     */
    @Property
    @Tag("MR-FR-19")
    void undefinedBit0x20NeverGrantsRemoteWrite(@ForAll("undefinedFlag") FrPlan plan) {
        cover(plan, this::undefinedFlag);
        NdkSession.inTry(s -> {
            FrScenario sc = FrScenario.prepare(s, plan);
            WrOutcome o = sc.post();
            if (FrScenario.registered(o)) {
                Region r = sc.region(s.remoteToken(sc.mr()));
                for (int i = 0; i < 2; i++) {
                    long k = pickOffset(plan, i);
                    Access w = Probes.writeAt(s, r, plan.baseVirtualAddress() + k, 1);
                    if (w.succeeded()) {
                        throw Violations.of("MR-FR-19", plan.toString(), "no remote write: Flags " + Hex.opFlags(plan.flags())
                                + " carry the undefined bit 0x20 but not ALLOW_REMOTE_WRITE (0x30)", w.describe());
                    }
                }
            }
            s.checkMemory("MR-FR-19", () -> "peer writes through a registration with Flags " + Hex.opFlags(plan.flags()));
            FrPlan defined = plan.withFlags(plan.flags() & ~0x20, plan.remoteAccess());
            FrScenario control = FrScenario.prepare(s, defined);
            WrOutcome c = control.post();
            if (!FrScenario.registered(c)) {
                org.ndktck.tck.RuleViolation v = control.diagnoseValidFailure(c);
                if (v.ruleId().equals("MR-FR-11")) {
                    throw v;
                }
                throw Violations.of("MR-FR-19", c.call(), "STATUS_SUCCESS for the same request without the undefined bit 0x20 (Flags "
                        + Hex.opFlags(defined.flags()) + ", all defined): the provider may refuse the bit 0x20, not the request's defined flags",
                        c.describe());
            }
        });
    }
}
