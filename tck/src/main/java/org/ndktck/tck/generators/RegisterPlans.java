package org.ndktck.tck.generators;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import java.util.ArrayList;
import java.util.List;

import static org.ndktck.tck.generators.FastRegisterPlans.mix;
import static org.ndktck.tck.generators.FastRegisterPlans.pick;

/**
 * Generators of NdkRegisterMr scenarios ({@link RegPlan}): valid requests (MDL chains of one to three
 * MDLs, some broken only after Length), and requests that break exactly one rule ({@link RegCase}).
 * Edge cases first, as an explicit list: one MDL at 0xFFFFFFFFFFFFF000 with ByteCount and Length 0x2000
 * (at 4096-byte pages), regions ending exactly at 2^64 − 1, chains broken just inside and just outside
 * Length, Length one past the chain, Length with bit 32 or the top bit set, VAs with the top bit set,
 * offsets 0 and PAGE_SIZE − 1 in the first page.
 *
 * <p>Unless a case says otherwise: MDL 0's VA is non-zero (AMB-2), no region wraps past 2^64, and Length
 * is at most the chain's bytes.
 */
public final class RegisterPlans {
    /** NDK_MR_FLAG combinations of valid requests. */
    static final int[] VALID_FLAGS = {0x0, 0x1, 0x2, 0x3, 0x5, 0x7, 0x8, 0x9, 0xA, 0xB, 0xD, 0xF};
    /** Combinations with NDK_MR_FLAG_RDMA_READ_SINK (MR-REG-7). */
    static final int[] READ_SINK_FLAGS = {0x8, 0x9, 0xA, 0xB, 0xD, 0xF};

    private RegisterPlans() {
    }

    /**
     * The shape of a contiguous chain of {@code mdls} MDLs starting at {@code offset} bytes into a page: byte
     * counts (ULONG, here 1 to 3 pages each). In two of three chains every MDL but the last ends on a page
     * boundary; in the third, the inner MDLs end anywhere, so an MDL boundary falls inside a page and the two
     * MDLs share that page (as chains built from pieces of one buffer do; MR-REG-1, LAM-1).
     */
    static int[] chain(Limits l, int offset, int mdls, long seed) {
        int p = l.pageSize();
        boolean insidePages = mdls > 1 && Long.remainderUnsigned(mix(seed, 30), 3) == 0;
        int[] bc = new int[mdls];
        for (int i = 0; i < mdls; i++) {
            int pages = (int) pick(mix(seed, 10 + i), 1, 3);
            if (insidePages && i < mdls - 1) {
                bc[i] = (int) pick(mix(seed, 40 + i), 1, (long) pages * p - (i == 0 ? offset : 0));
            } else if (i == 0 && mdls > 1) {
                bc[i] = pages * p - offset;
            } else if (i == 0) {
                bc[i] = (int) pick(mix(seed, 20), 1, (long) pages * p - offset);
            } else if (i < mdls - 1) {
                bc[i] = pages * p;
            } else {
                bc[i] = (int) pick(mix(seed, 21), 1, (long) pages * p);
            }
        }
        return bc;
    }

    static long total(int[] bc) {
        long t = 0;
        for (int b : bc) {
            t += Integer.toUnsignedLong(b);
        }
        return t;
    }

    /**
     * A page-aligned VA base (non-zero) with room for {@code bytes} plus slack below 2^64.
     *
     * @param sel 0 small, 1 top bit set, 2 the highest that fits (the region ends near 2^64), 3 straddling 2^63
     *            (about half of the region on each side, so a provider comparing addresses as signed 64-bit
     *            values misjudges its bounds), 4 straddling 2^32 (a provider keeping addresses in 32 bits)
     * @return the base (unsigned)
     */
    static long vaBase(Limits l, int sel, long seed, long bytes) {
        long p = l.pageSize();
        long slack = 64 * p;
        long halfPages = Math.max(1, (bytes / 2 + p - 1) / p);
        return switch (sel) {
            case 0 -> pick(seed, 1, 1L << 24) * p;
            case 1 -> Long.MIN_VALUE + pick(seed, 1, 1L << 24) * p;
            case 3 -> Long.MIN_VALUE - halfPages * p;
            case 4 -> (1L << 32) > halfPages * p ? (1L << 32) - halfPages * p : pick(seed, 1, 1L << 24) * p;
            default -> -((bytes + slack + p - 1) / p * p) - slack;
        };
    }

