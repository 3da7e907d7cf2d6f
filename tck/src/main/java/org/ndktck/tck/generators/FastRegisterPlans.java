package org.ndktck.tck.generators;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

import java.util.ArrayList;
import java.util.List;

/**
 * Generators of NdkFastRegister scenarios ({@link FrPlan}): valid requests, and requests that break
 * exactly one rule ({@link FrCase}). Each arbitrary's edge cases are an explicit list of the requests
 * that catch real bugs (Length at {@code pages × PAGE_SIZE − FBO} and one past it, FBO 0 and
 * PAGE_SIZE − 1, BaseVirtualAddress congruent to FBO and off by one, values with the top bit set,
 * Length with bit 32 set, page arrays whose bytes reach 2^32, regions ending at 2^64 − 1), which the
 * kit runs first ({@code EdgeCasesMode.FIRST}); random requests follow. Every plan carries an
 * {@link FrPlan#edge()} label for {@code Statistics} coverage checks.
 *
 * <p>Big page arrays (2^20 entries, {@link Limits#bigPages()}) appear among the edge cases and in about
 * 0.1% of random plans, and only when FRMRPageCount allows them.
 *
 * <p>Unless a case says otherwise, BaseVirtualAddress is FBO + n × PAGE_SIZE with n ≥ 1 (never 0, AMB-1),
 * RemoteAccess is TRUE whenever the flags ask for remote access, and no plan's region wraps past 2^64.
 */
public final class FastRegisterPlans {
    /** NDK_OP_FLAG combinations of valid requests (no SILENT_SUCCESS, no DEFER). */
    static final int[] VALID_FLAGS = {0x38, 0x08, 0x30, 0x10, 0x18, 0x00, 0xB8, 0x90, 0x3A, 0x88, 0x80};

    private FastRegisterPlans() {
    }

    // ------------------------------------------------------------------ arithmetic

    /** @return the largest n with n × P + fboInPage + length ≤ 2^64 (unsigned), or 0 when none ≥ 1 fits */
    static long maxN(Limits l, long fboInPage, long length) {
        // room = 2^64 - fboInPage - length, computed without wrapping: 2^64 - x = (-x) unsigned for x > 0
        long used = fboInPage + length;
        if (Long.compareUnsigned(used, length) < 0) {
            return 0;
        }
        if (used == 0) {
            return Long.divideUnsigned(-1L, l.pageSize());
        }
        long room = -used;
        long n = Long.divideUnsigned(room, l.pageSize());
        return n < 0 ? Long.MAX_VALUE : n;
    }

    /**
     * Picks n for BaseVirtualAddress = fbo + n × P.
     *
     * @param sel 0 small, 1 top bit set, 2 the highest that fits (region ends near 2^64 − 1), 3 anywhere,
     *            4 straddling 2^63 (signed 64-bit address compares misjudge it), 5 straddling 2^32 (32-bit
     *            addresses); a region too large to straddle 2^32 gets a small n
     */
    static long chooseN(Limits l, long fboInPage, long length, int sel, long seed) {
        long max = maxN(l, fboInPage, length);
        if (max < 1) {
            throw new IllegalStateException("no room for Length " + Long.toUnsignedString(length));
        }
        long topBit = Long.divideUnsigned(Long.MIN_VALUE, l.pageSize());
        return switch (sel) {
            case 0 -> pick(seed, 1, Math.min(max, 1L << 24));
            case 1 -> max > topBit ? pick(seed, topBit, Math.min(max, topBit + (1L << 20))) : max;
            case 2 -> max;
            case 4, 5 -> {
                long boundary = Long.divideUnsigned(sel == 4 ? Long.MIN_VALUE : 1L << 32, l.pageSize());
                long half = Math.max(1, Long.divideUnsigned(fboInPage + length, 2L * l.pageSize()) + 1);
                long n = boundary - half;
                yield n >= 1 && Long.compareUnsigned(n, max) <= 0 ? n : pick(seed, 1, Math.min(max, 1L << 24));
            }
            default -> pick(seed, 1, max);
        };
    }

