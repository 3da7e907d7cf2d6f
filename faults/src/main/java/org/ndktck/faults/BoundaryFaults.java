package org.ndktck.faults;

import static org.ndktck.faults.Variants.failUnless;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.ndktck.reference.FastRegisterRequest;
import org.ndktck.reference.Pieces;
import org.ndktck.reference.RegisterMrRequest;
import org.ndktck.reference.RuleCheck;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

/**
 * Off-by-one faults at the limits of the provider-checked rules whose boundary mutants survived the PIT run
 * (benchmarks/results/pit-survivors.md, run 3). Each is the reference provider with one limit moved by one, at
 * exactly the boundary value, and is named {@code fault:RULE-ID/variant} after the rule the kit must FAIL.
 *
 * <ul>
 *   <li>{@code fault:MR-FR-16/fbo-up-to-page-size}: NdkFastRegister takes FBO &le; PAGE_SIZE as "within the first
 *       page" (instead of FBO &lt; PAGE_SIZE) and checks MR-FR-4 as (BaseVirtualAddress &minus; FBO) mod PAGE_SIZE
 *       = 0, which is the same congruence for every FBO below PAGE_SIZE. So FBO = PAGE_SIZE exactly (with a
 *       page-aligned BaseVirtualAddress) is registered; PAGE_SIZE + 1 and above are still refused. This is the
 *       surviving {@code <}/{@code <=} mutant of {@code StandardChecks.fastRegisterFboWithinPage} made reachable:
 *       in the reference that mutant is masked by MR-FR-4's {@code BaseVirtualAddress & (PAGE_SIZE - 1) == FBO},
 *       which no FBO &ge; PAGE_SIZE can meet, so the mutant itself is equivalent.</li>
 *   <li>{@code fault:MR-REG-10/accepts-one-over}: NdkRegisterMr accepts Length = MaxRegistrationSize + 1 (the
 *       limit compared with {@code <=} against MaxRegistrationSize + 1); MaxRegistrationSize + 2 and above are
 *       still refused. MR-REG-10 is a SHOULD rule, so the kit reports it ADVISORY. The fault carries
 *       {@code maxRegistrationSize=0x100000} as its default (as {@code fault:MR-REG-10}, the other side of this
 *       boundary, does): with the reference's default 2^40 the kit cannot build a chain that long, which is why
 *       the boundary mutant of {@code StandardChecks.registerWithinMaxRegistrationSize} survives a PIT run at
 *       default settings.</li>
 *   <li>{@code fault:MR-REG-13/empty-mdl-saturates}: NdkRegisterMr sums the chain's ByteCounts with an unsigned
 *       add whose overflow test is off by one ({@code sum + b <= sum} instead of {@code <}), so an MDL of ByteCount
 *       0 counts as an overflow and the total saturates at 2^64 &minus; 1: any Length then passes the MR-REG-13
 *       check, and a chain with an empty MDL registers Length bytes over fewer pages. This is the surviving
 *       {@code <}/{@code <=} mutant of {@code Unsigned.saturatingAdd} as {@code MdlChainSummary} uses it; the kit
 *       catches it since its MR-REG-13 generator puts an MDL of ByteCount 0 in some chains.</li>
 * </ul>
 */
public final class BoundaryFaults implements NdkProviderSource {


    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.builder("fault:MR-FR-16/fbo-up-to-page-size",
                "NdkFastRegister accepts FBO <= PAGE_SIZE (off by one) and checks BaseVirtualAddress - FBO for PAGE_SIZE alignment, "
                        + "so FBO = PAGE_SIZE exactly is registered")
                .replace(Pieces.MR_FR_16, (RuleCheck<FastRegisterRequest>) r -> failUnless(r.unsignedFbo() <= r.adapter().pageSize()))
                .replace(Pieces.MR_FR_4, (RuleCheck<FastRegisterRequest>) r ->
                        failUnless(((r.baseVirtualAddress() - r.unsignedFbo()) & (r.adapter().pageSize() - 1L)) == 0))
                .build());
        out.add(FaultDefaults.withDefaults(Variants.builder("fault:MR-REG-10/accepts-one-over",
                "NdkRegisterMr accepts Length = MaxRegistrationSize + 1 (off by one; default maxRegistrationSize=0x100000, so the kit "
                        + "reaches the limit)")
                .replace(Pieces.MR_REG_10, (RuleCheck<RegisterMrRequest>) r -> {
                    long max = r.adapter().settings().maxRegistrationSize();
                    long limit = max == -1L ? max : max + 1;
                    return failUnless(Long.compareUnsigned(r.length(), limit) <= 0);
                }).build(), Map.of("maxRegistrationSize", "0x100000")));
        out.add(Variants.builder("fault:MR-REG-13/empty-mdl-saturates",
                "NdkRegisterMr's sum of the chain's ByteCounts takes a zero addend for an overflow and saturates, so a chain holding an "
                        + "MDL of ByteCount 0 accepts any Length")
                .replace(Pieces.MR_REG_13, (RuleCheck<RegisterMrRequest>) r ->
                        failUnless(Long.compareUnsigned(r.length(), offByOneTotal(r.mdl(), r.chain().mdlCount())) <= 0))
                .build());
        return out;
    }

    /**
     * @param first  the first MDL
     * @param mdls   the MDLs to walk at most (the chain's count from the reference's one pass, so a cycle ends)
     * @return the chain's total ByteCount, unsigned, saturating at 2^64 - 1 when {@code sum + b <= sum}: off by
     *         one, so a ByteCount of 0 saturates too
     */
    static long offByOneTotal(Mdl first, long mdls) {
        long sum = 0;
        long walked = 0;
        for (Mdl m = first; m != null && walked < mdls; m = m.next(), walked++) {
            long s = sum + m.unsignedByteCount();
            sum = Long.compareUnsigned(s, sum) <= 0 ? -1L : s;
        }
        return sum;
    }
}
