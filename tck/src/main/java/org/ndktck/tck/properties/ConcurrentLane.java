package org.ndktck.tck.properties;

import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.KitSetupError;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.RequestContext;
import org.ndktck.tck.harness.SessionTools;

/**
 * One kit thread's own connection in a concurrent try ({@link ConcurrentCallsProperties}): a QP on the target PD
 * and a QP on the peer PD, connected by loopback, each on a CQ of its own unless the property shares one. A
 * thread posts and polls only on its lane, so no two kit threads ever call NdkGetCqResults on one CQ at once
 * (CQ-4 binds the kit) and no two post on one QP at once; the threads meet in the adapter, the PDs and the MRs.
 *
 * @param target the QP on the target PD
 * @param peer   the QP on the peer PD
 */
record ConcurrentLane(QpRef target, QpRef peer) {
    /** CQ depth of a lane's own CQs: above the QP queue depth of 16 the kit's QPs get. */
    static final int OWN_CQ_DEPTH = 64;

    /**
     * Opens a lane (objects owned by {@code t}, closed with it).
     *
     * @param s        the session
     * @param t        the property's tools
     * @param name     for messages, e.g. {@code lane 2}
     * @param targetCq the CQ of the target QP, or null for a CQ of its own
     * @return the connected lane
     * @throws KitSetupError when the QPs cannot be connected
     */
    static ConcurrentLane open(NdkSession s, SessionTools t, String name, NdkCq targetCq) {
        s.qps();
        NdkCq tcq = targetCq != null ? targetCq : t.createCq(OWN_CQ_DEPTH);
        NdkCq pcq = t.createCq(OWN_CQ_DEPTH);
        QpRef a = t.createQp(s.target().pd(), tcq, new RequestContext("QPContext of the target QP of " + name), "target QP of " + name, 0, 1);
        QpRef b = t.createQp(s.peer().pd(), pcq, new RequestContext("QPContext of the peer QP of " + name), "peer QP of " + name, 0, 1);
        NtStatus st = s.invoker().call("connectLoopback", () -> "connectLoopback(target QP of " + name + ", peer QP of " + name + ")",
                () -> s.adapter().connectLoopback(a.qp(), b.qp()));
        if (!NtStatus.STATUS_SUCCESS.equals(st)) {
            throw new KitSetupError("connectLoopback(QPs of " + name + ")", String.valueOf(st));
        }
        return new ConcurrentLane(a, b);
    }
}
