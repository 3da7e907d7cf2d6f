package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.tck.generators.RegPlan;

/**
 * A {@link RegPlan} made real in a session: one guarded buffer with a page for every page the chain's
 * MDLs span, the MDL chain (consecutive page frames; virtual addresses as planned, break included) and
 * a normal MR on the target PD.
 */
public final class RegScenario {
    private final MrRequests mrs;
    private final int pageSize;
    private final RegPlan plan;
    private final HostBuffer buffer;
    private final Mdl chain;
    private final NdkMr mr;

    private RegScenario(NdkSession session, RegPlan plan, HostBuffer buffer, Mdl chain, NdkMr mr) {
        this.mrs = session.mrs();
        this.pageSize = session.pageSize();
        this.plan = plan;
        this.buffer = buffer;
        this.chain = chain;
        this.mr = mr;
    }

    /**
     * @param s    the session
     * @param plan the plan
     * @return the scenario, ready to {@link #register()}
     */
    public static RegScenario prepare(NdkSession s, RegPlan plan) {
        int p = s.pageSize();
        int[] bc = plan.byteCounts();
        long va = plan.virtualAddress();
        long firstPage = va & -(long) p;
        // the host buffer holds the whole range [VA, VA + chain bytes) page by page; MDL i starts in the page
        // its VA falls in, so an MDL boundary inside a page shares that page's frame with the MDL before it
        // (one host page, one frame), and a chain broken by breakDelta keeps the same frames
        long[] vas = new long[bc.length];
        int[] pageOf = new int[bc.length];
        long at = va;
        for (int i = 0; i < bc.length; i++) {
            vas[i] = at;
            pageOf[i] = (int) ((at - firstPage) / p);
            at += Integer.toUnsignedLong(bc[i]);
        }
        long totalPages = Mdl.spanPages((int) (va & (p - 1)), at - va, p);
        if (plan.breakIndex() >= 0) {
            for (int i = plan.breakIndex(); i < bc.length; i++) {
                vas[i] += plan.breakDelta();
            }
        }
        HostBuffer buffer = s.buffers().allocate((int) Math.max(1, totalPages));
        Mdl first = null;
        Mdl prev = null;
        for (int i = 0; i < bc.length; i++) {
            Mdl m = buffer.mdl(vas[i], pageOf[i], bc[i]);
            if (first == null) {
                first = m;
            } else {
                prev.setNext(m);
            }
            prev = m;
        }
        NdkMr mr = s.mrs().createMr(s.objects().target(), false);
        return new RegScenario(s, plan, buffer, first, mr);
    }

    /** @return the plan */
    public RegPlan plan() {
        return plan;
    }

    /** @return the MR */
    public NdkMr mr() {
        return mr;
    }

    /** @return the buffer */
    public HostBuffer buffer() {
        return buffer;
    }

    /** @return the first MDL of the chain */
    public Mdl chain() {
        return chain;
    }

    /** @return NdkRegisterMr of the plan, awaited */
    public Outcome register() {
        return mrs.register(mr, chain, plan.length(), plan.flags());
    }

    /**
     * NdkRegisterMr of the plan even when its Length lies past MaxRegistrationSize ({@link MrRequests#registerPastLimit}):
     * for the properties about that limit.
     *
     * @return the outcome
     */
    public Outcome registerPastLimit() {
        return mrs.registerPastLimit(mr, chain, plan.length(), plan.flags());
    }

    /**
     * @param remoteToken the token
     * @return the region: base = MDL 0's VA, byte k at buffer offset (VA mod PAGE_SIZE) + k
     */
    public Region region(int remoteToken) {
        return new Region(buffer, plan.virtualAddress() & (pageSize - 1), plan.virtualAddress(), plan.length(), remoteToken);
    }
}
