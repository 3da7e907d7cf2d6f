package org.ndktck.tck.harness;

/**
 * The time bounds of a kit run (GEN-TIME-1, issue 8), in nanoseconds, each already scaled by
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

    /** @return the bounds of the current run configuration */
    public static Bounds current() {
        TckConfig c = TckConfig.current();
        long call = c.scaled(CALL_MILLIS) * 1_000_000L;
        return new Bounds(call, c.scaled(COMPLETION_MILLIS) * 1_000_000L, c.scaled(QUIET_MILLIS) * 1_000_000L,
                Math.min(call, c.scaled(KNOWN_HUNG_MILLIS) * 1_000_000L));
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
        return millis(completionNanos) + " (" + COMPLETION_MILLIS + " ms x ndk.tck.timeoutFactor " + TckConfig.current().timeoutFactor() + ")";
    }
}
