package org.ndktck.tck.properties;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.tck.generators.CombinedRegPlans;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.generators.RegCase;
import org.ndktck.tck.generators.RegPlan;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.ChecksReached;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.RegScenario;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Violations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * COV-1 where edge values meet: a successful NdkRegisterMr covers all of its Length, for requests whose parameters
 * (FBO, MDL count, where inner MDLs end, Length class, VA class, size of the last MDL) take their edge classes
 * together, pairwise at least ({@link CombinedRegPlans}), and for a Length past MaxRegistrationSize that the provider
 * accepted anyway (MR-REG-10 makes the acceptance ADVISORY only; a success that then covers less than its Length is a
 * COV-1 FAIL: memory the consumer was told is registered answers as out of bounds, so data is lost).
 *
 * <p>A success is probed over its whole Length: the peer writes every byte (in accesses of up to the session's largest
 * access) and reads every byte back, then writes and reads the byte at Length (one past the end), which must fail and
 * change nothing. A larger region (above {@link #SWEEP_LIMIT} bytes) is probed one byte at a time at its first and last
 * bytes, on both sides of its first and last {@link #BOUNDARIES} page boundaries, and at two bytes chosen by the plan's
 * salt.
 */
@NdkKit
public class CombinedEdgeProperties {

    /** The largest region probed byte for byte (bytes). */
    static final long SWEEP_LIMIT = 16 * 1024;
    /** Page boundaries of a larger region probed on both sides, counted from each end. */
    static final int BOUNDARIES = 8;

    /** The names of {@link CombinedRegPlans#PARAMETERS}, in order, for the statistics' labels. */
    private static final List<String> PARAMETER_NAMES = List.of("FBO", "MDL count", "inner MDL ends", "Length", "VA", "last MDL");

    @Provide
    Arbitrary<RegPlan> combined() {
        return CombinedRegPlans.plans(Limits.current());
    }

    /**
     * COV-1 (with MR-REG-4's addressing): each covering-array row of edge classes, then random combinations; a success
     * must cover every byte of Length at VA + k, and the byte at Length must answer out of bounds. A refusal with
     * STATUS_INSUFFICIENT_RESOURCES is allowed (the try is discarded); another refusal of these valid requests is
     * MR-REG-10's and MR-REG-1's subject, not judged here.
     *
     * @param plan the request
     */
    @Property(tries = 60)
    @org.ndktck.tck.harness.LeastTries(60) // every covering-array row (at most 45, PairwiseCoveringTest) at every profile
    @Tag("COV-1")
    void edgeValuesTogetherStillCoverTheWholeLength(@ForAll("combined") RegPlan plan) {
        String[] classes = plan.edge().split(", ");
        for (int i = 0; i < classes.length; i++) {
            int parameter = i;
            // the covering array's rows are the generator's edge cases: every class of every parameter must come
            Checks.cover("edge class: " + PARAMETER_NAMES.get(i), classes[i],
                    () -> CombinedRegPlans.plans(Limits.current()), p -> p.edge().split(", ")[parameter]);
        }
        NdkSession.inTry(s -> {
            s.qps();
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome o = sc.register();
            Refusals.discardIfRefused(o.status());
            net.jqwik.api.Assume.that(o.succeeded());
            Region r = sc.region(s.remoteToken(sc.mr()));
            coversItsWholeLength(s, r, plan.salt(), o.call());
        });
    }

    /**
     * How far past MaxRegistrationSize {@link #aLengthPastMaxRegistrationSizeThatSucceedsCoversIt} goes.
     *
     * @param pagesPast 0: one byte; otherwise that many pages (4096-byte pages: up to 64 pages)
     */
    record PastLimit(int pagesPast) {
    }

    /** Why the past-limit check reaches no outcome on an adapter whose MaxRegistrationSize the kit cannot exceed. */
    static final String PAST_LIMIT_UNREACHED = "the kit builds a chain past MaxRegistrationSize only for a MaxRegistrationSize up "
            + "to 2^33 bytes (set maxRegistrationSize on a provider that takes it)";
    /** Why it reaches none on an adapter that refused every registration past its limit (what MR-REG-10 asks). */
    static final String PAST_LIMIT_REFUSED = "the adapter refused the registration past MaxRegistrationSize, as MR-REG-10 asks: no "
            + "success there to probe";

    /**
     * COV-1 past an advertised limit: NdkRegisterMr of MaxRegistrationSize plus one byte or plus 1 to 64 pages. A
     * refusal is what MR-REG-10 asks (judged there); a success must cover its whole Length (the bytes past the limit
     * included) and no more. Only where the kit can build such a chain (MaxRegistrationSize up to 2^33 bytes);
     * elsewhere the try reaches no check ({@link ChecksReached#notReached}).
     *
     * @param pagesPast 0: one byte past the limit; otherwise that many pages past it
     */
    @Property(tries = 12)
    @Tag("COV-1")
    void aLengthPastMaxRegistrationSizeThatSucceedsCoversIt(@ForAll @IntRange(min = 0, max = 64) int pagesPast) {
        String[] seen = {"not reached"};
        try {
            pastLimit(pagesPast, seen);
        } finally {
            Observations.collect(Observations.PAST_LIMIT, seen[0]);
        }
    }

    private static void pastLimit(int pagesPast, String[] seen) {
        NdkSession.inTry(s -> {
            long max = s.info().maxRegistrationSize();
            if (Long.compareUnsigned(max, 1L << 33) > 0) {
                ChecksReached.notReached("COV-1", PAST_LIMIT_UNREACHED + " (MaxRegistrationSize is " + Hex.u64(max) + ")");
                return;
            }
            s.qps();
            long p = s.pageSize();
            long length = max + (pagesPast == 0 ? 1 : pagesPast * p);
            int perMdl = (int) ((1L << 32) - p);
            List<Integer> counts = new ArrayList<>();
            for (long left = length; left > 0; left -= Integer.toUnsignedLong(perMdl)) {
                counts.add((int) Math.min(left, Integer.toUnsignedLong(perMdl)));
            }
            int[] bc = counts.stream().mapToInt(Integer::intValue).toArray();
            long va = 0x40000L * p + (pagesPast % 2 == 0 ? 0 : p - 1 - pagesPast);
            RegPlan plan = new RegPlan(RegCase.VALID, "past MaxRegistrationSize", va, bc, -1, 0, length,
                    CombinedRegPlans.FLAGS, 0x9E3779B97F4A7C15L * (pagesPast + 1));
            RegScenario sc = RegScenario.prepare(s, plan);
            Outcome o = sc.registerPastLimit();
            Refusals.discardIfRefused(o.status());
            if (!o.succeeded()) {
                seen[0] = "refused";
                ChecksReached.notReached("COV-1", PAST_LIMIT_REFUSED);
                return;
            }
            seen[0] = "accepted: probed";
            Region r = sc.region(s.remoteToken(sc.mr()));
            coversItsWholeLength(s, r, plan.salt(), o.call() + " (past MaxRegistrationSize " + Hex.u64(max) + ", accepted)");
        });
    }

    /**
     * The success of {@code what} covers exactly its region: every byte of Length (or, above {@link #SWEEP_LIMIT}, the
     * probed ones) is written and read back by the peer; the byte at Length answers out of bounds.
     */
    static void coversItsWholeLength(NdkSession s, Region r, long salt, String what) {
        long len = r.length();
        int chunk = Math.max(1, s.maxAccess());
        List<long[]> spans = new ArrayList<>();
        if (Long.compareUnsigned(len, SWEEP_LIMIT) <= 0) {
            for (long k = 0; k < len; k += chunk) {
                spans.add(new long[]{k, Math.min(chunk, len - k)});
            }
        } else {
            long p = s.pageSize();
            java.util.TreeSet<Long> ks = new java.util.TreeSet<>(java.util.Comparator.comparingLong(x -> x));
            ks.add(0L);
            ks.add(len - 1);
            ks.add(Long.remainderUnsigned(salt, len));
            ks.add(Long.remainderUnsigned(salt >>> 13, len));
            long first = p - (r.base() & (p - 1)); // region byte of the first page boundary inside it
            long last = (r.base() + len - 1 & -p) - r.base(); // region byte of the last one
            for (int i = 0; i < BOUNDARIES; i++) {
                for (long b : new long[]{first + i * p, last - i * p}) {
                    if (b > 0 && b < len) {
                        ks.add(b - 1);
                        ks.add(b);
                    }
                }
            }
            for (long k : ks) {
                spans.add(new long[]{k, 1});
            }
        }
        for (long[] span : spans) {
            long k = span[0];
            int n = (int) span[1];
            Access w = Probes.writeInside(s, r, k, n);
            if (!w.succeeded()) {
                throw Violations.of("COV-1", w.outcome().call(), "success: region bytes " + Hex.u64(k) + " .. " + Hex.u64(k + n - 1)
                        + " lie inside Length " + Hex.u64(len) + " of " + what, w.describe());
            }
            Access rd = Probes.readInside(s, r, k, n);
            byte[] expected = Probes.expectedAt(r, k, n);
            if (!rd.succeeded() || !Arrays.equals(rd.data(), expected)) {
                throw Violations.of("COV-1", rd.outcome().call(), "success with the bytes just written at region byte " + Hex.u64(k)
                        + " (inside Length " + Hex.u64(len) + " of " + what + ")", rd.describe());
            }
        }
        s.checkMemory("COV-1", () -> "peer writes over Length " + Hex.u64(len) + " of " + what);
        r.end().ifPresent(end -> {
            Access w = Probes.writeAt(s, r, end, 1);
            if (w.succeeded()) {
                throw Violations.of("COV-1", w.outcome().call(), "a failure: the byte at Length (one past the end) of " + what
                        + " is outside it", w.describe());
            }
            Access rd = Probes.readAt(s, r, end, 1);
            if (rd.succeeded()) {
                throw Violations.of("COV-1", rd.outcome().call(), "a failure: the byte at Length (one past the end) of " + what
                        + " is outside it", rd.describe());
            }
            s.checkMemory("COV-1", () -> "peer accesses one past the end of " + what + " (must change nothing)");
        });
        ChecksReached.reached("COV-1");
    }
}
