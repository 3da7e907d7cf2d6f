package org.ndktck.tck.harness;

import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkQp;

/**
 * A QP and where its completions go: the CQs its requests complete on and the QPContext its entries carry.
 *
 * @param qp        the QP
 * @param cq        its initiator CQ
 * @param receiveCq its receive CQ (may equal {@code cq})
 * @param qpContext the QPContext given at NdkCreateQp
 * @param name      for messages ("target", "peer", "unconnected", or the property's name for it)
 * @param session   true for a QP the session owns (its requests are posted through the session's sides)
 */
public record QpRef(NdkQp qp, NdkCq cq, NdkCq receiveCq, Object qpContext, String name, boolean session) {
    /** @return the CQ an entry of this type belongs on: the receive CQ for receives, the initiator CQ otherwise */
    public NdkCq cqFor(NdkOperationType type) {
        return WorkRequest.isReceive(type) ? receiveCq : cq;
    }
}
