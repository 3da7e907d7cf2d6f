package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.FrPlan;

import java.util.Arrays;

/**
 * An {@link FrPlan} made real in a session: a guarded buffer of {@code lamPages} pages, one MDL over it
 * starting at offset FBO mod PAGE_SIZE, a LAM built with NdkBuildLam (MR-FR-2: page addresses come from
 * NdkBuildLam; in one plan in three the array joins two LAMs, see {@link #splitAt}; some arrays start at a later
 * page of their LAM, {@link #windowAt}, or descend through it, {@link #descending}), the page array handed
 * to NdkFastRegister (with the planned misalignment), and a
 * fast-register MR created and initialized on the target PD.
 */
public final class FrScenario {
    private final AdapterObjects objects;
    private final MrRequests mrs;
    private final WorkRequests requests;
    private final ConnectedPeer peer;
    private final FrPlan plan;
    private final HostBuffer buffer;
    private final Lam lam;
    private final long[] pageArray;
    private final NdkMr mr;

    private FrScenario(NdkSession session, FrPlan plan, HostBuffer buffer, Lam lam, long[] pageArray, NdkMr mr) {
        this.objects = session.objects();
        this.mrs = session.mrs();
        this.requests = session.requests();
        this.peer = session.connectedPeer();
        this.plan = plan;
        this.buffer = buffer;
        this.lam = lam;
        this.pageArray = pageArray;
        this.mr = mr;
    }

    /**
     * Builds the buffer, LAM and MR of a plan (the QPs too).
     *
     * @param s    the session
     * @param plan the plan
     * @return the scenario, ready to {@link #post()}
     */
    public static FrScenario prepare(NdkSession s, FrPlan plan) {
        int p = s.pageSize();
        HostBuffers buffers = s.buffers();
        Lams lams = s.lams();
        s.objects().qps();
        HostBuffer buffer = buffers.allocate(plan.lamPages());
        int inPage = (int) (Integer.toUnsignedLong(plan.fbo()) & (p - 1));
        long va = 0x0000_4000_0000_0000L + inPage;
        int byteCount = (int) ((long) (plan.lamPages() - 1) * p + 1);
        Lam lam;
        long[] pages;
        int split = splitAt(plan);
        if (split > 0) {
            // the page array joins two LAMs (pages [0, split) and [split, lamPages) of the buffer): its entries are
            // not one run of logical addresses, as MR-FR-2 allows; the region is still the buffer, page by page
            long vaPage = va - inPage;
            lam = lams.buildLam(buffer.mdl(va, 0, split * p - inPage), (long) split * p - inPage);
            Lam second = lams.buildLam(buffer.mdl(vaPage + (long) split * p, split, byteCount - (split * p - inPage)),
                    Integer.toUnsignedLong(byteCount - (split * p - inPage)));
            long[] joined = Arrays.copyOf(lam.pages(), lam.pages().length + second.pages().length);
            System.arraycopy(second.pages(), 0, joined, lam.pages().length, second.pages().length);
            pages = Arrays.copyOf(joined, plan.pageCount());
        } else if (windowAt(plan) > 0) {
            // the LAM starts windowAt pages before the buffer (a chain of a prefix buffer and this one), and the page
            // array is the LAM's entries from there on: a run of one LAM that does not start at its first page
            int w = windowAt(plan);
            long vaPage = va - inPage;
            HostBuffer prefix = buffers.allocate(w);
            Mdl chain = prefix.mdl(vaPage - (long) w * p, 0, w * p);
            chain.setNext(buffer.mdl(vaPage, 0, inPage + byteCount));
            lam = lams.buildLam(chain, (long) w * p + inPage + Integer.toUnsignedLong(byteCount));
            pages = Arrays.copyOfRange(lam.pages(), w, w + plan.pageCount());
        } else if (descending(plan)) {
            // the LAM is built over a second mapping of the buffer's pages in reverse order, followed by lamPages - 1
            // pages of another buffer: LAM page j (j < lamPages) is buffer page lamPages - 1 - j. Entry i of the page
            // array is LAM page lamPages - 1 - i, so the array descends page by page through the LAM (MR-FR-2: entries
            // need not be adjacent in logical space) while it still maps the buffer in order. Read as an ascending run
            // from its first entry, it would fit in the LAM and map the other buffer's pages instead.
            int n = plan.lamPages();
            HostBuffer after = buffers.allocate(n - 1);
            long[] pfns = new long[2 * n - 1];
            for (int j = 0; j < n; j++) {
                pfns[j] = buffer.pfn(n - 1 - j);
            }
            for (int j = 1; j < n; j++) {
                pfns[n - 1 + j] = after.pfn(j - 1);
            }
            int bytes = (2 * n - 1) * p;
            lam = lams.buildLam(Mdl.of(p, 0x0000_6000_0000_0000L, bytes, pfns), bytes);
            pages = new long[plan.pageCount()];
            for (int i = 0; i < pages.length; i++) {
                pages[i] = lam.pages()[n - 1 - i];
            }
        } else {
            lam = lams.buildLam(buffer.mdl(va, 0, byteCount), Integer.toUnsignedLong(byteCount));
            pages = Arrays.copyOf(lam.pages(), plan.pageCount());
        }
        if (plan.misalignDelta() != 0 && plan.misalignIndex() == FrPlan.EVERY_ENTRY) {
            for (int i = 0; i < pages.length; i++) {
                pages[i] += plan.misalignDelta();
            }
        } else if (plan.misalignDelta() != 0) {
            pages[plan.misalignIndex()] += plan.misalignDelta();
        }
        NdkMr mr = s.mrs().fastRegisterMr(plan.initPageCount(), plan.remoteAccess());
        return new FrScenario(s, plan, buffer, lam, pages, mr);
    }

