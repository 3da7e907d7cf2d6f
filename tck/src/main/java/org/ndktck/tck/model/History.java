package org.ndktck.tck.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The recorded history of one concurrent round on one adapter: for every call a kit thread made, its invocation and
 * its response as two points on one clock shared by every thread (an {@link AtomicLong} ticked just before the call
 * is made and just after its outcome was seen: for a posted request, after its CQ entry was polled), the call with its
 * arguments as text, and the outcome the provider chose. Call {@code a} precedes call {@code b} in real time when
 * {@code a}'s response tick is below {@code b}'s invocation tick; calls that overlap may take effect in either order.
 * {@link Linearizability} checks a history against a sequential specification.
 *
 * <p>Thread-safe: kit threads {@link #record} at once.
 */
public final class History {
    /** What a call was, as the sequential specification reads it. */
    public enum Kind {
        /** NdkRegisterMr of an MR (then NdkGetRemoteTokenFromMr): token is the remote token (unsigned 32-bit in an int). */
        REGISTER,
        /** NdkDeregisterMr of a registered MR. */
        DEREGISTER,
        /** NdkRead at the peer through an MR's remote token, {@code bytes} its sink's bytes afterwards. */
        READ,
        /** NdkSend into a receive posted at the connected QP; {@code context} names that receive. */
        SEND,
        /** The CQ entry of a receive, polled after every thread finished; {@code context} names the receive. */
        RECEIVE_ENTRY
    }

    /**
     * What the provider chose for one call.
     *
     * @param succeeded      STATUS_SUCCESS (for a posted request: the post and its CQ entry)
     * @param allowedRefusal a refusal the call's table allows (STATUS_INSUFFICIENT_RESOURCES and the like)
     * @param status         the NTSTATUS name (the entry's status for a posted request), or what was seen instead
     * @param token          REGISTER: the remote token (unsigned 32-bit); otherwise 0
     * @param bytes          READ: the bytes in the sink afterwards; otherwise null
     */
    public record Result(boolean succeeded, boolean allowedRefusal, String status, int token, byte[] bytes) {
    }

    /**
     * One call of the history.
     *
     * @param id       its number in the history (0, 1, ... in invocation order of recording)
     * @param thread   the kit thread that made it (-1 for the property's own thread, before or after the round)
     * @param kind     what it was
     * @param mr       the model's number of the MR it names (REGISTER, DEREGISTER, READ), else -1
     * @param context  SEND and RECEIVE_ENTRY: the receive's name; else empty
     * @param call     the call with its arguments, as printed
     * @param result   the outcome
     * @param outcome  the outcome, as printed
     * @param invoked  the clock tick before the call
     * @param returned the clock tick after the outcome was seen
     */
    public record Op(int id, int thread, Kind kind, int mr, String context, String call, Result result, String outcome,
                     long invoked, long returned) {
        /** @return one line: {@code [invoked..returned] thread t: call -> outcome} */
        public String line() {
            return "[" + invoked + ".." + returned + "] " + (thread < 0 ? "kit" : "thread " + thread) + ": " + call + " -> " + outcome;
        }
    }

    private final AtomicLong clock;
    private final List<Op> ops = new ArrayList<>();

    /** @param clock the clock every thread of the round reads (shared by the rounds of a try, so ticks only grow) */
    public History(AtomicLong clock) {
        this.clock = clock;
    }

    /** @return a tick of the clock: take it just before making a call */
    public long tick() {
        return clock.incrementAndGet();
    }

    /**
     * Records a call that has returned (takes the response tick now).
     *
     * @param thread  the kit thread (-1: the property's own)
     * @param kind    what it was
     * @param mr      the MR's number, or -1
     * @param context the receive's name, or empty
     * @param call    the call with its arguments
     * @param invoked the tick taken before the call
     * @param result  the outcome
     * @param outcome the outcome, as printed
     * @return the recorded call
     */
    public Op record(int thread, Kind kind, int mr, String context, String call, long invoked, Result result, String outcome) {
        long returned = clock.incrementAndGet();
        synchronized (ops) {
            Op op = new Op(ops.size(), thread, kind, mr, context, call, result, outcome, invoked, returned);
            ops.add(op);
            return op;
        }
    }

    /** @return the calls, in invocation order */
    public List<Op> ops() {
        synchronized (ops) {
            List<Op> out = new ArrayList<>(ops);
            out.sort(Comparator.comparingLong(Op::invoked));
            return out;
        }
    }

    /**
     * @param ops calls of a history
     * @return one line per call in invocation order (no object hash codes: MRs by the model's number, tokens in hex)
     */
    public static String print(List<Op> ops) {
        StringBuilder b = new StringBuilder();
        for (Op op : ops) {
            b.append("  ").append(op.line()).append('\n');
        }
        return b.toString();
    }
}
