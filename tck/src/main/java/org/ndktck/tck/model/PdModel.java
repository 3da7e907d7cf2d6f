package org.ndktck.tck.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chain's own PDs as the pages allow them to behave: a PD is closed in any order relative to its children, and a
 * close requested while an MR or QP of it is open returns STATUS_PENDING and completes only after the last child has
 * closed (CL-6, NDKPI object-lifetime page "Closing Antecedent and Successor Objects"); until then the PD's MRs keep
 * granting what they granted and its QPs keep working. A property asks {@link #eligible} for the PDs a call may be
 * made on (consumer obligations: nothing new on a closing PD, CL-3), counts the call ({@link #calling}), makes it,
 * and reports {@link #closing} or {@link #closed} and the children it opened or closed.
 *
 * @param <P> the kit's handle of a PD and its children
 */
public final class PdModel<P> {
    private final Map<Integer, ModelPd<P>> pds = new LinkedHashMap<>();
    private final Coverage coverage;
    private int next = 1;

    /** @param coverage where the (phase, call) pairs are counted */
    public PdModel(Coverage coverage) {
        this.coverage = coverage;
    }

    /**
     * @param handle the kit's handle of a PD NdkCreatePd made
     * @return the model's PD, OPEN
     */
    public ModelPd<P> created(P handle) {
        ModelPd<P> pd = new ModelPd<>(next++, handle);
        pds.put(pd.id(), pd);
        return pd;
    }

    /** @return the PDs not closed, in creation order */
    public List<ModelPd<P>> all() {
        return List.copyOf(pds.values());
    }

    /**
     * @param call a call
     * @return the PDs a consumer may make it on (or on their children) now
     */
    public List<ModelPd<P>> eligible(PdCall call) {
        return pds.values().stream().filter(pd -> call.phases().contains(pd.phase)).toList();
    }

    /**
     * Counts a call about to be made and checks that a consumer may make it (a kit defect otherwise).
     *
     * @param pd   the PD
     * @param call the call
     */
    public void calling(ModelPd<P> pd, PdCall call) {
        if (!call.phases().contains(pd.phase)) {
            throw new IllegalStateException("the kit must not make " + call + " on " + pd);
        }
        coverage.count(pd.phase, call);
    }

    /**
     * A QP of the PD was created and connected.
     *
     * @param pd the PD (OPEN)
     */
    public void qpOpened(ModelPd<P> pd) {
        pd.openQps++;
    }

    /**
     * A QP of the PD was closed.
     *
     * @param pd the PD
     */
    public void qpClosed(ModelPd<P> pd) {
        pd.openQps--;
    }

    /**
     * NdkClosePd returned STATUS_PENDING with children open: the PD stays until they close.
     *
     * @param pd the PD (OPEN)
     */
    public void closing(ModelPd<P> pd) {
        pd.phase = PdPhase.CLOSING;
    }

    /**
     * The PD's close completed: it leaves the model.
     *
     * @param pd the PD
     */
    public void closed(ModelPd<P> pd) {
        pds.remove(pd.id());
    }
}