    /**
     * @param plan the plan
     * @return where the page array switches from one LAM to a second one (a page index, 1 to lamPages − 1), or 0
     *     for one LAM: one plan in three of 2 to 4096 LAM pages, chosen by the plan's salt
     */
    static int splitAt(FrPlan plan) {
        int n = plan.lamPages();
        long h = plan.salt() * 0x9E37_79B9_7F4A_7C15L;
        if (n < 2 || n > 4096 || Long.remainderUnsigned(h, 3) != 0) {
            return 0;
        }
        return 1 + (int) Long.remainderUnsigned(h >>> 8, n - 1);
    }

    /**
     * @param plan the plan
     * @return how many LAM pages come before the page array's first entry (1 or 2), or 0 when the array starts at
     *     the LAM's first page: one plan in three of those with one LAM of at most 4096 pages, chosen by the salt
     */
    static int windowAt(FrPlan plan) {
        long h = plan.salt() * 0xC2B2_AE3D_27D4_EB4FL;
        if (splitAt(plan) > 0 || plan.lamPages() > 4096 || Long.remainderUnsigned(h, 3) != 0) {
            return 0;
        }
        return 1 + (int) Long.remainderUnsigned(h >>> 8, 2);
    }

    /**
     * @param plan the plan
     * @return true when the page array descends through one LAM (entry i + 1 is the LAM page before entry i; see
     *     {@link #prepare}): one plan in three of those with neither {@link #splitAt} nor {@link #windowAt}, 2 to 64
     *     LAM pages, chosen by the salt
     */
    static boolean descending(FrPlan plan) {
        long h = plan.salt() * 0xD6E8_FEB8_6659_FD93L;
        return splitAt(plan) == 0 && windowAt(plan) == 0 && plan.lamPages() >= 2 && plan.lamPages() <= 64
                && Long.remainderUnsigned(h, 3) == 0;
    }

    /** @return the plan */
    public FrPlan plan() {
        return plan;
    }

    /** @return the MR */
    public NdkMr mr() {
        return mr;
    }

    /** @return the buffer behind the page array */
    public HostBuffer buffer() {
        return buffer;
    }

    /** @return the page array NdkFastRegister gets */
    public long[] pageArray() {
        return pageArray;
    }

    /**
     * Posts the planned NdkFastRegister on the target's QP and awaits its end.
     *
     * @return the outcome
     */
    public WrOutcome post() {
        return postOn(objects.target().qp());
    }