    /** @return a value in [lo, hi] (hi ≥ lo, hi − lo &lt; 2^63) chosen by {@code seed}; seed 0 gives lo */
    static long pick(long seed, long lo, long hi) {
        long span = hi - lo + 1;
        if (span <= 0) {
            return lo + (seed & Long.MAX_VALUE);
        }
        return lo + Long.remainderUnsigned(seed, span);
    }

    /** @return a second seed derived from {@code seed} (stays 0 when seed is 0, so shrinking reaches the smallest choices) */
    static long mix(long seed, int k) {
        if (seed == 0) {
            return 0;
        }
        long z = seed + 0x9E3779B97F4A7C15L * k;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static long limit(Limits l, int pageCount, int fbo) {
        return (long) pageCount * l.pageSize() - Integer.toUnsignedLong(fbo);
    }

    static long bva(Limits l, int fbo, long n) {
        return n * l.pageSize() + (Integer.toUnsignedLong(fbo) & (l.pageSize() - 1));
    }

    static boolean remoteFlags(int flags) {
        return (flags & 0x28) != 0;
    }

    private static FrPlan plan(FrCase kind, String edge, int init, boolean remote, int lamPages, int pageCount, int fbo,
                               long length, long bva, int flags, long salt) {
        return new FrPlan(kind, edge, init, remote, lamPages, pageCount, fbo, length, bva, flags, -1, 0, salt);
    }

    /** A valid plan with Length at its boundary and n = 1 unless said otherwise. */
    private static FrPlan validAt(Limits l, String edge, int pages, int fbo, long length, long bva, int flags) {
        return plan(FrCase.VALID, edge, pages, true, pages, pages, fbo, length, bva, flags, 0);
    }

    // ------------------------------------------------------------------ pieces

    static Arbitrary<Integer> pageCounts(Limits l) {
        int small = (int) Math.min(8, l.frmrPageCount());
        List<Tuple.Tuple2<Integer, Arbitrary<Integer>>> parts = new ArrayList<>();
        parts.add(Tuple.of(899, Arbitraries.integers().between(1, small)));
        if (l.frmrPageCount() > 8) {
            parts.add(Tuple.of(100, Arbitraries.integers().between(9, (int) Math.min(64, l.frmrPageCount()))));
        }
        if (l.bigPages() > 0) {
            parts.add(Tuple.of(1, Arbitraries.just(l.bigPages())));
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        Tuple.Tuple2<Integer, Arbitrary<? extends Integer>>[] arr = parts.toArray(new Tuple.Tuple2[0]);
        return Arbitraries.frequencyOf(arr);
    }

    static Arbitrary<Integer> fbos(Limits l) {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(0)),
                Tuple.of(3, Arbitraries.just(l.pageSize() - 1)),
                Tuple.of(4, Arbitraries.integers().between(0, l.pageSize() - 1)));
    }

    private static Arbitrary<FrPlan> withEdges(Arbitrary<FrPlan> random, List<FrPlan> edges) {
        FrPlan[] e = edges.toArray(new FrPlan[0]);
        return random.withoutEdgeCases().edgeCases(c -> c.filter(x -> false).add(e));
    }

    private static long lengthFor(long limit, int sel, long seed) {
        return switch (sel) {
            case 0 -> limit;
            case 1 -> 1;
            default -> pick(seed, 1, limit);
        };
    }

    // ------------------------------------------------------------------ valid

