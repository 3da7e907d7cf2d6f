package org.ndktck.tck.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * The calls the model makes on a QP, the phases in which a consumer may make them (never on a closed QP: CL-3), the
 * outcomes the pages allow in each phase ({@link #allowed}), and the rule charged when the provider chose an outcome
 * outside that set.
 */
public enum QpCall {
    /** NdkWrite to a live remote region the write may reach. */
    WRITE,
    /** NdkRead from a live remote region the read may reach, into a local sink. */
    READ,
    /** NdkSend into a receive posted at the peer. */
    SEND,
    /** NdkReceive into a local region; it stays pending until a send matches it, a flush or a close. */
    RECEIVE,
    /** NdkFlush (returns nothing; FL-1). */
    FLUSH,
    /** NdkCloseQp of the QP's peer end (the loopback connection's other QP). */
    CLOSE_PEER,
    /** NdkCloseQp (never fails: CL-2; what it held completes: CL-5). */
    CLOSE;

    /** @return the phases in which a consumer may make this call */
    public Set<QpPhase> phases() {
        return switch (this) {
            case CLOSE_PEER -> EnumSet.of(QpPhase.CONNECTED, QpPhase.FLUSHED);
            // a send waits for a receive at the peer (TR-1): once the QP is flushed or the peer's end closed, no receive
            // the kit could post is known to meet it, so the model makes no send there (a provider may wait for ever)
            case SEND -> EnumSet.of(QpPhase.UNCONNECTED, QpPhase.CONNECTED);
            case FLUSH, CLOSE, WRITE, READ, RECEIVE -> EnumSet.complementOf(EnumSet.of(QpPhase.CLOSED));
        };
    }

    /**
     * What the pages allow a request of this kind posted in {@code phase} (for FLUSH, CLOSE_PEER and CLOSE: the
     * call returns nothing or never fails, so {@link Allowed#SUCCEED}).
     *
     * <ul>
     *   <li>CONNECTED: a valid request is carried out.</li>
     *   <li>UNCONNECTED: NdkRead and NdkWrite fail (RW-2), NdkSend fails (SND-1); the pages do not say whether
     *       NdkReceive is accepted before a connection: either (an accepted one waits).</li>
     *   <li>FLUSHED, PEER_CLOSED: the pages say nothing of requests posted after NdkFlush or once the peer's end is
     *       closed: either outcome (the unspecified mode).</li>
     * </ul>
     *
     * @param phase the QP's phase (not CLOSED)
     * @return the allowed outcomes
     */
    public Allowed allowed(QpPhase phase) {
        if (this == FLUSH || this == CLOSE || this == CLOSE_PEER) {
            return Allowed.SUCCEED;
        }
        return switch (phase) {
            case CONNECTED -> Allowed.SUCCEED;
            case UNCONNECTED -> this == RECEIVE ? Allowed.EITHER : Allowed.FAIL;
            case FLUSHED, PEER_CLOSED -> Allowed.EITHER;
            case CLOSED -> throw new IllegalStateException("the kit must not post on a closed QP (CL-3)");
        };
    }

    /**
     * @param phase the QP's phase
     * @return the rule charged when the provider's outcome of this call in that phase is outside {@link #allowed}
     */
    public String rule(QpPhase phase) {
        if (phase == QpPhase.UNCONNECTED) {
            return this == SEND ? "SND-1" : this == RECEIVE ? "SEC-1" : "RW-2";
        }
        if (phase == QpPhase.FLUSHED || phase == QpPhase.PEER_CLOSED) {
            return "SEC-1"; // the unspecified mode judges only that nothing is exposed
        }
        return switch (this) {
            case WRITE -> "RW-5";
            case READ -> "RW-3";
            case SEND -> "SND-2";
            case RECEIVE -> "CQ-6";
            case FLUSH -> "FL-1";
            case CLOSE, CLOSE_PEER -> "CL-5";
        };
    }
}