    private static Arbitrary<RegPlan> withEdges(Arbitrary<RegPlan> random, List<RegPlan> edges) {
        RegPlan[] e = edges.toArray(new RegPlan[0]);
        return random.withoutEdgeCases().edgeCases(c -> c.filter(x -> false).add(e));
    }

    /**
     * As {@link #withEdges(Arbitrary, List)}, every plan fitted to the adapter's MaxRegistrationSize ({@link #fit}).
     */
    private static Arbitrary<RegPlan> withEdges(Limits l, Arbitrary<RegPlan> random, List<RegPlan> edges) {
        return withEdges(random.map(x -> fit(l, x)), edges.stream().map(x -> fit(l, x)).toList());
    }

    /**
     * A plan within the adapter's limits: a valid request (and one whose only fault is undefined flag bits, which
     * MR-REG-14 compares with the same request without them) whose Length lies past MaxRegistrationSize gets Length
     * MaxRegistrationSize instead (at least 1 byte; still within the chain, and still before a break after Length).
     * The kit makes a registration past the limit only in the properties about that limit (MR-REG-10, COV-1).
     *
     * @param l    the adapter's limits
     * @param plan a generated plan
     * @return the plan, or a copy with the shorter Length
     */
    static RegPlan fit(Limits l, RegPlan plan) {
        long max = l.maxRegistrationSize();
        if ((plan.kind() != RegCase.VALID && plan.kind() != RegCase.UNDEFINED_FLAGS)
                || Long.compareUnsigned(plan.length(), max) <= 0 || max == 0) {
            return plan;
        }
        return new RegPlan(plan.kind(), plan.edge(), plan.virtualAddress(), plan.byteCounts(), plan.breakIndex(),
                plan.breakDelta(), max, plan.flags(), plan.salt());
    }

    private static Arbitrary<Integer> offsets(Limits l) {
        return FastRegisterPlans.fbos(l);
    }

    // ------------------------------------------------------------------ valid

    /**
     * Valid requests with any flags of {@link #VALID_FLAGS}.
     *
     * @param l the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<RegPlan> valid(Limits l) {
        return validWith(l, VALID_FLAGS, false);
    }

    /**
     * Valid requests with NDK_MR_FLAG_RDMA_READ_SINK alone or with other defined flags (MR-REG-7), over
     * contiguous chains.
     *
     * @param l the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<RegPlan> validReadSink(Limits l) {
        return validWith(l, READ_SINK_FLAGS, true);
    }

    /**
     * Valid requests with the given flags (e.g. ALLOW_REMOTE_WRITE for the data path) and Length ≥ 1, over
     * contiguous chains (a chain broken after Length is MR-REG-2's subject, kept out of data-path properties).
     *
     * @param l     the adapter's limits
     * @param flags the flag combinations to draw from
     * @return the arbitrary
     */
    public static Arbitrary<RegPlan> validWithFlags(Limits l, int... flags) {
        return validWith(l, flags, true);
    }

