package org.ndktck.tck.generators;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Shrinkable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generators build a valid request, or one that breaks exactly the rule of its case: every other rule
 * of the page holds (so a rejection can be attributed). Checked on the explicit edge cases and on random
 * samples, for 4096- and 16384-byte pages.
 */
class PlansTest {
    private static final Limits L4K = new Limits(4096, 1 << 20, 1L << 40, true);
    private static final Limits L16K = new Limits(16384, 1 << 20, 1L << 40, true);
    private static final Limits SMALL = new Limits(4096, 16, 1L << 20, false);

    private static <T> List<T> samples(Arbitrary<T> a) {
        List<T> out = new ArrayList<>();
        for (Shrinkable<T> e : a.edgeCases()) {
            out.add(e.value());
        }
        out.addAll(a.sampleStream().limit(300).collect(Collectors.toList()));
        return out;
    }

    /** Which fast-register rules a plan breaks, computed from the plan alone (as the pages state them). */
    static List<FrCase> frBreaks(FrPlan p, Limits l) {
        List<FrCase> out = new ArrayList<>();
        long ps = l.pageSize();
        long fbo = Integer.toUnsignedLong(p.fbo());
        long count = Integer.toUnsignedLong(p.pageCount());
        long limit = count * ps - fbo;
        if (fbo >= ps) {
            out.add(FrCase.FBO_TOO_BIG);
        } else if ((p.baseVirtualAddress() & (ps - 1)) != fbo) {
            out.add(FrCase.BVA_INCONGRUENT);
        }
        if (p.length() == 0) {
            out.add(FrCase.ZERO_LENGTH);
        } else if (Long.compareUnsigned(p.length(), limit) > 0 || limit < 0) {
            out.add(FrCase.LENGTH_OVER);
        }
        if (p.length() != 0 && Long.compareUnsigned(p.baseVirtualAddress() + p.length() - 1, p.baseVirtualAddress()) < 0) {
            out.add(FrCase.WRAPS);
        }
        if (p.misalignDelta() != 0 && (p.misalignDelta() & (ps - 1)) != 0) {
            out.add(FrCase.PAGE_MISALIGNED);
        }
        if (Long.compareUnsigned(count, Integer.toUnsignedLong(p.initPageCount())) > 0) {
            out.add(FrCase.PAGES_OVER_INIT);
        }
        if ((p.flags() & 0x28) != 0 && !p.remoteAccess()) {
            out.add(FrCase.REMOTE_ON_LOCAL_MR);
        }
        if ((p.flags() & 0x20) != 0 && (p.flags() & 0x10) == 0) {
            out.add(FrCase.UNDEFINED_FLAG);
        }
        return out;
    }

    static List<RegCase> regBreaks(RegPlan p) {
        List<RegCase> out = new ArrayList<>();
        if (p.length() == 0) {
            out.add(RegCase.ZERO_LENGTH);
        }
        if (Long.compareUnsigned(p.length(), p.chainBytes()) > 0) {
            out.add(RegCase.OVER_CHAIN);
        }
        if (p.length() != 0 && Long.compareUnsigned(p.virtualAddress() + p.length() - 1, p.virtualAddress()) < 0) {
            out.add(RegCase.WRAPS);
        }
        if (p.breakIndex() >= 0 && Long.compareUnsigned(p.breakOffset(), p.length()) < 0) {
            out.add(RegCase.BROKEN_CHAIN);
        }
        int f = p.flags();
        if ((f & ~0xF) != 0 || ((f & 0x4) != 0 && (f & 0x1) == 0)) {
            out.add(RegCase.UNDEFINED_FLAGS);
        }
        return out;
    }

    @Test
    void fastRegisterPlansBreakExactlyTheirRule() {
        for (Limits l : List.of(L4K, L16K, SMALL)) {
            for (FrCase c : FrCase.values()) {
                if (c == FrCase.PAGES_OVER_INIT && l.frmrPageCount() < 2) {
                    continue;
                }
                for (FrPlan p : samples(FastRegisterPlans.breaking(c, l))) {
                    List<FrCase> expected = c == FrCase.VALID ? List.of() : List.of(c);
                    assertThat(frBreaks(p, l)).as("%s (PAGE_SIZE %d)", p, l.pageSize()).isEqualTo(expected);
                    assertThat(p.pageCount()).as(p.toString()).isLessThanOrEqualTo(p.lamPages());
                    assertThat(Integer.toUnsignedLong(p.initPageCount())).as(p.toString()).isLessThanOrEqualTo(l.frmrPageCount());
                    assertThat(p.baseVirtualAddress() != 0 || p.fbo() != 0 || c == FrCase.BVA_INCONGRUENT).as(p.toString()).isTrue();
                }
            }
        }
    }

    @Test
    void remoteAccessPlansAreValidSmallAndReadable() {
        for (FrPlan p : samples(FastRegisterPlans.validRemoteAccess(L4K))) {
            assertThat(frBreaks(p, L4K)).as(p.toString()).isEmpty();
            assertThat(p.length()).isPositive();
            assertThat(p.lamPages()).isLessThanOrEqualTo(8);
            assertThat(p.flags() & 0x38).isEqualTo(0x38);
        }
    }

