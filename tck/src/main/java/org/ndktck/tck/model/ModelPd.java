package org.ndktck.tck.model;

/**
 * One PD of the {@link PdModel}: its phase, the MRs of it (one {@link MrModel}: tokens are scoped by the PD) and the
 * count of its open QPs.
 *
 * @param <P> the kit's handle of the PD and its children
 */
public final class ModelPd<P> {
    private final int id;
    private final P handle;
    private final MrModel mrs = new MrModel();
    PdPhase phase = PdPhase.OPEN;
    int openQps;

    ModelPd(int id, P handle) {
        this.id = id;
        this.handle = handle;
    }

    /** @return the model's number of it (1, 2, ... in creation order) */
    public int id() {
        return id;
    }

    /** @return the kit's handle */
    public P handle() {
        return handle;
    }

    /** @return its phase */
    public PdPhase phase() {
        return phase;
    }

    /** @return its MRs: live and ended registrations, as the one MR model holds them */
    public MrModel mrs() {
        return mrs;
    }

    /** @return its QPs not closed */
    public int openQps() {
        return openQps;
    }

    /** @return true while an MR or a QP of it is open (a close of the PD must then pend: CL-6) */
    public boolean hasChildren() {
        return !mrs.all().isEmpty() || openQps > 0;
    }

    @Override
    public String toString() {
        return "PD#" + id + " (" + phase + ", " + mrs.all().size() + " MR(s), " + openQps + " QP(s))";
    }
}