    /**
     * Valid requests (every rule holds), any flags of {@link #VALID_FLAGS}.
     *
     * @param l the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<FrPlan> valid(Limits l) {
        return validWith(l, VALID_FLAGS, false);
    }

    /**
     * Valid requests whose Length is exactly AdapterPageCount × PAGE_SIZE − FBO (the largest that fits the
     * pages, MR-FR-3's boundary), any flags of {@link #VALID_FLAGS}: the valid plans of {@link #valid} at
     * their boundary, edge cases first (FBO 0 and PAGE_SIZE − 1, a region ending at 2^64 − 1, 2^20 pages).
     *
     * @param l the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<FrPlan> validAtLimit(Limits l) {
        return valid(l).filter(p -> p.length() == limit(l, p.pageCount(), p.fbo()));
    }

    /**
     * Valid requests whose region a peer may read and write (flags 0x38, sometimes with RDMA_READ_SINK 0x80),
     * Length ≥ 1, buffers small enough to be painted and checked byte by byte (big arrays excluded).
     *
     * @param l the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<FrPlan> validRemoteAccess(Limits l) {
        return validWith(l, new int[]{0x38, 0xB8}, true);
    }

    private static Arbitrary<FrPlan> validWith(Limits l, int[] flagChoices, boolean smallOnly) {
        int p = l.pageSize();
        Arbitrary<Integer> pages = smallOnly ? Arbitraries.integers().between(1, (int) Math.min(8, l.frmrPageCount())) : pageCounts(l);
        Arbitrary<FrPlan> random = Combinators.combine(pages, fbos(l), Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, flagChoices.length - 1),
                Arbitraries.integers().between(0, 3), Arbitraries.longs()).as((pc, fbo, lenSel, nSel, fi, extra, salt) -> {
            long lim = limit(l, pc, fbo);
            long len = lengthFor(lim, lenSel, mix(salt, 1));
            long n = chooseN(l, fbo, len, nSel, mix(salt, 2));
            int flags = flagChoices[fi];
            int init = (int) Math.min(l.frmrPageCount(), (long) pc + (extra == 3 ? 16 : extra));
            String edge = (lenSel == 0 ? "Length at the boundary" : lenSel == 1 ? "Length 1" : "Length inside")
                    + (pc == l.bigPages() && pc > 64 ? ", 2^20 pages" : "");
            return plan(FrCase.VALID, edge, init, remoteFlags(flags) || (extra & 1) == 1, pc, pc, fbo, len, bva(l, fbo, n), flags, salt);
        });
        int f = flagChoices[0];
        List<FrPlan> edges = new ArrayList<>();
        edges.add(validAt(l, "FBO 0, Length at the boundary", 1, 0, p, p, f));
        edges.add(validAt(l, "FBO PAGE_SIZE-1, Length at the boundary", 1, p - 1, 1, p + p - 1, f));
        edges.add(validAt(l, "FBO PAGE_SIZE-1, 2 pages, Length at the boundary", 2, p - 1, p + 1, 2L * p + p - 1, f));
        edges.add(validAt(l, "BaseVirtualAddress with the top bit set", 3, 123, 3L * p - 123, Long.MIN_VALUE + 123, f));
        edges.add(validAt(l, "region ending at 2^64-1", 2, 0, 2L * p, -2L * p, f));
        edges.add(validAt(l, "region ending at 2^64-1, FBO PAGE_SIZE-1", 1, p - 1, 1, -1L, f));
        // salt 5: the page array descends through its LAM (FrScenario.descending), a run a provider must not read as ascending
        edges.add(plan(FrCase.VALID, "page array descending through its LAM", 2, true, 2, 2, 0, 2L * p, p, f, 5));
        edges.add(plan(FrCase.VALID, "page array descending through its LAM", 3, true, 3, 3, 0x10, 3L * p - 0x10, 2L * p + 0x10, f, 5));
        edges.add(plan(FrCase.VALID, "initialized with more pages than used", (int) Math.min(16, l.frmrPageCount()), true, 1, 1, 17, 1,
                4L * p + 17, f, 0));
        if (!smallOnly) {
            if (l.frmrPageCount() <= 4096) {
                int fr = (int) l.frmrPageCount();
                edges.add(validAt(l, "AdapterPageCount = FRMRPageCount", fr, 0, (long) fr * p, p, f));
            }
            if (l.bigPages() > 0) {
                int big = l.bigPages();
                edges.add(validAt(l, "2^20 pages, byte size past 32 bits", big, 0, (long) big * p, p, f));
            }
        }
        return withEdges(random, edges);
    }

    // ------------------------------------------------------------------ breakers

    /**
     * Requests that break exactly the rule of {@code kind}.
     *
     * @param kind what to break (not {@link FrCase#VALID})
     * @param l    the adapter's limits
     * @return the arbitrary
     */
    public static Arbitrary<FrPlan> breaking(FrCase kind, Limits l) {
        return switch (kind) {
            case VALID -> valid(l);
            case LENGTH_OVER -> lengthOver(l);
            case BVA_INCONGRUENT -> bvaIncongruent(l);
            case REMOTE_ON_LOCAL_MR -> remoteOnLocal(l);
            case ZERO_LENGTH -> zeroLength(l);
            case WRAPS -> wraps(l);
            case FBO_TOO_BIG -> fboTooBig(l);
            case PAGE_MISALIGNED -> misaligned(l);
            case PAGES_OVER_INIT -> pagesOverInit(l);
            case UNDEFINED_FLAG -> undefinedFlag(l);
        };
    }

