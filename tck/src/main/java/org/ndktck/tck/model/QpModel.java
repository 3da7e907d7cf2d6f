package org.ndktck.tck.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The QPs of one adapter in every phase ({@link QpPhase}) and the receives pending on each. A property asks
 * {@link #eligible} for the QPs a call may be made on, counts the call ({@link #calling}), makes it, and reports what
 * it did to the QP: {@link #posted} a receive that stays pending, {@link #matched} one a send completed,
 * {@link #flushed}, {@link #peerClosed}, {@link #closed}.
 *
 * @param <Q> the kit's handle of a QP and its peer
 * @param <R> the kit's record of a posted receive
 */
public final class QpModel<Q, R> {
    private final Map<Integer, ModelQp<Q, R>> qps = new LinkedHashMap<>();
    private final Coverage coverage;
    private int next = 1;

    /** @param coverage where the (phase, call) pairs are counted */
    public QpModel(Coverage coverage) {
        this.coverage = coverage;
    }

    /**
     * @param handle the kit's handle
     * @param phase  UNCONNECTED or CONNECTED
     * @return the model's QP
     */
    public ModelQp<Q, R> created(Q handle, QpPhase phase) {
        ModelQp<Q, R> q = new ModelQp<>(next++, handle, phase);
        qps.put(q.id(), q);
        return q;
    }

    /** @return the QPs not closed, in creation order */
    public List<ModelQp<Q, R>> all() {
        return List.copyOf(qps.values());
    }

    /**
     * @param call a call
     * @return the QPs a consumer may make it on now
     */
    public List<ModelQp<Q, R>> eligible(QpCall call) {
        return qps.values().stream().filter(q -> call.phases().contains(q.phase)).toList();
    }

    /**
     * Counts a call about to be made and checks that a consumer may make it (a kit defect otherwise).
     *
     * @param q    the QP
     * @param call the call
     * @return what the pages allow it
     */
    public Allowed calling(ModelQp<Q, R> q, QpCall call) {
        if (!call.phases().contains(q.phase)) {
            throw new IllegalStateException("the kit must not make " + call + " on " + q);
        }
        coverage.count(q.phase, call);
        return call.allowed(q.phase);
    }

    /**
     * A receive the provider accepted and that waits for a send.
     *
     * @param q the QP
     * @param r the receive
     */
    public void posted(ModelQp<Q, R> q, R r) {
        q.pending.add(r);
    }

    /**
     * A pending receive completed (a send matched it, or it completed with an error on its own).
     *
     * @param q the QP
     * @param r the receive
     */
    public void matched(ModelQp<Q, R> q, R r) {
        q.pending.remove(r);
    }

    /**
     * NdkFlush returned; the caller has checked that every pending receive completed with STATUS_CANCELLED.
     *
     * @param q the QP
     */
    public void flushed(ModelQp<Q, R> q) {
        q.pending.clear();
        q.phase = QpPhase.FLUSHED;
    }

    /**
     * The QP's peer end was closed.
     *
     * @param q the QP (CONNECTED or FLUSHED)
     */
    public void peerClosed(ModelQp<Q, R> q) {
        if (q.phase == QpPhase.CONNECTED) {
            q.phase = QpPhase.PEER_CLOSED;
        }
    }

    /**
     * NdkCloseQp finished; the caller has checked that every pending receive completed once.
     *
     * @param q the QP
     */
    public void closed(ModelQp<Q, R> q) {
        q.pending.clear();
        q.phase = QpPhase.CLOSED;
        qps.remove(q.id());
    }
}
