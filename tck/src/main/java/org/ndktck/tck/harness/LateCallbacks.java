package org.ndktck.tck.harness;

import org.ndktck.tck.RuleViolation;


/**
 * Forbidden callbacks (a completion after a non-PENDING return: GEN-CB-2, GEN-CB-4, CL-1) that arrive
 * after the session that made the call has closed. They are kept here and reported by the next session
 * of the run that closes, so a late callback is never lost; the message says which call it belonged to. They are kept
 * in the {@link RunContext} of the run that made the call, so one that comes after its run ended is never reported
 * by the run after it.
 */
public final class LateCallbacks {
    private LateCallbacks() {
    }

    /** @param op a call whose forbidden callback came; kept in the run that made the call ({@link AsyncOp#run()}) */
    static void report(AsyncOp<?> op) {
        if (op.markReportedLate()) {
            op.run().lateCallback(op);
        }
    }

    /**
     * @param session the ops of the session now closing (reported by the session itself)
     * @return a violation for the oldest forbidden callback of an earlier session, or null
     */
    static RuleViolation takeForeign(java.util.Set<AsyncOp<?>> session) {
        RunContext run = RunContext.current();
        for (AsyncOp<?> op; (op = run.takeLateCallback()) != null; ) {
            if (!session.contains(op)) {
                RuleViolation v = op.check();
                if (v != null) {
                    return new RuleViolation(v.ruleId(), v.getMessage().substring(v.getMessage().indexOf(']') + 2)
                            + "\n  (seen after the try that made the call had ended)");
                }
            }
        }
        return null;
    }

    /** Forgets everything (a new run starts). */
    public static void reset() {
        RunContext.current().clearLateCallbacks();
    }
}
