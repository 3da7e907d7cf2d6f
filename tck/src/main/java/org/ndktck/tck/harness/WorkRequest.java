package org.ndktck.tck.harness;

import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

import java.util.function.Supplier;

/**
 * One work request the kit posted on a QP (NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite, NdkSend,
 * NdkReceive) and the CQ entry it produced: the kit matches entries to requests by their
 * {@link RequestContext} (CQ-2) and knows the inline return, so an entry for a request that failed
 * inline is caught (DEF-2).
 */
public final class WorkRequest {
    final RequestContext context;
    final NdkOperationType type;
    final String kind;
    final Supplier<String> detail;
    /** The CQ its entry belongs on. */
    final NdkCq cq;
    /** The QP's other CQ (drained too while waiting, so a misplaced entry is seen); may equal {@link #cq}. */
    final NdkCq otherCq;
    final Object qpContext;
    final boolean silent;
    volatile NtStatus returned;
    volatile NdkResultEx entry;
    /** Set for an NdkReceive whose entry may carry either receive type (its matching send is not judged on it). */
    volatile boolean eitherReceiveType;

    WorkRequest(NdkOperationType type, String kind, Supplier<String> detail, NdkCq cq, NdkCq otherCq, Object qpContext,
                boolean silent) {
        this.context = new RequestContext(kind);
        this.type = type;
        this.kind = kind;
        this.detail = detail;
        this.cq = cq;
        this.otherCq = otherCq == null ? cq : otherCq;
        this.qpContext = qpContext;
        this.silent = silent;
    }

    /**
     * Lets the CQ entry of this NdkReceive carry RECEIVE or RECEIVE_AND_INVALIDATE (CQ-3 is not judged on it): for a
     * receive matched by an NdkSendAndInvalidate whose token names nothing, where the kit does not judge the type.
     * Call it before the matching send is posted.
     *
     * @return this request
     */
    public WorkRequest acceptEitherReceiveType() {
        eitherReceiveType = true;
        return this;
    }

    /** @return the context posted with the request */
    public RequestContext context() {
        return context;
    }

    /** @return the status the post returned, or null */
    public NtStatus returned() {
        return returned;
    }

    /** @return the CQ entry seen for it, or null */
    public NdkResultEx entry() {
        return entry;
    }

    /** @return the call with its arguments in hex */
    public String detail() {
        return detail.get();
    }

    /** @return true for the completion types of NdkReceive (RECEIVE, RECEIVE_AND_INVALIDATE) */
    static boolean isReceive(NdkOperationType type) {
        return type == NdkOperationType.RECEIVE || type == NdkOperationType.RECEIVE_AND_INVALIDATE;
    }

    /**
     * @return the rule that names the CQ an entry of this type belongs on: MR-FR-8 (fast register) and INV-3
     *     (invalidate) say the initiator CQ; for the others CQ-2 (the entry of the QP and queue it was posted on)
     */
    static String cqRule(NdkOperationType type) {
        return switch (type) {
            case FAST_REGISTER -> "MR-FR-8";
            case INVALIDATE -> "INV-3";
            default -> "CQ-2";
        };
    }

    /** @return the rule that requires a CQ entry after a successful post of this type */
    static String wrRule(NdkOperationType type) {
        return switch (type) {
            case FAST_REGISTER -> "MR-FR-8";
            case INVALIDATE -> "INV-3";
            default -> "RW-5";
        };
    }
}
