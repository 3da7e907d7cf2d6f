package org.ndktck.tck.model;

import org.ndktck.spec.NdkMr;

/**
 * One MR of the model: the provider's object, its kind (normal or fast-register), its {@link MrPhase}, the
 * registration it holds (a {@link Grant}, null when none) and, for a fast-register MR once initialized, its
 * {@link FastPages}. Only {@link MrModel} changes the phase and the grant.
 */
public final class ModelMr {
    private final int id;
    private final NdkMr mr;
    private final boolean fast;
    MrPhase phase = MrPhase.NEW;
    Grant grant;
    FastPages pages;

    ModelMr(int id, NdkMr mr, boolean fast) {
        this.id = id;
        this.mr = mr;
        this.fast = fast;
    }

    /** @return the model's number for it (1, 2, ... in creation order), as messages print it */
    public int id() {
        return id;
    }

    /** @return the provider's MR */
    public NdkMr mr() {
        return mr;
    }

    /** @return true for an MR created for fast registration */
    public boolean fast() {
        return fast;
    }

    /** @return where it is in its life */
    public MrPhase phase() {
        return phase;
    }

    /** @return the live registration, or null when it holds none */
    public Grant grant() {
        return grant;
    }

    /** @return what initialization fixed, or null before NdkInitializeFastRegisterMr succeeded */
    public FastPages pages() {
        return pages;
    }

    @Override
    public String toString() {
        return "MR#" + id + (fast ? "(fast)" : "");
    }
}
