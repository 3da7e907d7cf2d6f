package org.ndktck.tck.generators;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Shrinkable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every combined plan is a request the pages require to work (contiguous chain, 1 &le; Length &le; chain bytes, a
 * non-zero VA, no wrap past 2^64), and each class is what its name says: at 4096- and 16384-byte pages, over every
 * covering-array row and random samples.
 */
class CombinedRegPlansTest {
    private static final Limits L4K = new Limits(4096, 1 << 20, 1L << 40, true);
    private static final Limits L16K = new Limits(16384, 1 << 20, 1L << 40, true);

    private static List<RegPlan> samples(Limits l) {
        Arbitrary<RegPlan> a = CombinedRegPlans.plans(l);
        List<RegPlan> out = new ArrayList<>();
        for (Shrinkable<RegPlan> e : a.edgeCases()) {
            out.add(e.value());
        }
        out.addAll(a.sampleStream().limit(500).toList());
        return out;
    }

    @Test
    void everyPlanIsAValidRequest() {
        for (Limits l : List.of(L4K, L16K)) {
            List<RegPlan> plans = samples(l);
            assertThat(plans.size()).isGreaterThan(CombinedRegPlans.rows().size());
            for (RegPlan p : plans) {
                assertThat(p.kind()).isEqualTo(RegCase.VALID);
                assertThat(p.breakIndex()).isEqualTo(-1);
                assertThat(p.virtualAddress()).as("%s", p).isNotZero();
                for (int bc : p.byteCounts()) {
                    assertThat(Integer.toUnsignedLong(bc)).as("%s", p).isBetween(1L, 8L * l.pageSize());
                }
                assertThat(p.length()).as("%s", p).isBetween(1L, p.chainBytes());
                long end = p.virtualAddress() + p.length() - 1;
                assertThat(Long.compareUnsigned(end, p.virtualAddress())).as("wraps: %s", p).isGreaterThanOrEqualTo(0);
            }
        }
    }

    @Test
    void theEdgeCasesAreTheCoveringArrayRowsAndTheirClassesHold() {
        int p = L4K.pageSize();
        List<int[]> rows = CombinedRegPlans.rows();
        assertThat(CombinedRegPlans.plans(L4K).edgeCases()).hasSize(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            int[] row = rows.get(i);
            RegPlan plan = CombinedRegPlans.plan(L4K, row, 12345L + i);
            long fbo = plan.virtualAddress() & (p - 1);
            switch (row[CombinedRegPlans.FBO]) {
                case 0 -> assertThat(fbo).isZero();
                case 1 -> assertThat(fbo).isEqualTo(1);
                case 2 -> assertThat(fbo).isBetween(2L, p - 2L);
                default -> assertThat(fbo).isEqualTo(p - 1L);
            }
            assertThat(plan.byteCounts()).hasSize(row[CombinedRegPlans.MDLS] + 1);
            long endInPage = (fbo + plan.length()) % p;
            switch (row[CombinedRegPlans.LENGTH]) {
                case 0 -> assertThat(plan.length()).isEqualTo(1);
                case 1 -> assertThat(plan.length()).isEqualTo(plan.chainBytes());
                case 2 -> assertThat(plan.length()).isEqualTo(Math.max(1, plan.chainBytes() - 1));
                case 3 -> assertThat(endInPage == 0 || plan.length() == plan.chainBytes()).as("%s", plan).isTrue();
                case 4 -> assertThat(endInPage == 1 || plan.length() == plan.chainBytes()).as("%s", plan).isTrue();
                default -> assertThat(plan.length()).isBetween(1L, plan.chainBytes());
            }
            if (row[CombinedRegPlans.LAST] == 0) {
                assertThat(plan.byteCounts()[plan.byteCounts().length - 1]).isEqualTo(1);
            }
            if (row[CombinedRegPlans.SHAPE] == 2 && plan.byteCounts().length > 1) {
                assertThat(plan.byteCounts()[plan.byteCounts().length - 2]).isEqualTo(1);
            }
        }
    }

    @Test
    void aChainWhoseLastPageHoldsOneByteIsAmongTheRows() {
        // the class exists in rows with two or more MDLs (a provider's chain path is tried with it)
        long n = CombinedRegPlans.rows().stream().filter(r -> r[CombinedRegPlans.LENGTH] == 4 && r[CombinedRegPlans.MDLS] >= 1).count();
        assertThat(n).isPositive();
    }
}
