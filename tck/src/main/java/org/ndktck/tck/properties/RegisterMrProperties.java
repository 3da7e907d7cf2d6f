package org.ndktck.tck.properties;

import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.generators.RegCase;
import org.ndktck.tck.generators.RegPlan;
import org.ndktck.tck.generators.RegisterPlans;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.RegScenario;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Violations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Properties of NdkRegisterMr (catalog section "NdkRegisterMr"; the NDK_FN_REGISTER_MR page). Every
 * scenario is a {@link RegScenario} built from a generated {@link RegPlan} that is valid or breaks exactly
 * the property's rule. "Rejected" means the call ends (inline or through its completion) in an error.
 */
@NdkKit
public class RegisterMrProperties {

    private static void cover(RegPlan plan, Supplier<Arbitrary<RegPlan>> gen) {
        Checks.cover("case", plan.edge(), gen, RegPlan::edge);
    }

    private static void mustBeRejected(Outcome o, String rule, String why, NtStatus listed) {
        Checks.mustFail(rule, o.call(), o.status(), o.describe(), listed, why + ": the registration is rejected");
    }

    // ------------------------------------------------------------------ MR-REG-2

    @Provide
    Arbitrary<RegPlan> brokenChain() {
        return RegisterPlans.breaking(RegCase.BROKEN_CHAIN, Limits.current());
    }

