package org.ndktck.tck.harness;

import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;

/**
 * One side of the session's connection: a PD, two CQs (the QP's initiator CQ and its receive CQ, so a
 * completion on the wrong one is seen: MR-FR-8, INV-3, CQ-2) and a QP. {@link AdapterObjects} creates and
 * closes them; the fields are set once, during the session's set-up.
 */
public final class Side {
    final String name;
    final Object qpContext;
    volatile NdkPd pd;
    volatile NdkCq cq;
    volatile NdkCq receiveCq;
    volatile NdkQp qp;

    Side(String name) {
        this.name = name;
        this.qpContext = new RequestContext("QPContext of the " + name + " QP");
    }

    /** @return "target" or "peer" */
    public String name() {
        return name;
    }

    /** @return the side's PD */
    public NdkPd pd() {
        return pd;
    }

    /**
     * @return the side's initiator CQ (completions of NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite,
     *     NdkSend, NdkSendAndInvalidate), or null before the QPs exist
     */
    public NdkCq cq() {
        return cq;
    }

    /** @return the side's receive CQ (completions of NdkReceive), or null before the QPs exist */
    public NdkCq receiveCq() {
        return receiveCq;
    }

    /**
     * @param type the operation type of a request posted on this side's QP
     * @return the CQ its entry belongs on: the receive CQ for a receive, the initiator CQ otherwise
     */
    public NdkCq cqFor(NdkOperationType type) {
        return WorkRequest.isReceive(type) ? receiveCq : cq;
    }

    /** @return the side's connected QP, or null before the QPs exist */
    public NdkQp qp() {
        return qp;
    }

    /** @return the QPContext the kit gave this side's QP */
    public Object qpContext() {
        return qpContext;
    }
}
