package org.ndktck.tck.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * The calls the model makes on a chain's own PD or on its children (MRs, QPs and the QPs' CQs), with the PD phases in
 * which a consumer may make each one: nothing new is created on a PD whose close was requested (CL-3), and its
 * children stay in use until they are closed (CL-6).
 */
public enum PdCall {
    /** NdkCreateMr and NdkRegisterMr of a normal MR of the PD (remote read and write, one page). */
    REGISTER_MR,
    /** NdkCreateCq, NdkCreateQp on the PD and the loopback connection to a QP of the peer's PD. */
    CONNECT_QP,
    /** The peer's NdkRead or NdkWrite through the remote token of a live registration of the PD. */
    ACCESS_LIVE,
    /** The peer's NdkRead or NdkWrite through the remote token of a deregistered or closed MR of the PD. */
    ACCESS_ENDED,
    /** NdkDeregisterMr of a registered MR of the PD. */
    DEREGISTER_MR,
    /** NdkCloseMr of an MR of the PD (registered or deregistered). */
    CLOSE_MR,
    /** NdkCloseQp of a QP of the PD (and of its peer QP). */
    CLOSE_QP,
    /** NdkCloseCq of the CQ of a closed QP of the PD. */
    CLOSE_CQ,
    /** NdkClosePd: STATUS_PENDING while MRs or QPs of it are open (CL-6), else success inline or through the callback. */
    CLOSE;

    /** @return the PD phases in which a consumer may make this call */
    public Set<PdPhase> phases() {
        return switch (this) {
            case REGISTER_MR, CONNECT_QP, CLOSE -> EnumSet.of(PdPhase.OPEN);
            default -> EnumSet.allOf(PdPhase.class);
        };
    }
}