    /**
     * MR-REG-2: an MDL chain that is not virtually contiguous inside [VA, VA + Length) is rejected,
     * preferably with STATUS_INVALID_PARAMETER (another error is ADVISORY): chains broken just inside
     * Length, broken backwards, and broken at the third MDL.
     */
    @Property
    @Tag("MR-REG-2")
    void chainBrokenInsideLengthIsRejected(@ForAll("brokenChain") RegPlan plan) {
        cover(plan, this::brokenChain);
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            mustBeRejected(sc.register(), "MR-REG-2", "the chain is not virtually contiguous at region byte " + Hex.u64(plan.breakOffset())
                    + ", inside Length " + Hex.u64(plan.length()), NtStatus.STATUS_INVALID_PARAMETER);
        });
    }

    @Provide
    Arbitrary<RegPlan> brokenAfterLength() {
        return RegisterPlans.brokenAfterLength(Limits.current());
    }

    /**
     * MR-REG-2, the other half: a chain that stops being contiguous only at or after Length registers fine
     * (the provider looks at [VA, VA + Length), not at the whole chain).
     */
    @Property
    @Tag("MR-REG-2")
    void chainBrokenOnlyAfterLengthRegisters(@ForAll("brokenAfterLength") RegPlan plan) {
        cover(plan, this::brokenAfterLength);
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome o = sc.register();
            Refusals.discardIfRefused(o.status());
            if (!o.succeeded()) {
                throw Violations.of("MR-REG-2", o.call(), "STATUS_SUCCESS: the chain is contiguous over [VA, VA + Length); it breaks only at region byte "
                        + Hex.u64(plan.breakOffset()), o.describe());
            }
        });
    }

    // ------------------------------------------------------------------ MR-REG-4

    @Provide
    Arbitrary<RegPlan> remoteRw() {
        return RegisterPlans.validWithFlags(Limits.current(), NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ,
                NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.RDMA_READ_SINK);
    }

    /**
     * MR-REG-4: the remote base is the MDL's virtual address; zero-based addressing is not supported. A
     * peer write at VA + k changes exactly region byte k, a read there returns it; an access at k alone,
     * VA − 1, VA + Length, straddling either end, or at the rest of the first and last page fails and
     * changes no byte.
     */
    @Property
    @Tag("MR-REG-4")
    void remoteAddressesAreAbsolute(@ForAll("remoteRw") RegPlan plan) {
        cover(plan, this::remoteRw);
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            s.registerValid(sc.mr(), sc.chain(), plan.length(), plan.flags());
            Region r = sc.region(s.remoteToken(sc.mr()));
            DataPathChecks.dataPathIsExact(s, r, plan.salt(), "MR-REG-4", "MR-REG-8");
        });
    }

    // ------------------------------------------------------------------ MR-REG-7

    @Provide
    Arbitrary<RegPlan> readSink() {
        return RegisterPlans.validReadSink(Limits.current());
    }

    /**
     * MR-REG-7: on an adapter that sets NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED, NDK_MR_FLAG_RDMA_READ_SINK
     * (0x8), alone or with other defined flags (0x8, 0x9, 0xA, 0xB, 0xD, 0xF), never makes a valid
     * registration fail. NOT_APPLICABLE on other adapters (catalog {@code requires}).
     */
    @Property
    @Tag("MR-REG-7")
    void readSinkFlagNeverMakesARegistrationFail(@ForAll("readSink") RegPlan plan) {
        Checks.cover("flags", Hex.u32(plan.flags()), this::readSink, p -> Hex.u32(p.flags()));
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome o = sc.register();
            Refusals.discardIfRefused(o.status());
            if (!o.succeeded()) {
                Outcome without = s.register(sc.mr(), sc.chain(), plan.length(), plan.flags() & ~NdkMrFlags.RDMA_READ_SINK);
                if (!without.succeeded()) {
                    throw Violations.of("MR-REG-10", without.call(), "STATUS_SUCCESS for a valid registration (the kit tried it with and "
                            + "without NDK_MR_FLAG_RDMA_READ_SINK)", without.describe());
                }
                throw Violations.of("MR-REG-7", o.call(), "STATUS_SUCCESS: NDK_MR_FLAG_RDMA_READ_SINK never makes a valid registration fail "
                        + "on an adapter with RDMA_READ_SINK_NOT_REQUIRED", o.describe() + ", while the same request without it succeeded");
            }
        });
    }

    // ------------------------------------------------------------------ MR-REG-8

    private static final Integer[] ACCESS_FLAGS = {0x0, 0x1, 0x2, 0x3, 0x5, 0x7, 0x8, 0x9, 0xA, 0xD};

    @Provide
    Arbitrary<RegPlan> accessFlags() {
        return Combinators.combine(RegisterPlans.validWithFlags(Limits.current(), 0x7), Arbitraries.of(ACCESS_FLAGS)).as(RegPlan::withFlags);
    }

    /**
     * MR-REG-8: NDK_MR_FLAG_* are access permissions. A peer read succeeds exactly when ALLOW_REMOTE_READ
     * (0x2) is set and a peer write exactly when ALLOW_REMOTE_WRITE (0x5, both bits) is; an NdkRead into the
     * region through its local token (the region as a local sink) succeeds exactly when ALLOW_LOCAL_WRITE
     * (0x1) is set (checked when the read-sink rule MR-REG-6 allows a sink: RDMA_READ_SINK_NOT_REQUIRED or
     * the RDMA_READ_SINK flag 0x8); a refused access changes no byte.
     */
    @Property
    @Tag("MR-REG-8")
    void flagsGrantExactlyTheirAccess(@ForAll("accessFlags") RegPlan plan) {
        Checks.cover("flags", Hex.u32(plan.flags()), this::accessFlags, p -> Hex.u32(p.flags()));
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            s.registerValid(sc.mr(), sc.chain(), plan.length(), plan.flags());
            Region r = sc.region(s.remoteToken(sc.mr()));
            long k = Long.remainderUnsigned(plan.salt(), plan.length());
            int n = (int) Math.min(Math.min(8, s.maxAccess()), plan.length() - k);
            boolean canRead = (plan.flags() & NdkMrFlags.ALLOW_REMOTE_READ) != 0;
            boolean canWrite = NdkMrFlags.allowsRemoteWrite(plan.flags());
            Access rd = Probes.readInside(s, r, k, n);
            if (rd.succeeded() != canRead) {
                throw Violations.of("MR-REG-8", rd.outcome().call(), (canRead ? "success" : "failure") + ": Flags " + Hex.mrFlags(plan.flags())
                        + (canRead ? " include" : " lack") + " ALLOW_REMOTE_READ (0x2)", rd.describe());
            }
            if (canRead && !Arrays.equals(rd.data(), Probes.expectedAt(r, k, n))) {
                throw Violations.of("MR-REG-8", rd.outcome().call(), "the region's bytes " + Hex.bytes(Probes.expectedAt(r, k, n)) + " from region byte " + k,
                        "read " + Hex.differing(Probes.expectedAt(r, k, n), rd.data(), k, "region byte"));
            }
            Access w = Probes.writeInside(s, r, k, n);
            if (w.succeeded() != canWrite) {
                throw Violations.of("MR-REG-8", w.outcome().call(), (canWrite ? "success" : "failure") + ": Flags " + Hex.mrFlags(plan.flags())
                        + (canWrite ? " include" : " lack") + " ALLOW_REMOTE_WRITE (0x5)", w.describe());
            }
            s.checkMemory("MR-REG-8", () -> w.outcome().call());
            boolean sinkAllowedByReadSinkRule = s.readSinkNotRequired() || (plan.flags() & NdkMrFlags.RDMA_READ_SINK) != 0;
            if (sinkAllowedByReadSinkRule) {
                boolean canSink = (plan.flags() & NdkMrFlags.ALLOW_LOCAL_WRITE) != 0;
                NdkSge sge = new NdkSge(r.base() + k, n, s.localToken(sc.mr()));
                Access a = s.targetReadInto(sge, 0);
                if (a.succeeded() != canSink) {
                    throw Violations.of("MR-REG-8", a.outcome().call(), (canSink ? "success" : "an error completion") + ": Flags "
                            + Hex.mrFlags(plan.flags()) + (canSink ? " include" : " lack") + " NDK_MR_FLAG_ALLOW_LOCAL_WRITE (0x1), so the region is"
                            + (canSink ? "" : " no") + " local sink of an NdkRead", a.describe());
                }
                if (canSink) {
                    r.buffer().acceptActual(0, (int) r.buffer().size());
                }
                s.checkMemory("MR-REG-8", () -> a.outcome().call());
            }
        });
    }

    // ------------------------------------------------------------------ MR-REG-9

    @Provide
    Arbitrary<RegPlan> anyRequest() {
        Limits l = Limits.current();
        List<Arbitrary<RegPlan>> all = new ArrayList<>();
        for (RegCase c : RegCase.values()) {
            all.add(RegisterPlans.breaking(c, l));
        }
        all.add(RegisterPlans.brokenAfterLength(l));
        @SuppressWarnings("unchecked")
        Arbitrary<RegPlan>[] arr = all.toArray(new Arbitrary[0]);
        return Arbitraries.oneOf(List.of(arr));
    }

    /**
     * MR-REG-9: whatever the request (valid, or breaking one rule), NdkRegisterMr returns STATUS_SUCCESS,
     * STATUS_PENDING or an error code (STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another),
     * never a warning or an informational code, and a PENDING call completes with STATUS_SUCCESS or an
     * error (checked by the session for every registration; here over every kind of request).
     */
    @Property
    @Tag("MR-REG-9")
    void resultIsInTheStatusTable(@ForAll("anyRequest") RegPlan plan) {
        Checks.cover("case", plan.kind().name(), this::anyRequest, p -> p.kind().name());
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            sc.register();
        });
    }

    // ------------------------------------------------------------------ MR-REG-10

    /**
     * One case of the MR-REG-10 property.
     *
     * @param length NdkRegisterMr Length, bytes (SIZE_T in a long, unsigned)
     * @param valid  true when Length is at most MaxRegistrationSize (the registration should work)
     */
    record RegistrationSize(long length, boolean valid) {
        @Override
        public String toString() {
            return "Length " + Hex.u64(length) + (valid ? " (within" : " (beyond") + " MaxRegistrationSize)";
        }
    }

    @Provide
    Arbitrary<RegistrationSize> registrationSizes() {
        Limits l = Limits.current();
        long p = l.pageSize();
        long max = l.maxRegistrationSize();
        long cap = (1L << 32) + 2 * p;
        long feasible = Long.compareUnsigned(max, cap) <= 0 ? max : cap;
        List<RegistrationSize> edges = new ArrayList<>();
        edges.add(new RegistrationSize(Math.min(feasible, p), true));
        edges.add(new RegistrationSize(feasible, true));
        if (Long.compareUnsigned(max, 1L << 33) <= 0) {
            edges.add(new RegistrationSize(max + 1, false));
            edges.add(new RegistrationSize(max + p, false));
        }
        RegistrationSize[] e = edges.toArray(new RegistrationSize[0]);
        Arbitrary<RegistrationSize> random = Combinators.combine(Arbitraries.longs().between(1, Math.min(feasible, 64 * p)),
                Arbitraries.integers().between(0, 1))
                .as((len, beyond) -> beyond == 1 && Long.compareUnsigned(max, 1L << 33) <= 0
                        ? new RegistrationSize(max + len, false) : new RegistrationSize(len, true));
        return random.withoutEdgeCases().edgeCases(c -> c.filter(x -> false).add(e));
    }

    /**
     * MR-REG-10: MaxRegistrationSize is the largest single registration: a registration of up to that many
     * bytes works (resources permitting: STATUS_INSUFFICIENT_RESOURCES is accepted), one of more fails
     * cleanly (one byte and one page beyond; only where the kit can build such a chain, i.e. a
     * MaxRegistrationSize up to 2^33 bytes; registrations within it go up to 2^32 + 2 pages).
     */
    @Property(tries = 200)
    @Tag("MR-REG-10")
    void maxRegistrationSizeIsTheLimit(@ForAll("registrationSizes") RegistrationSize size) {
        long length = size.length();
        boolean valid = size.valid();
        Observations.collect(Observations.WITHIN_LIMIT, valid ? "within MaxRegistrationSize" : "beyond MaxRegistrationSize");
        NdkSession.inTry(s -> {
            long p = s.pageSize();
            int perMdl = (int) ((1L << 32) - p);
            List<Integer> counts = new ArrayList<>();
            for (long left = length; left > 0; left -= Integer.toUnsignedLong(perMdl)) {
                counts.add((int) Math.min(left, Integer.toUnsignedLong(perMdl)));
            }
            int[] bc = counts.stream().mapToInt(Integer::intValue).toArray();
            RegPlan plan = new RegPlan(RegCase.VALID, "size", 0x10000L * p, bc, -1, 0, length, 0x1, 0);
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome o = sc.registerPastLimit();
            Refusals.discardIfRefused(o.status());
            if (valid && !o.succeeded()) {
                throw Violations.of("MR-REG-10", o.call(), "STATUS_SUCCESS: Length " + Hex.u64(length) + " is within MaxRegistrationSize "
                        + Hex.u64(s.info().maxRegistrationSize()), o.describe());
            }
            if (!valid && o.succeeded()) {
                throw Violations.of("MR-REG-10", o.call(), "a failure: Length " + Hex.u64(length) + " exceeds MaxRegistrationSize "
                        + Hex.u64(s.info().maxRegistrationSize()), o.describe());
            }
        });
    }

    /**
     * MR-REG-10, the half beyond the limit on its own: a registration of Length MaxRegistrationSize plus 1 to 64 pages
     * (or plus one byte) fails cleanly. The kit builds such a chain only for a MaxRegistrationSize up to 2^33 bytes;
     * above that each try compares nothing ({@link org.ndktck.tck.harness.ChecksReached#notReached}), so this
     * property's {@code checksRun} for MR-REG-10 is 0 and the report names the setting that reaches the check.
     *
     * @param pagesPast pages beyond MaxRegistrationSize (0: one byte beyond)
     */
    @Property(tries = 20)
    @Tag("MR-REG-10")
    void registrationBeyondMaxRegistrationSizeFails(@ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 64) int pagesPast) {
        NdkSession.inTry(s -> {
            long max = s.info().maxRegistrationSize();
            if (Long.compareUnsigned(max, 1L << 33) > 0) {
                org.ndktck.tck.harness.ChecksReached.notReached("MR-REG-10", BEYOND_LIMIT_UNREACHED + " (MaxRegistrationSize is "
                        + Hex.u64(max) + ")");
                return;
            }
            long length = max + (pagesPast == 0 ? 1 : (long) pagesPast * s.pageSize());
            Outcome o = registerLength(s, length);
            Refusals.discardIfRefused(o.status());
            if (o.succeeded()) {
                throw Violations.of("MR-REG-10", o.call(), "a failure: Length " + Hex.u64(length) + " exceeds MaxRegistrationSize "
                        + Hex.u64(max), o.describe());
            }
        });
    }

    /** Why the beyond-the-limit half of MR-REG-10 compared nothing: the adapter's limit is past what the kit builds. */
    static final String BEYOND_LIMIT_UNREACHED = "a registration beyond MaxRegistrationSize was not tried: the kit builds"
            + " MDL chains past the limit only for a MaxRegistrationSize up to 2^33 bytes; a provider setting of"
            + " MaxRegistrationSize at most 2^33 reaches the check (the reference provider: --set maxRegistrationSize=4294967296)";

    /** Registers {@code length} bytes at a fresh VA over a chain of MDLs of at most 2^32 - PAGE_SIZE bytes each. */
    private static Outcome registerLength(NdkSession s, long length) {
        long p = s.pageSize();
        int perMdl = (int) ((1L << 32) - p);
        List<Integer> counts = new ArrayList<>();
        for (long left = length; left > 0; left -= Integer.toUnsignedLong(perMdl)) {
            counts.add((int) Math.min(left, Integer.toUnsignedLong(perMdl)));
        }
        int[] bc = counts.stream().mapToInt(Integer::intValue).toArray();
        RegPlan plan = new RegPlan(RegCase.VALID, "size", 0x10000L * p, bc, -1, 0, length, 0x1, 0);
        return RegScenario.prepare(s, plan).registerPastLimit();
    }

    // ------------------------------------------------------------------ MR-REG-11 .. 14

    @Provide
    Arbitrary<RegPlan> zeroLength() {
        return RegisterPlans.breaking(RegCase.ZERO_LENGTH, Limits.current());
    }

    /**
     * MR-REG-11: a registration with Length 0 grants no access: it fails, or if accepted no peer read or
     * write at VA, inside the chain or just before it succeeds or changes a byte.
     */
    @Property
    @Tag("MR-REG-11")
    void zeroLengthGrantsNothing(@ForAll("zeroLength") RegPlan plan) {
        cover(plan, this::zeroLength);
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome o = sc.register();
            if (o.succeeded()) {
                Region r = sc.region(s.remoteToken(sc.mr()));
                long va = plan.virtualAddress();
                long[] addresses = {va, va + plan.chainBytes() / 2, va - 1};
                for (long a : addresses) {
                    Access w = Probes.writeAt(s, r, a, 1);
                    Access rd = Probes.readAt(s, r, a, 1);
                    if (w.succeeded() || rd.succeeded()) {
                        throw Violations.of("MR-REG-11", o.call(), "no access at all through a registration of Length 0",
                                (w.succeeded() ? w : rd).describe());
                    }
                }
            }
            s.checkMemory("MR-REG-11", "peer accesses through a registration of Length 0");
        });
    }

    @Provide
    Arbitrary<RegPlan> wraps() {
        return RegisterPlans.breaking(RegCase.WRAPS, Limits.current());
    }

    /**
     * MR-REG-12: a registration whose end (VA + Length) passes 2^64 is rejected, e.g. one MDL at
     * 0xFFFFFFFFFFFFF000 with ByteCount and Length 0x2000.
     */
    @Property
    @Tag("MR-REG-12")
    void wrappingRegionIsRejected(@ForAll("wraps") RegPlan plan) {
        cover(plan, this::wraps);
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            mustBeRejected(sc.register(), "MR-REG-12", "VA " + Hex.u64(plan.virtualAddress()) + " + Length " + Hex.u64(plan.length())
                    + " passes 2^64", null);
        });
    }

    @Provide
    Arbitrary<RegPlan> overChain() {
        return RegisterPlans.breaking(RegCase.OVER_CHAIN, Limits.current());
    }

    /**
     * MR-REG-13: Length above the chain's total ByteCount is rejected (one past, a page past, 2^32 past, top bit
     * set), also when the chain holds an MDL of ByteCount 0 (it adds nothing to the total).
     */
    @Property
    @Tag("MR-REG-13")
    void lengthBeyondTheChainIsRejected(@ForAll("overChain") RegPlan plan) {
        cover(plan, this::overChain);
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            mustBeRejected(sc.register(), "MR-REG-13", "Length " + Hex.u64(plan.length()) + " exceeds the chain's "
                    + Hex.u64(plan.chainBytes()) + " bytes", null);
        });
    }

    @Provide
    Arbitrary<RegPlan> undefinedFlags() {
        return RegisterPlans.breaking(RegCase.UNDEFINED_FLAGS, Limits.current());
    }

    /**
     * MR-REG-14: undefined NDK_MR_FLAG bits (0x4 without 0x1, bits above 0xF) never grant remote write: if
     * the registration is accepted, a peer write anywhere in it fails and changes no byte. The same
     * registration with only its defined ALLOW_LOCAL_WRITE / ALLOW_REMOTE_READ bits (e.g. 0x0 or 0x2: valid,
     * often without ALLOW_LOCAL_WRITE) must then succeed: the provider may refuse undefined bits, not the
     * defined flags around them.
     */
    @Property
    @Tag("MR-REG-14")
    void undefinedFlagBitsNeverGrantRemoteWrite(@ForAll("undefinedFlags") RegPlan plan) {
        cover(plan, this::undefinedFlags);
        NdkSession.inTry(s -> {
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome o = sc.register();
            if (o.succeeded()) {
                Region r = sc.region(s.remoteToken(sc.mr()));
                long[] ks = {0, plan.length() - 1};
                for (long k : ks) {
                    Access w = Probes.writeAt(s, r, plan.virtualAddress() + k, 1);
                    if (w.succeeded()) {
                        throw Violations.of("MR-REG-14", o.call(), "no remote write: Flags " + Hex.mrFlags(plan.flags())
                                + " carry undefined bits but not ALLOW_REMOTE_WRITE (0x5)", w.describe());
                    }
                }
            }
            s.checkMemory("MR-REG-14", () -> "peer writes through a registration with Flags " + Hex.mrFlags(plan.flags()));
            int defined = plan.flags() & (NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
            RegScenario control = RegScenario.prepare(s, plan.withFlags(defined));
            Outcome c = control.register();
            Refusals.discardIfRefused(c.status());
            if (!c.succeeded()) {
                throw Violations.of("MR-REG-14", c.call(), "STATUS_SUCCESS for the same registration with only its defined access bits (Flags "
                        + Hex.mrFlags(defined) + "): the provider may refuse undefined bits, not the defined flags around them", c.describe());
            }
        });
    }
}
