package org.ndktck.tck.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One QP of the model: its phase and the receives posted on it that no send has matched yet (each must complete
 * exactly once: with the bytes of a matching send, or with STATUS_CANCELLED at a flush (FL-1) or close (CL-5)).
 *
 * @param <Q> the kit's handle of the QP and its peer
 * @param <R> the kit's record of a posted receive
 */
public final class ModelQp<Q, R> {
    private final int id;
    private final Q handle;
    QpPhase phase;
    final List<R> pending = new ArrayList<>();

    ModelQp(int id, Q handle, QpPhase phase) {
        this.id = id;
        this.handle = handle;
        this.phase = phase;
    }

    /** @return the model's number for it (1, 2, ... in creation order) */
    public int id() {
        return id;
    }

    /** @return the kit's handle (the QP, its CQs and its peer) */
    public Q handle() {
        return handle;
    }

    /** @return where it is in its life */
    public QpPhase phase() {
        return phase;
    }

    /** @return the receives posted on it that have not completed, oldest first */
    public List<R> pending() {
        return List.copyOf(pending);
    }

    @Override
    public String toString() {
        return "QP#" + id + "(" + phase + ")";
    }
}