    private static FrPlan over(Limits l, String edge, int pages, int fbo, long length, int nSel, long salt) {
        long n = chooseN(l, fbo, length, nSel, salt);
        return plan(FrCase.LENGTH_OVER, edge, pages, true, pages, pages, fbo, length, bva(l, fbo, n), 0x38, salt);
    }

    private static Arbitrary<FrPlan> lengthOver(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(pageCounts(l), fbos(l), Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, 3), Arbitraries.longs()).as((pc, fbo, dSel, nSel, salt) -> {
            long lim = limit(l, pc, fbo);
            long seed = mix(salt, 1);
            long len;
            String edge;
            switch (dSel) {
                case 0 -> {
                    len = lim + 1;
                    edge = "one past";
                }
                case 1 -> {
                    len = lim + pick(seed, 1, p);
                    edge = "up to a page past";
                }
                case 2 -> {
                    len = fbo == 0 ? lim + 1 : (long) pc * p;
                    edge = fbo == 0 ? "one past" : "pages x PAGE_SIZE, FBO ignored";
                }
                case 3 -> {
                    len = (1L << 32) + pick(seed, 1, Math.min(lim, 0xFFFFFFFFL));
                    edge = "bit 32 set, low 32 bits within the limit";
                }
                default -> {
                    len = Long.MIN_VALUE + pick(seed, 1, Math.min(lim, 0xFFFFFFFFL));
                    edge = "top bit set";
                }
            }
            return over(l, edge, pc, fbo, len, dSel >= 3 ? 0 : nSel, mix(salt, 2));
        });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(over(l, "one past, FBO 0", 1, 0, p + 1L, 0, 0));
        edges.add(over(l, "one past, FBO PAGE_SIZE-1", 1, p - 1, 2, 0, 0));
        edges.add(over(l, "pages x PAGE_SIZE, FBO ignored", 1, p - 1, p, 0, 0));
        edges.add(over(l, "pages x PAGE_SIZE, FBO ignored", 4, 100, 4L * p, 0, 0));
        edges.add(over(l, "bit 32 set, low 32 bits within the limit", 1, 0, (1L << 32) + 1, 0, 0));
        edges.add(over(l, "bit 32 set, low 32 bits at the limit", 1, 0, (1L << 32) + p, 0, 0));
        edges.add(over(l, "top bit set", 1, 0, Long.MIN_VALUE + 1, 0, 0));
        edges.add(over(l, "top bit set, largest that does not wrap", 1, 0, -2L * p, 0, 0));
        if (l.bigPages() > 0) {
            int big = l.bigPages();
            edges.add(over(l, "2^20 pages, one past", big, 0, (long) big * p + 1, 0, 0));
        }
        return withEdges(random, edges);
    }

    private static Arbitrary<FrPlan> bvaIncongruent(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(1, 8), fbos(l), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 1), Arbitraries.longs()).as((pc, fbo, dSel, nSel, salt) -> {
            long lim = limit(l, pc, fbo);
            long len = pick(mix(salt, 1), 1, lim);
            long n = Math.max(1, chooseN(l, fbo, len + p, nSel, mix(salt, 2)));
            long delta = switch (dSel) {
                case 0 -> 1;
                case 1 -> -1;
                case 2 -> p / 2;
                default -> pick(mix(salt, 3), 1, p - 1);
            };
            String edge = switch (dSel) {
                case 0 -> "off by +1";
                case 1 -> "off by -1";
                case 2 -> "off by PAGE_SIZE/2";
                default -> "off by a random amount";
            };
            return plan(FrCase.BVA_INCONGRUENT, edge, pc, true, pc, pc, fbo, len, bva(l, fbo, n) + delta, 0x38, salt);
        });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(plan(FrCase.BVA_INCONGRUENT, "off by +1", 1, true, 1, 1, 0, p, p + 1L, 0x38, 0));
        edges.add(plan(FrCase.BVA_INCONGRUENT, "off by -1", 1, true, 1, 1, p - 1, 1, 2L * p - 2, 0x38, 0));
        edges.add(plan(FrCase.BVA_INCONGRUENT, "BaseVirtualAddress 0 with FBO > 0", 1, true, 1, 1, 0x10, 16, 0, 0x38, 0));
        edges.add(plan(FrCase.BVA_INCONGRUENT, "off by PAGE_SIZE/2, top bit set", 2, true, 2, 2, 5, p, Long.MIN_VALUE + 5 + p / 2, 0x38, 0));
        return withEdges(random, edges);
    }

    private static final int[] REMOTE_FLAGS = {0x08, 0x30, 0x38, 0x18, 0x88, 0xB8};

    private static Arbitrary<FrPlan> remoteOnLocal(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(1, 8), fbos(l),
                Arbitraries.integers().between(0, REMOTE_FLAGS.length - 1), Arbitraries.longs()).as((pc, fbo, fi, salt) -> {
            long len = pick(mix(salt, 1), 1, limit(l, pc, fbo));
            long n = chooseN(l, fbo, len, 0, mix(salt, 2));
            return plan(FrCase.REMOTE_ON_LOCAL_MR, "Flags " + String.format("0x%02X", REMOTE_FLAGS[fi]), pc, false, pc, pc, fbo, len,
                    bva(l, fbo, n), REMOTE_FLAGS[fi], salt);
        });
        List<FrPlan> edges = new ArrayList<>();
        for (int f : new int[]{0x08, 0x30, 0x38}) {
            edges.add(plan(FrCase.REMOTE_ON_LOCAL_MR, "Flags " + String.format("0x%02X", f), 1, false, 1, 1, 0, p, p, f, 0));
        }
        return withEdges(random, edges);
    }

    private static Arbitrary<FrPlan> zeroLength(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(1, 4), fbos(l), Arbitraries.longs())
                .as((pc, fbo, salt) -> {
                    long n = chooseN(l, fbo, 0, 0, mix(salt, 2));
                    return plan(FrCase.ZERO_LENGTH, "Length 0", pc, true, pc, pc, fbo, 0, bva(l, fbo, n), 0x38, salt);
                });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(plan(FrCase.ZERO_LENGTH, "Length 0, FBO 0", 1, true, 1, 1, 0, 0, p, 0x38, 0));
        edges.add(plan(FrCase.ZERO_LENGTH, "Length 0, FBO PAGE_SIZE-1", 1, true, 1, 1, p - 1, 0, 2L * p - 1, 0x38, 0));
        edges.add(plan(FrCase.ZERO_LENGTH, "Length 0, 4 pages", 4, true, 4, 4, 0, 0, 16L * p, 0x38, 0));
        // the degenerate request whole: no page at all (AdapterPageCount 0 over an MR initialized for one page)
        edges.add(plan(FrCase.ZERO_LENGTH, "Length 0, AdapterPageCount 0", 1, true, 1, 0, 0, 0, 32L * p, 0x38, 0));
        return withEdges(random, edges);
    }

    private static Arbitrary<FrPlan> wraps(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(2, 8), fbos(l), Arbitraries.longs())
                .as((pc, fbo, salt) -> {
                    long m = pick(mix(salt, 1), 1, pc - 1);
                    long lim = limit(l, pc, fbo);
                    long len = pick(mix(salt, 2), m * p - fbo + 1, lim);
                    long bva = -m * p + fbo;
                    return plan(FrCase.WRAPS, "past 2^64", pc, true, pc, pc, fbo, len, bva, 0x38, salt);
                });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(plan(FrCase.WRAPS, "one byte past 2^64, FBO 0", 2, true, 2, 2, 0, p + 1L, -(long) p, 0x38, 0));
        edges.add(plan(FrCase.WRAPS, "one byte past 2^64, FBO PAGE_SIZE-1", 2, true, 2, 2, p - 1, 2, -1L, 0x38, 0));
        edges.add(plan(FrCase.WRAPS, "three pages past 2^64", 4, true, 4, 4, 0, 4L * p, -(long) p, 0x38, 0));
        return withEdges(random, edges);
    }

    private static Arbitrary<FrPlan> fboTooBig(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.integers().between(0, p - 1),
                Arbitraries.integers().between(1, 4), Arbitraries.longs()).as((q, r, extra, salt) -> {
            int fbo = q * p + r;
            int pc = q + 1 + extra;
            long len = pick(mix(salt, 1), 1, limit(l, pc, fbo));
            long n = chooseN(l, r, len, 0, mix(salt, 2));
            return plan(FrCase.FBO_TOO_BIG, "FBO = " + q + " x PAGE_SIZE + r", pc, true, pc, pc, fbo, len, bva(l, r, n), 0x38, salt);
        });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(plan(FrCase.FBO_TOO_BIG, "FBO = PAGE_SIZE", 2, true, 2, 2, p, p, p, 0x38, 0));
        edges.add(plan(FrCase.FBO_TOO_BIG, "FBO = PAGE_SIZE+1", 3, true, 3, 3, p + 1, p, 2L * p + 1, 0x38, 0));
        edges.add(plan(FrCase.FBO_TOO_BIG, "FBO = 2 x PAGE_SIZE-1", 3, true, 3, 3, 2 * p - 1, 1, 2L * p - 1 + p, 0x38, 0));
        return withEdges(random, edges);
    }

    private static FrPlan misalignedPlan(Limits l, String edge, int pc, int fbo, int index, long delta, long n, long salt) {
        long len = limit(l, pc, fbo);
        // an odd salt gives the LAM one page more than the array uses
        int lamPages = pc + (int) (salt & 1);
        return new FrPlan(FrCase.PAGE_MISALIGNED, edge, pc, true, lamPages, pc, fbo, len, bva(l, fbo, n), 0x38, index, delta, salt);
    }

    private static Arbitrary<FrPlan> misaligned(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(1, 8), fbos(l), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 4), Arbitraries.longs()).as((pc, fbo, iSel, dSel, salt) -> {
            int index = iSel == 0 ? 0 : iSel == 1 ? pc - 1 : iSel == 2 ? FrPlan.EVERY_ENTRY : (int) pick(mix(salt, 1), 0, pc - 1);
            long delta = switch (dSel) {
                case 0 -> 1;
                case 1 -> 8;
                case 2 -> p / 2;
                case 3 -> p - 1;
                default -> pick(mix(salt, 2), 1, p - 1);
            };
            String edge = index == FrPlan.EVERY_ENTRY ? "every entry misaligned"
                    : (index == 0 ? "first" : index == pc - 1 ? "last" : "middle") + " entry misaligned";
            return misalignedPlan(l, edge, pc, fbo, index, delta, pick(mix(salt, 3), 1, 1L << 24), salt);
        });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(misalignedPlan(l, "first entry misaligned", 1, 0, 0, 1, 1, 0));
        edges.add(misalignedPlan(l, "last entry misaligned", 3, 0, 2, p - 1, 1, 0));
        edges.add(misalignedPlan(l, "first entry misaligned", 2, p - 1, 0, p / 2, 1, 0));
        // salt 1: one LAM, the array from its first page; salt 9: one LAM, the array from its third page (FrScenario)
        edges.add(misalignedPlan(l, "every entry misaligned", 3, 0, FrPlan.EVERY_ENTRY, 0x10, 1, 1));
        edges.add(misalignedPlan(l, "every entry misaligned", 3, 0, FrPlan.EVERY_ENTRY, 0x10, 1, 9));
        return withEdges(random, edges);
    }

    private static FrPlan overInit(Limits l, String edge, int init, int pc, int fbo, long salt) {
        long len = limit(l, pc, fbo);
        long n = chooseN(l, fbo, len, 0, salt);
        return plan(FrCase.PAGES_OVER_INIT, edge, init, true, pc, pc, fbo, len, bva(l, fbo, n), 0x38, salt);
    }

    private static Arbitrary<FrPlan> pagesOverInit(Limits l) {
        long fr = l.frmrPageCount();
        int maxInit = (int) Math.min(fr - 1, 64);
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(1, maxInit), Arbitraries.integers().between(1, 4),
                fbos(l), Arbitraries.longs()).as((init, extra, fbo, salt) -> {
            int pc = (int) Math.min(fr, (long) init + extra);
            return overInit(l, "initialized count + " + (pc - init), init, pc, fbo, salt);
        });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(overInit(l, "initialized count + 1", 1, 2, 0, 0));
        if (fr >= 257) {
            edges.add(overInit(l, "256 initialized, 257 used", 256, 257, 0, 0));
        }
        if (fr <= 4096) {
            edges.add(overInit(l, "FRMRPageCount - 1 initialized, FRMRPageCount used", (int) fr - 1, (int) fr, 0, 0));
        }
        return withEdges(random, edges);
    }

    private static final int[] UNDEFINED_FLAGS = {0x20, 0x28, 0xA0, 0x22, 0xA8};

    private static Arbitrary<FrPlan> undefinedFlag(Limits l) {
        int p = l.pageSize();
        Arbitrary<FrPlan> random = Combinators.combine(Arbitraries.integers().between(1, 8), fbos(l),
                Arbitraries.integers().between(0, UNDEFINED_FLAGS.length - 1), Arbitraries.longs()).as((pc, fbo, fi, salt) -> {
            long len = pick(mix(salt, 1), 1, limit(l, pc, fbo));
            long n = chooseN(l, fbo, len, 0, mix(salt, 2));
            return plan(FrCase.UNDEFINED_FLAG, "Flags " + String.format("0x%02X", UNDEFINED_FLAGS[fi]), pc, true, pc, pc, fbo, len,
                    bva(l, fbo, n), UNDEFINED_FLAGS[fi], salt);
        });
        List<FrPlan> edges = new ArrayList<>();
        edges.add(plan(FrCase.UNDEFINED_FLAG, "Flags 0x20", 1, true, 1, 1, 0, p, p, 0x20, 0));
        edges.add(plan(FrCase.UNDEFINED_FLAG, "Flags 0x28", 1, true, 1, 1, p - 1, 1, 2L * p - 1, 0x28, 0));
        return withEdges(random, edges);
    }
}
