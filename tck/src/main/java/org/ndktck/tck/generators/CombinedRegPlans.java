package org.ndktck.tck.generators;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import java.util.ArrayList;
import java.util.List;

import static org.ndktck.tck.generators.FastRegisterPlans.mix;
import static org.ndktck.tck.generators.FastRegisterPlans.pick;

/**
 * Valid NdkRegisterMr requests ({@link RegPlan}, kind VALID, flags ALLOW_LOCAL_WRITE | ALLOW_REMOTE_READ |
 * ALLOW_REMOTE_WRITE) in which the edge classes of every request parameter meet those of every other: the rows of a
 * pairwise covering array ({@link PairwiseCovering}) over the {@link #PARAMETERS} come first (as jqwik edge cases,
 * deterministic), random class combinations follow. Degenerate values are classes of their own: a one-byte Length, a
 * one-byte MDL inside a chain, a one-byte last MDL, a region whose last page holds one byte.
 *
 * <p>Every plan is a request the pages require to work: the chain is virtually contiguous over Length, Length is at least
 * 1 and at most the chain's bytes (MR-REG-1), the first MDL's VA is non-zero and the region does not wrap past 2^64.
 * Sizes are bytes; VAs and Lengths are unsigned 64-bit values in a long; ByteCounts unsigned 32-bit values in an int.
 */
public final class CombinedRegPlans {
    private CombinedRegPlans() {
    }

    /** The parameters and their edge classes, in covering-array order. */
    public static final List<List<String>> PARAMETERS = List.of(
            List.of("FBO 0", "FBO 1", "FBO inside the page", "FBO PAGE_SIZE - 1"),
            List.of("1 MDL", "2 MDLs", "3 MDLs"),
            List.of("inner MDLs end on page boundaries", "an inner MDL ends inside a page", "a one-byte inner MDL"),
            List.of("Length 1", "Length = chain", "Length = chain - 1", "region ends on a page boundary",
                    "region's last page holds one byte", "Length inside the chain"),
            List.of("VA low", "VA with the top bit set", "region ending near 2^64", "region across 2^63", "region across 2^32"),
            List.of("last MDL of 1 byte", "last MDL up to its page's end", "last MDL of random size", "last MDL of several pages"));

    /** Index of each parameter in a row. */
    static final int FBO = 0;
    static final int MDLS = 1;
    static final int SHAPE = 2;
    static final int LENGTH = 3;
    static final int VA = 4;
    static final int LAST = 5;

    /** The access flags of every plan (ALLOW_LOCAL_WRITE | ALLOW_REMOTE_READ | ALLOW_REMOTE_WRITE). */
    public static final int FLAGS = 0x7;

    /** @return the rows of the pairwise covering array over {@link #PARAMETERS} (one class index per parameter) */
    public static List<int[]> rows() {
        return PairwiseCovering.rows(PARAMETERS.stream().mapToInt(List::size).toArray());
    }

    /**
     * The plans: every covering-array row first (salt fixed by the row), then random combinations of classes.
     *
     * @param l the adapter's limits (PAGE_SIZE)
     * @return the arbitrary
     */
    public static Arbitrary<RegPlan> plans(Limits l) {
        List<int[]> rows = rows();
        List<RegPlan> edges = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            edges.add(plan(l, rows.get(i), mix(0x5eedL, i)));
        }
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, 3), Arbitraries.longs())
                .as((a, b, c, d, e, f, salt) -> plan(l, new int[]{a, b, c, d, e, f}, salt));
        RegPlan[] e = edges.toArray(new RegPlan[0]);
        return random.withoutEdgeCases().edgeCases(c -> c.filter(x -> false).add(e));
    }

    /**
     * One plan for one combination of classes.
     *
     * @param l    the adapter's limits
     * @param row  one class index per parameter of {@link #PARAMETERS}
     * @param salt chooses the random values inside the classes
     * @return the plan; its {@code edge} names the classes
     */
    public static RegPlan plan(Limits l, int[] row, long salt) {
        int p = l.pageSize();
        int fbo = switch (row[FBO]) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> (int) pick(mix(salt, 1), 2, Math.max(2, p - 2));
            default -> p - 1;
        };
        int mdls = row[MDLS] + 1;
        int[] bc = new int[mdls];
        long at = fbo; // bytes from the start of the first page
        for (int i = 0; i < mdls - 1; i++) {
            long inPage = at % p;
            bc[i] = switch (row[SHAPE]) {
                case 0 -> (int) (pick(mix(salt, 10 + i), 1, 2) * p - inPage);
                case 1 -> {
                    long n = pick(mix(salt, 20 + i), 1, 2L * p - 1);
                    yield (int) ((inPage + n) % p == 0 ? n + 1 : n);
                }
                default -> i == mdls - 2 ? 1 : (int) (p - inPage);
            };
            at += bc[i];
        }
        long inPage = at % p;
        bc[mdls - 1] = switch (row[LAST]) {
            case 0 -> 1;
            case 1 -> (int) (p - inPage);
            case 2 -> (int) pick(mix(salt, 30), 1, 2L * p);
            default -> (int) (pick(mix(salt, 31), 2, 4) * p - inPage);
        };
        long total = RegisterPlans.total(bc);
        long length = switch (row[LENGTH]) {
            case 0 -> 1;
            case 1 -> total;
            case 2 -> Math.max(1, total - 1);
            case 3 -> endingAt(fbo, total, p, 0);
            case 4 -> endingAt(fbo, total, p, 1);
            default -> pick(mix(salt, 40), 1, total);
        };
        long va = RegisterPlans.vaBase(l, row[VA], mix(salt, 50), total) + fbo;
        StringBuilder edge = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
            edge.append(i == 0 ? "" : ", ").append(PARAMETERS.get(i).get(row[i]));
        }
        return new RegPlan(RegCase.VALID, edge.toString(), va, bc, -1, 0, length, FLAGS, salt);
    }

    /**
     * The largest Length (at least 1, at most {@code total}) whose region end FBO + Length is {@code rest} more than a
     * multiple of PAGE_SIZE; {@code total} when there is none.
     */
    static long endingAt(int fbo, long total, int p, int rest) {
        long end = fbo + total;
        long cut = end - Math.floorMod(end - rest, p);
        long length = cut - fbo;
        return length >= 1 ? length : total;
    }
}
