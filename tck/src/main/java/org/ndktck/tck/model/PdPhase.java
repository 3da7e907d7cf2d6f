package org.ndktck.tck.model;

/**
 * Where a PD of the model is in its life. The session's own PDs stay open all through; a chain's own PDs go through
 * these phases.
 */
public enum PdPhase {
    /** Created (NdkCreatePd succeeded) and not closed. */
    OPEN,
    /**
     * NdkClosePd was called while MRs or QPs of the PD were still open: the provider returned STATUS_PENDING and does
     * not close the PD before its last child has closed (CL-6, the object-lifetime page); until then its children work
     * as before. The consumer makes no call on the PD itself again (CL-3).
     */
    CLOSING
}