    /**
     * Posts the planned NdkFastRegister on a given QP of the target PD.
     *
     * @param qp the QP
     * @return the outcome
     */
    public WrOutcome postOn(org.ndktck.spec.NdkQp qp) {
        return requests.fastRegister(qp, mr, plan.pageCount(), pageArray, plan.fbo(), plan.length(), plan.baseVirtualAddress(), plan.flags());
    }

    /**
     * Posts the planned request, which the plan built valid, and requires STATUS_SUCCESS (MR-FRI-2: fast
     * registrations within the initialized AdapterPageCount work). When it fails and carries
     * NDK_OP_FLAG_RDMA_READ_SINK on an adapter with RDMA_READ_SINK_NOT_REQUIRED, the same request is posted
     * without that flag: if that one succeeds, the failure is charged to MR-FR-11.
     *
     * @return the successful outcome
     */
    public WrOutcome postValid() {
        WrOutcome o = post();
        if (registered(o)) {
            return o;
        }
        throw diagnoseValidFailure(o);
    }

    /**
     * The violation for a valid request of this plan that did not register: MR-FR-11 when the same request
     * without NDK_OP_FLAG_RDMA_READ_SINK registers (on an adapter with RDMA_READ_SINK_NOT_REQUIRED), else MR-FRI-2.
     *
     * @param o how the request ended
     * @return the violation to throw
     */
    public org.ndktck.tck.RuleViolation diagnoseValidFailure(WrOutcome o) {
        if ((plan.flags() & org.ndktck.spec.NdkOpFlags.RDMA_READ_SINK) != 0 && objects.readSinkNotRequired()) {
            WrOutcome without = requests.fastRegister(objects.target().qp(), mr, plan.pageCount(), pageArray, plan.fbo(),
                    plan.length(), plan.baseVirtualAddress(), plan.flags() & ~org.ndktck.spec.NdkOpFlags.RDMA_READ_SINK);
            if (registered(without)) {
                return Violations.of("MR-FR-11", o.call(), "STATUS_SUCCESS: NDK_OP_FLAG_RDMA_READ_SINK (0x80) never makes a valid request fail "
                        + "on an adapter with RDMA_READ_SINK_NOT_REQUIRED", o.describe() + ", while the same request without it succeeded");
            }
        }
        return Violations.of("MR-FRI-2", o.call(), "STATUS_SUCCESS for a valid request within the initialized AdapterPageCount", o.describe());
    }

    /** @return the call text of the planned request, for messages */
    public String describe() {
        return plan.toString();
    }

    /**
     * @param remoteToken the token to use
     * @return the region as the plan describes it (base BaseVirtualAddress, byte k at buffer offset FBO + k)
     */
    public Region region(int remoteToken) {
        return new Region(buffer, Integer.toUnsignedLong(plan.fbo()), plan.baseVirtualAddress(), plan.length(), remoteToken);
    }

    /**
     * "Never registered" (docs/ARCHITECTURE.md): after the request, the MR grants no access. The peer
     * reads one byte at BaseVirtualAddress (and at the middle of the requested region) with the MR's
     * remote token; both must fail.
     *
     * @param rule the rule to charge
     * @param why  what the request was, for the message
     */
    public void assertGrantsNothing(String rule, String why) {
        assertGrantsNothing(rule, () -> why);
    }

    /**
     * As {@link #assertGrantsNothing(String, String)} with the description built only for a failure.
     *
     * @param rule the rule to charge
     * @param why  what the request was
     */
    public void assertGrantsNothing(String rule, java.util.function.Supplier<String> why) {
        int token = mrs.remoteToken(mr);
        long base = plan.baseVirtualAddress();
        long[] addresses = plan.length() > 1 ? new long[]{base, base + plan.length() / 2} : new long[]{base};
        for (long a : addresses) {
            Access r = peer.read(a, token, 1);
            if (r.succeeded()) {
                throw Violations.of(rule, plan.toString(), why.get() + ": the request is never registered, so the MR grants no access",
                        "the request was refused, yet " + r.describe());
            }
        }
    }

    /** @return true when the outcome is STATUS_SUCCESS: the request was registered */
    public static boolean registered(WrOutcome o) {
        return NtStatus.STATUS_SUCCESS.equals(o.status());
    }
}
