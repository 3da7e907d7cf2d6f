package org.ndktck.tck.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The LAMs of one adapter: several live at once, built (NdkBuildLam) and released (NdkReleaseLam) in any order, each
 * released once (LAM-REL-3). A live LAM's adapter logical addresses, with the PD's privileged token, reach exactly its
 * pages (PRIV-1); a released LAM's addresses are ones no LAM holds, where the pages leave the outcome of an access
 * open (the unspecified mode: it may fail or, where the provider handed the addresses out again, reach only what a
 * live LAM holds; it never reaches the released pages: SEC-1).
 *
 * @param <L> the kit's record of a LAM (its buffer and mapping)
 */
public final class LamModel<L> {
    /** The calls on LAMs the model counts. */
    public enum LamCall {
        /** NdkBuildLam. */
        BUILD,
        /** NdkReleaseLam. */
        RELEASE,
        /** An SGE with the privileged token at a LAM address. */
        PRIVILEGED_ACCESS
    }

    /** Whether a LAM is live or released. */
    public enum LamPhase {
        /** Built and not released. */
        LIVE,
        /** Released: the consumer must not use its addresses (the unspecified mode). */
        RELEASED
    }

    private final List<L> live = new ArrayList<>();
    private final List<L> released = new ArrayList<>();
    private final Coverage coverage;

    /** @param coverage where the (phase, call) pairs are counted */
    public LamModel(Coverage coverage) {
        this.coverage = coverage;
    }

    /** @return the live LAMs, oldest first */
    public List<L> live() {
        return List.copyOf(live);
    }

    /** @return the released LAMs, oldest first */
    public List<L> released() {
        return List.copyOf(released);
    }

    /**
     * Counts a call.
     *
     * @param phase the LAM's phase (LIVE for BUILD)
     * @param call  the call
     */
    public void calling(LamPhase phase, LamCall call) {
        coverage.count(phase, call);
    }

    /**
     * NdkBuildLam succeeded.
     *
     * @param lam the LAM
     */
    public void built(L lam) {
        live.add(lam);
    }

    /**
     * NdkReleaseLam returned.
     *
     * @param lam a live LAM
     */
    public void released(L lam) {
        if (!live.remove(lam)) {
            throw new IllegalStateException("the kit must release only a live LAM, once (LAM-REL-3)");
        }
        released.add(lam);
    }
}
