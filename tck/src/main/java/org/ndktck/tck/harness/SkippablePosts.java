package org.ndktck.tck.harness;

import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

import java.util.Arrays;
import java.util.function.Supplier;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * Posts for properties that make many requests in one try (the limit checks): a post the provider refuses
 * for lack of resources (STATUS_INSUFFICIENT_RESOURCES inline, which the pages allow) is skipped, not the whole try
 * discarded as {@link SessionTools#post} does, so a provider that refuses every ninth request still has its tries
 * judged. Any other result is recorded with the session exactly as {@link WorkRequests#post} records it.
 */
public final class SkippablePosts {
    private SkippablePosts() {
    }

    /**
     * NdkWrite on a QP the property owns (a {@link QpRef} with {@code session() == false}).
     *
     * @param t             the tools
     * @param q             the QP
     * @param sgl           the SGL
     * @param remoteAddress RemoteAddress (unsigned)
     * @param remoteToken   RemoteToken (UINT32)
     * @param flags         NDK_OP_FLAG_* bits
     * @return the posted request, or null when the provider refused it inline for lack of resources
     */
    public static WorkRequest write(SessionTools t, QpRef q, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        if (q.session()) {
            throw new IllegalArgumentException("a session QP: post through SessionTools");
        }
        NdkSession s = t.session();
        Supplier<String> d = () -> "NdkWrite(" + q.name() + " QP, Sgl=" + Arrays.toString(sgl) + ", RemoteAddress=" + u64(remoteAddress)
                + ", RemoteToken=" + u32(remoteToken) + ", Flags=" + u32(flags) + ")";
        NdkOperationType type = NdkOperationType.WRITE;
        WorkRequest wr = new WorkRequest(type, "NdkWrite", d, q.cq(), q.receiveCq(), q.qpContext(), (flags & org.ndktck.spec.NdkOpFlags.SILENT_SUCCESS) != 0);
        s.completions().expect(wr);
        NtStatus r = s.invoker().call("NdkWrite", d, () -> q.qp().write(wr.context, sgl, remoteAddress, remoteToken, flags));
        if (r == null) {
            throw Violations.of(WorkRequest.wrRule(type), d.get(), "an NTSTATUS", "the provider returned null");
        }
        wr.returned = r;
        if (r.isPending()) {
            throw Violations.of(WorkRequest.wrRule(type), d.get(),
                    "STATUS_SUCCESS (then a CQ entry) or an error: work requests complete through the CQ, not a callback",
                    "returned STATUS_PENDING");
        }
        return Refusals.isAllowedRefusal(r) ? null : wr;
    }
}