    private static Arbitrary<RegPlan> validWith(Limits l, int[] flagChoices, boolean small) {
        int p = l.pageSize();
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.integers().between(1, 8), offsets(l),
                Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, flagChoices.length - 1), Arbitraries.integers().between(0, 3), Arbitraries.longs())
                .as((m, off, lenSel, vaSel, fi, breakSel, salt) -> {
                    int mdls = m <= 6 ? 1 : m - 5;
                    int[] bc = chain(l, off, mdls, salt);
                    long tot = total(bc);
                    long len = lenSel == 0 ? tot : lenSel == 1 ? 1 : pick(mix(salt, 1), 1, tot);
                    long va = vaBase(l, vaSel, mix(salt, 2), tot) + off;
                    int breakIndex = -1;
                    long delta = 0;
                    String edge = mdls + " MDL(s), " + (lenSel == 0 ? "Length = chain" : lenSel == 1 ? "Length 1" : "Length inside");
                    if (mdls > 1 && breakSel == 3 && !small) {
                        long b = 0;
                        for (int j = 1; j < mdls; j++) {
                            b += Integer.toUnsignedLong(bc[j - 1]);
                            if (b >= len) {
                                breakIndex = j;
                                delta = p;
                                edge = mdls + " MDLs, broken after Length";
                                break;
                            }
                        }
                    }
                    if (breakIndex < 0 && Long.remainderUnsigned(mix(salt, 5), 4) == 0) {
                        // one draw in four: an MDL of ByteCount 0 first, inside or last (it adds no byte and no page)
                        bc = withEmptyMdl(bc, (int) pick(mix(salt, 6), 0, bc.length));
                        edge += ", an MDL of ByteCount 0";
                    }
                    return new RegPlan(RegCase.VALID, edge, va, bc, breakIndex, delta, len, flagChoices[fi], salt);
                });
        int f = flagChoices[0];
        List<RegPlan> edges = new ArrayList<>();
        // an MDL of ByteCount 0 inside, first and last: a walk over the chain must step over it, not stop at it
        edges.add(new RegPlan(RegCase.VALID, "3 MDLs, an MDL of ByteCount 0 inside", 0x40000L * p + 0x80,
                new int[]{p - 0x80, 0, 2 * p}, -1, 0, 3L * p - 0x80, f, 0));
        edges.add(new RegPlan(RegCase.VALID, "2 MDLs, an MDL of ByteCount 0 first", 0x50000L * p, new int[]{0, 2 * p}, -1, 0, 2L * p, f, 0));
        edges.add(new RegPlan(RegCase.VALID, "2 MDLs, an MDL of ByteCount 0 last", 0x60000L * p + 5, new int[]{p - 5, 0}, -1, 0, p - 5, f, 0));
        edges.add(new RegPlan(RegCase.VALID, "one page, offset 0", 0x10000L * p, new int[]{p}, -1, 0, p, f, 0));
        edges.add(new RegPlan(RegCase.VALID, "offset PAGE_SIZE-1, Length 1", 0x10000L * p + p - 1, new int[]{1}, -1, 0, 1, f, 0));
        edges.add(new RegPlan(RegCase.VALID, "region ending at 2^64-1", -2L * p, new int[]{2 * p}, -1, 0, 2L * p, f, 0));
        edges.add(new RegPlan(RegCase.VALID, "region ending at 2^64-1, one byte", -1L, new int[]{1}, -1, 0, 1, f, 0));
        edges.add(new RegPlan(RegCase.VALID, "VA with the top bit set", Long.MIN_VALUE + 0x123, new int[]{3 * p - 0x123}, -1, 0,
                3L * p - 0x123, f, 0));
        if (!small) {
            edges.add(new RegPlan(RegCase.VALID, "chain broken just outside Length", 0x20000L * p + 0x80,
                    new int[]{p - 0x80, 2 * p}, 1, p, p - 0x80, f, 0));
        }
        edges.add(new RegPlan(RegCase.VALID, "3 MDLs, contiguous, Length one below the chain", 0x30000L * p,
                new int[]{p, 2 * p, 100}, -1, 0, 3L * p + 99, f, 0));
        if (!small && Long.compareUnsigned(l.maxRegistrationSize(), (1L << 32) + p) >= 0 && p == 4096) {
            edges.add(new RegPlan(RegCase.VALID, "2 MDLs, Length past 2^32", 0x100000L * p,
                    new int[]{(int) ((1L << 32) - p), 2 * p}, -1, 0, (1L << 32) + p, f, 0));
        }
        return withEdges(l, random, edges);
    }

    /**
     * Valid chains of two or three MDLs that stop being virtually contiguous only at or after Length
     * (MR-REG-2: such a chain registers fine). Edge cases: the break exactly at Length ("just outside").
     *
     * @param l the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<RegPlan> brokenAfterLength(Limits l) {
        int p = l.pageSize();
        long[] deltas = {p, -p, 2L * p, 16L * p};
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.integers().between(2, 3), offsets(l),
                Arbitraries.integers().between(0, 1), Arbitraries.integers().between(0, deltas.length - 1), Arbitraries.longs())
                .as((mdls, off, lenSel, di, salt) -> {
                    int[] bc = chain(l, off, mdls, salt);
                    int j = (int) pick(mix(salt, 3), 1, mdls - 1);
                    long b = 0;
                    for (int i = 0; i < j; i++) {
                        b += Integer.toUnsignedLong(bc[i]);
                    }
                    long len = lenSel == 0 ? b : pick(mix(salt, 1), 1, b);
                    long va = vaBase(l, 0, mix(salt, 2), total(bc)) + (1L << 30) + off;
                    return new RegPlan(RegCase.VALID, lenSel == 0 ? "broken just outside Length" : "broken after Length",
                            va, bc, j, deltas[di], len, 0x7, salt);
                });
        List<RegPlan> edges = new ArrayList<>();
        edges.add(new RegPlan(RegCase.VALID, "broken just outside Length", 0x20000L * p, new int[]{p, p}, 1, p, p, 0x7, 0));
        edges.add(new RegPlan(RegCase.VALID, "broken just outside Length", 0x20000L * p + 0x80, new int[]{p - 0x80, 2 * p}, 1, -p,
                p - 0x80, 0x7, 0));
        edges.add(new RegPlan(RegCase.VALID, "broken just outside Length", 0x20000L * p, new int[]{p, p, p}, 2, 16L * p, 2L * p, 0x7, 0));
        return withEdges(l, random, edges);
    }

    // ------------------------------------------------------------------ breakers

    /**
     * Requests that break exactly the rule of {@code kind}.
     *
     * @param kind what to break (not {@link RegCase#VALID})
     * @param l    the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<RegPlan> breaking(RegCase kind, Limits l) {
        return switch (kind) {
            case VALID -> valid(l);
            case BROKEN_CHAIN -> brokenChain(l);
            case ZERO_LENGTH -> zeroLength(l);
            case WRAPS -> wraps(l);
            case OVER_CHAIN -> overChain(l);
            case UNDEFINED_FLAGS -> undefinedFlags(l);
        };
    }

    private static Arbitrary<RegPlan> brokenChain(Limits l) {
        int p = l.pageSize();
        long[] deltas = {p, -p, 2L * p, 16L * p, -2L * p};
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.integers().between(2, 3), offsets(l),
                Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, deltas.length - 1), Arbitraries.longs())
                .as((mdls, off, lenSel, di, salt) -> {
                    int[] bc = chain(l, off, mdls, salt);
                    int j = (int) pick(mix(salt, 3), 1, mdls - 1);
                    long b = 0;
                    for (int i = 0; i < j; i++) {
                        b += Integer.toUnsignedLong(bc[i]);
                    }
                    long tot = total(bc);
                    long len = lenSel == 0 ? b + 1 : lenSel == 1 ? tot : pick(mix(salt, 1), b + 1, tot);
                    long va = vaBase(l, 0, mix(salt, 2), tot) + (1L << 30) + off;
                    String edge = lenSel == 0 ? "broken just inside Length" : "broken inside Length";
                    return new RegPlan(RegCase.BROKEN_CHAIN, edge, va, bc, j, deltas[di], len, 0x7, salt);
                });
        List<RegPlan> edges = new ArrayList<>();
        edges.add(new RegPlan(RegCase.BROKEN_CHAIN, "broken just inside Length", 0x20000L * p, new int[]{p, p}, 1, p, p + 1L, 0x7, 0));
        edges.add(new RegPlan(RegCase.BROKEN_CHAIN, "broken just inside Length", 0x20000L * p + 0x80, new int[]{p - 0x80, 2 * p}, 1, p,
                p - 0x80 + 1L, 0x7, 0));
        edges.add(new RegPlan(RegCase.BROKEN_CHAIN, "second MDL goes backwards", 0x20000L * p, new int[]{2 * p, p}, 1, -2L * p, 3L * p, 0x7, 0));
        edges.add(new RegPlan(RegCase.BROKEN_CHAIN, "third MDL broken, whole chain", 0x20000L * p, new int[]{p, p, p}, 2, 16L * p, 3L * p, 0x7, 0));
        return withEdges(random, edges);
    }

    private static Arbitrary<RegPlan> zeroLength(Limits l) {
        int p = l.pageSize();
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.integers().between(1, 3), offsets(l), Arbitraries.longs())
                .as((mdls, off, salt) -> {
                    int[] bc = chain(l, off, mdls, salt);
                    long va = vaBase(l, 0, mix(salt, 2), total(bc)) + off;
                    return new RegPlan(RegCase.ZERO_LENGTH, "Length 0", va, bc, -1, 0, 0, 0x7, salt);
                });
        List<RegPlan> edges = new ArrayList<>();
        edges.add(new RegPlan(RegCase.ZERO_LENGTH, "Length 0, offset 0", 0x10000L * p, new int[]{p}, -1, 0, 0, 0x7, 0));
        edges.add(new RegPlan(RegCase.ZERO_LENGTH, "Length 0, offset PAGE_SIZE-1", 0x10000L * p + p - 1, new int[]{1}, -1, 0, 0, 0x7, 0));
        return withEdges(random, edges);
    }

    private static Arbitrary<RegPlan> wraps(Limits l) {
        int p = l.pageSize();
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.longs().between(1, 3L * p), Arbitraries.longs().between(1, 2L * p),
                Arbitraries.longs()).as((x, d, salt) -> {
            int bc = (int) (x + d);
            return new RegPlan(RegCase.WRAPS, "past 2^64", -x, new int[]{bc}, -1, 0, bc, 0x7, salt);
        });
        List<RegPlan> edges = new ArrayList<>();
        edges.add(new RegPlan(RegCase.WRAPS, "VA 2^64-PAGE_SIZE, ByteCount and Length 2 pages", -(long) p, new int[]{2 * p}, -1, 0, 2L * p, 0x7, 0));
        edges.add(new RegPlan(RegCase.WRAPS, "one byte past 2^64", -(long) p + 1, new int[]{p}, -1, 0, p, 0x7, 0));
        edges.add(new RegPlan(RegCase.WRAPS, "one byte past 2^64, offset PAGE_SIZE-1", -1L, new int[]{2}, -1, 0, 2, 0x7, 0));
        return withEdges(random, edges);
    }

    /**
     * MR-REG-13 requests: Length one byte, up to a page, 2^32 or 2^63 past the chain's total ByteCount. One
     * draw in four puts an MDL of ByteCount 0 somewhere in the chain (first, inside or last): it adds nothing
     * to the total, and a provider whose unsigned sum takes a zero addend for an overflow (and saturates) would
     * see an unbounded chain.
     */
    private static Arbitrary<RegPlan> overChain(Limits l) {
        int p = l.pageSize();
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.integers().between(1, 3), offsets(l),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 3), Arbitraries.longs())
                .as((mdls, off, dSel, eSel, salt) -> {
            int[] bc = chain(l, off, mdls, salt);
            boolean empty = eSel == 0;
            if (empty) {
                bc = withEmptyMdl(bc, (int) pick(mix(salt, 4), 0, bc.length));
            }
            long tot = total(bc);
            long d = switch (dSel) {
                case 0 -> 1;
                case 1 -> pick(mix(salt, 1), 1, p);
                case 2 -> 1L << 32;
                default -> Long.MIN_VALUE;
            };
            String edge = switch (dSel) {
                case 0 -> "one past the chain";
                case 1 -> "up to a page past the chain";
                case 2 -> "2^32 past the chain";
                default -> "top bit set";
            };
            long va = vaBase(l, 0, mix(salt, 2), tot) + off;
            return new RegPlan(RegCase.OVER_CHAIN, empty ? edge + ", an MDL of ByteCount 0" : edge, va, bc, -1, 0, tot + d, 0x7, salt);
        });
        List<RegPlan> edges = new ArrayList<>();
        edges.add(new RegPlan(RegCase.OVER_CHAIN, "one past the chain", 0x10000L * p, new int[]{p}, -1, 0, p + 1L, 0x7, 0));
        edges.add(new RegPlan(RegCase.OVER_CHAIN, "one past the chain, 2 MDLs", 0x10000L * p + 5, new int[]{p - 5, p}, -1, 0, 2L * p - 4, 0x7, 0));
        edges.add(new RegPlan(RegCase.OVER_CHAIN, "one past the chain, an MDL of ByteCount 0", 0x10000L * p, new int[]{p, 0, p}, -1, 0,
                2L * p + 1, 0x7, 0));
        edges.add(new RegPlan(RegCase.OVER_CHAIN, "2^32 past the chain", 0x10000L * p, new int[]{p}, -1, 0, (1L << 32) + p, 0x7, 0));
        edges.add(new RegPlan(RegCase.OVER_CHAIN, "top bit set", 0x10000L * p, new int[]{p}, -1, 0, Long.MIN_VALUE + p, 0x7, 0));
        return withEdges(random, edges);
    }

    /** @return {@code bc} with an MDL of ByteCount 0 inserted before index {@code at} (0 to bc.length) */
    private static int[] withEmptyMdl(int[] bc, int at) {
        int[] out = new int[bc.length + 1];
        System.arraycopy(bc, 0, out, 0, at);
        System.arraycopy(bc, at, out, at + 1, bc.length - at);
        return out;
    }

    private static final int[] UNDEFINED_LOW = {0x4, 0x6, 0xC, 0xE, 0x0, 0x2, 0x8, 0xA, 0x3, 0xB};

    private static Arbitrary<RegPlan> undefinedFlags(Limits l) {
        int p = l.pageSize();
        Arbitrary<RegPlan> random = Combinators.combine(Arbitraries.integers().between(0, UNDEFINED_LOW.length - 1),
                Arbitraries.integers().between(0, 27), offsets(l), Arbitraries.longs()).as((li, bit, off, salt) -> {
            int low = UNDEFINED_LOW[li];
            int high = (low & 0x4) != 0 && bit < 4 ? 0 : 1 << (bit + 4);
            int flags = low | high;
            int[] bc = chain(l, off, 1, salt);
            long va = vaBase(l, 0, mix(salt, 2), total(bc)) + off;
            String edge = high == 0 ? "bit 0x4 without 0x1" : (low & 0x4) != 0 ? "0x4 and a bit above 0xF" : "a bit above 0xF";
            return new RegPlan(RegCase.UNDEFINED_FLAGS, edge, va, bc, -1, 0, total(bc), flags, salt);
        });
        List<RegPlan> edges = new ArrayList<>();
        edges.add(new RegPlan(RegCase.UNDEFINED_FLAGS, "bit 0x4 without 0x1", 0x10000L * p, new int[]{p}, -1, 0, p, 0x4, 0));
        edges.add(new RegPlan(RegCase.UNDEFINED_FLAGS, "bit 0x4 without 0x1", 0x10000L * p + 7, new int[]{p - 7}, -1, 0, p - 7, 0x6, 0));
        edges.add(new RegPlan(RegCase.UNDEFINED_FLAGS, "a bit above 0xF", 0x10000L * p, new int[]{p}, -1, 0, p, 0x10, 0));
        edges.add(new RegPlan(RegCase.UNDEFINED_FLAGS, "a bit above 0xF", 0x10000L * p, new int[]{p}, -1, 0, p, 0x80000002, 0));
        return withEdges(l, random, edges);
    }
}
