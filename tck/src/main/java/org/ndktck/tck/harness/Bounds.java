package org.ndktck.tck.harness;

/**
 * The time bounds of a kit run (GEN-TIME-1), in nanoseconds, each already scaled by
 * {@code ndk.tck.timeoutFactor} ({@link TckConfig#timeoutFactor()}):
 * <ul>
 *   <li>{@link #callNanos()}: how long one provider call may take before it counts as not returning
 *       (5 s at factor 1);</li>
 *   <li>{@link #completionNanos()}: how long the kit waits for a completion callback after
 *       STATUS_PENDING, or for a CQ entry after a successful post (5 s);</li>
 *   <li>{@link #quietNanos()}: how long the kit watches for a forbidden callback after an inline
 *       return (GEN-CB-2, GEN-CB-4; 20 ms);</li>
 *   <li>{@link #knownHungNanos()}: the bound for a call of a kind that already hung once in this run
 *       (250 ms, never more than {@link #callNanos()}), so a provider that hangs on every call of one
 *       kind costs one full bound, not one per property.</li>
 * </ul>
 *
 * <p><b>After a missed completion.</b> Once a completion (a callback after STATUS_PENDING or a CQ entry)
 * has not come within its bound in a run, {@link #current()} shortens the completion bound of the rest of
 * that run to {@link #KNOWN_HUNG_MILLIS} (scaled, but not below its unscaled 250 ms unless the full bound is
 * shorter), and never below twice the longest completion that did come in this run (capped at the full
 * bound). The unscaled floor keeps a run with a small {@code ndk.tck.timeoutFactor} from charging a merely
 * slow completion on a loaded machine (a 56 ms bound was seen to fail GEN-CB-1 that way). A provider that never completes then costs one full bound
 * and a short one per property, not a full bound per property and per shrinking step (a misbehaving provider: the run
 * against the worst misbehaviour ends within twice its normal time). Only a run that already has a failure
 * gets the shorter bound. {@link #resetRun()} starts over.
 *
 * @param callNanos       bound of one call
 * @param completionNanos bound of one awaited completion or CQ entry
 * @param quietNanos      quiet period after inline returns
 * @param knownHungNanos  bound of a call of a kind that already hung in this run
 */
public record Bounds(long callNanos, long completionNanos, long quietNanos, long knownHungNanos) {
    /** Base bound of a call at timeout factor 1, in milliseconds. */
    public static final long CALL_MILLIS = 5_000;
    /** Base bound of an awaited completion at timeout factor 1, in milliseconds. */
    public static final long COMPLETION_MILLIS = 5_000;
    /** Base quiet period at timeout factor 1, in milliseconds. */
    public static final long QUIET_MILLIS = 20;
    /** Base bound of a call kind that hung before, in milliseconds. */
    public static final long KNOWN_HUNG_MILLIS = 250;

    private static volatile boolean completionMissed;
    private static final java.util.concurrent.atomic.AtomicLong LONGEST_COMPLETION = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @return the bounds of the current run configuration; the completion bound is shortened once a
     *     completion was missed in this run (see the type's docstring)
     */
    public static Bounds current() {
        TckConfig c = TckConfig.current();
        long call = c.scaled(CALL_MILLIS) * 1_000_000L;
        long knownHung = Math.min(call, c.scaled(KNOWN_HUNG_MILLIS) * 1_000_000L);
        long completion = c.scaled(COMPLETION_MILLIS) * 1_000_000L;
        if (completionMissed) {
            long floor = Math.min(completion, Math.max(knownHung, KNOWN_HUNG_MILLIS * 1_000_000L));
            completion = Math.min(completion, Math.max(floor, 2 * LONGEST_COMPLETION.get()));
        }
        return new Bounds(call, completion, c.scaled(QUIET_MILLIS) * 1_000_000L, knownHung);
    }

    /** Forgets the missed completions and completion times of the run before (a new run starts). */
    public static void resetRun() {
        completionMissed = false;
        LONGEST_COMPLETION.set(0);
    }

    /** @return true once a completion or CQ entry did not come within its bound in this run */
    public static boolean completionMissedInRun() {
        return completionMissed;
    }

    /**
     * Notes a completion or CQ entry that came, for the floor of the shortened completion bound.
     *
     * @param startNanos {@link System#nanoTime()} when the kit began to wait
     */
    public static void completionArrived(long startNanos) {
        long took = System.nanoTime() - startNanos;
        if (took > 0) {
            LONGEST_COMPLETION.accumulateAndGet(took, Math::max);
        }
    }

    /**
     * Notes that a completion or CQ entry did not come within its bound: the rest of the run waits with
     * the shortened bound, and the running property's try is marked as ended by a time bound (its
     * failure is not shrunk, see {@link KitLifecycle}).
     */
    public static void completionMissed() {
        completionMissed = true;
        CurrentProperty.boundReached();
    }

    /**
     * Tells whether a wait for a completion or CQ entry that began at {@code startNanos} is over its bound,
     * and notes the miss ({@link #completionMissed()}) when it is.
     *
     * @param startNanos {@link System#nanoTime()} when the kit began to wait
     * @return true when {@link #completionNanos()} has passed since then
     */
    public boolean completionExpired(long startNanos) {
        if (System.nanoTime() - startNanos > completionNanos) {
            completionMissed();
            return true;
        }
        return false;
    }

    /**
     * @param nanos a duration in nanoseconds
     * @return it in milliseconds for messages, e.g. {@code 5000 ms}
     */
    public static String millis(long nanos) {
        return (nanos / 1_000_000L) + " ms";
    }

    /** @return a description of the call bound for messages: value and how it was scaled */
    public String describeCallBound() {
        return millis(callNanos) + " (" + CALL_MILLIS + " ms x ndk.tck.timeoutFactor " + TckConfig.current().timeoutFactor() + ")";
    }

    /** @return a description of the completion bound for messages */
    public String describeCompletionBound() {
        boolean shortened = completionNanos < TckConfig.current().scaled(COMPLETION_MILLIS) * 1_000_000L;
        return millis(completionNanos) + " (" + COMPLETION_MILLIS + " ms x ndk.tck.timeoutFactor " + TckConfig.current().timeoutFactor()
                + (shortened ? ", shortened: a completion was already missed in this run" : "") + ")";
    }
}
