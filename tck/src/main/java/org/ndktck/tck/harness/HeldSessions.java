package org.ndktck.tck.harness;

import org.ndktck.tck.RuleViolation;

import java.util.function.Consumer;

/**
 * Tries whose session stays open through the quiet period after the try: for a check that
 * needs the try's own objects after the quiet period, such as DEF-2's (no CQ entry for a request refused
 * inline: the CQs must still exist to be drained). A try that ends normally hands its session's close to the
 * {@link QuietWatch} instead of closing it: the close (which drains the CQs, charging an entry of a refused
 * request to DEF-2, checks every callback and the memory, and tears the adapter down) runs once the quiet
 * period ({@link Bounds#quietNanos()}) has passed, at the start of a later try of the property or when the
 * property ends. The next try does not wait for it, so a property pays one quiet period, not one per try,
 * and a late entry or callback breaks the same rule as when each try waited (the message says it was seen
 * after the try ended). A try that fails closes its session at once, as {@link NdkSession#inTry} does.
 *
 * <p>Several sessions (each with its own adapter and host memory) are then open at once, at most as many
 * as tries fit in one quiet period; their calls are still made one at a time, on the invoker's caller thread.
 */
public final class HeldSessions {
    private HeldSessions() {
    }

    /**
     * Runs one try as {@link NdkSession#inTry} does, except that a try that ends normally leaves its session
     * open for the quiet period and has it closed then. Before the try, the sessions of earlier tries whose
     * quiet period has passed are closed; the first breach they show is thrown.
     *
     * @param body what the try does with the session
     */
    public static void inTry(Consumer<NdkSession> body) {
        Invoker.forCurrentThread().batch("one try of the property", () -> {
            RuleViolation earlier = QuietWatch.due();
            if (earlier != null) {
                throw earlier;
            }
            RunContext run = RunContext.current();
            NdkSession s = NdkSession.open();
            try {
                body.accept(s);
            } catch (RuntimeException | Error e) {
                s.objects().failing();
                try {
                    s.close();
                } catch (RuntimeException | Error suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            QuietWatch.after(run, s.bounds().quietNanos(), () -> closeLate(s));
            return null;
        });
    }

    /** Closes a held session; its first breach, or null. */
    private static RuleViolation closeLate(NdkSession s) {
        try {
            Invoker.forCurrentThread().batch("closing a try's session after its quiet period", () -> {
                s.close();
                return null;
            });
            return null;
        } catch (RuleViolation v) {
            return v;
        } catch (RuntimeException | Error e) {
            return new RuleViolation(CurrentProperty.primaryRule("GEN-EXC-1"),
                    "closing a try's session after its quiet period failed: " + e, e);
        }
    }
}