    /**
     * On an adapter whose MaxRegistrationSize is two pages, every valid plan (and every plan whose only fault is
     * undefined flag bits, which MR-REG-14 compares with the same plan without them) stays within the limit and is
     * still valid; the breakers of other rules are left as they are.
     */
    @Test
    void validPlansStayWithinMaxRegistrationSize() {
        Limits tiny = new Limits(4096, 16, 8192, true);
        List<RegPlan> within = new ArrayList<>();
        within.addAll(samples(RegisterPlans.valid(tiny)));
        within.addAll(samples(RegisterPlans.validReadSink(tiny)));
        within.addAll(samples(RegisterPlans.validWithFlags(tiny, 0x7)));
        within.addAll(samples(RegisterPlans.brokenAfterLength(tiny)));
        for (RegPlan p : within) {
            assertThat(p.length()).as(p.toString()).isBetween(1L, 8192L);
            assertThat(regBreaks(p)).as(p.toString()).isEmpty();
        }
        for (RegPlan p : samples(RegisterPlans.breaking(RegCase.UNDEFINED_FLAGS, tiny))) {
            assertThat(p.length()).as(p.toString()).isBetween(1L, 8192L);
            assertThat(regBreaks(p)).as(p.toString()).containsExactly(RegCase.UNDEFINED_FLAGS);
        }
        // a plan longer than the limit exists without it: the fitting is what keeps the plans above short
        assertThat(samples(RegisterPlans.valid(L4K))).anySatisfy(p -> assertThat(p.length()).isGreaterThan(8192L));
    }

    @Test
    void registerPlansBreakExactlyTheirRule() {
        for (Limits l : List.of(L4K, L16K)) {
            int insidePage = 0;
            int onBoundary = 0;
            for (RegCase c : RegCase.values()) {
                for (RegPlan p : samples(RegisterPlans.breaking(c, l))) {
                    List<RegCase> expected = c == RegCase.VALID ? List.of() : List.of(c);
                    assertThat(regBreaks(p)).as("%s (PAGE_SIZE %d)", p, l.pageSize()).isEqualTo(expected);
                    assertThat(p.virtualAddress()).as(p.toString()).isNotZero();
                    for (int i = 0; i < p.byteCounts().length - 1; i++) {
                        long end = p.virtualAddress() + total(p, i + 1);
                        if ((end & (l.pageSize() - 1)) == 0) {
                            onBoundary++;
                        } else {
                            insidePage++;
                        }
                    }
                }
            }
            assertThat(insidePage).as("chains whose MDL boundary falls inside a page (PAGE_SIZE %d)", l.pageSize()).isPositive();
            assertThat(onBoundary).as("chains whose MDL boundary is a page boundary (PAGE_SIZE %d)", l.pageSize()).isPositive();
            for (RegPlan p : samples(RegisterPlans.brokenAfterLength(l))) {
                assertThat(regBreaks(p)).as(p.toString()).isEmpty();
                assertThat(p.breakIndex()).isPositive();
            }
        }
    }

    @Test
    void edgeCasesIncludeTheCasesTheIssuesName() {
        List<String> fr = samples(FastRegisterPlans.breaking(FrCase.LENGTH_OVER, L4K)).stream().map(FrPlan::edge).toList();
        assertThat(fr).contains("one past, FBO 0", "one past, FBO PAGE_SIZE-1", "pages x PAGE_SIZE, FBO ignored",
                "bit 32 set, low 32 bits within the limit", "top bit set", "2^20 pages, one past");
        List<FrPlan> valid = samples(FastRegisterPlans.valid(L4K));
        assertThat(valid).anySatisfy(p -> assertThat(p.pageCount()).isEqualTo(1 << 20));
        assertThat(valid).anySatisfy(p -> assertThat(p.baseVirtualAddress() + p.length()).isZero());
        List<RegPlan> wraps = samples(RegisterPlans.breaking(RegCase.WRAPS, L4K));
        assertThat(wraps).anySatisfy(p -> {
            assertThat(p.virtualAddress()).isEqualTo(0xFFFFFFFFFFFFF000L);
            assertThat(p.byteCounts()).containsExactly(0x2000);
            assertThat(p.length()).isEqualTo(0x2000);
        });
        List<RegPlan> broken = samples(RegisterPlans.breaking(RegCase.BROKEN_CHAIN, L4K));
        assertThat(broken).anySatisfy(p -> assertThat(p.length()).isEqualTo(p.breakOffset() + 1));
        List<RegPlan> after = samples(RegisterPlans.brokenAfterLength(L4K));
        assertThat(after).anySatisfy(p -> assertThat(p.length()).isEqualTo(p.breakOffset()));
        List<FrPlan> over = samples(FastRegisterPlans.breaking(FrCase.PAGES_OVER_INIT, L4K));
        assertThat(over).anySatisfy(p -> {
            assertThat(p.initPageCount()).isEqualTo(256);
            assertThat(p.pageCount()).isEqualTo(257);
        });
        assertThat(samples(FastRegisterPlans.breaking(FrCase.LENGTH_OVER, SMALL))).noneSatisfy(p -> assertThat(p.pageCount()).isGreaterThan(16));
    }

    private static long total(RegPlan p, int mdls) {
        long t = 0;
        for (int i = 0; i < mdls; i++) {
            t += Integer.toUnsignedLong(p.byteCounts()[i]);
        }
        return t;
    }
}
