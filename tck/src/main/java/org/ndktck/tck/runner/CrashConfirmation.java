package org.ndktck.tck.runner;

import org.ndktck.tck.ProviderProcessEnded;
import org.ndktck.tck.harness.KitLifecycle;

/**
 * Whether the end of the provider's process is charged to the property it happened in. A process end (a crash or a
 * sanitizer's report in a C provider's host process, {@link ProviderProcessEnded}) may be the late effect of an
 * earlier property (a double free that corrupts the heap crashes a later, unrelated call), so after the run the
 * runner reruns each property whose first failure was one alone, with its seed, in a fresh host process
 * ({@link KitExecution}; at most {@link #MAX_RERUNS} per run, each within the property's time bound):
 * <ul>
 *   <li>the rerun ends the process again: confirmed, the property's rule stays charged, and its message says so;</li>
 *   <li>it does not (it passed, failed otherwise, was not rerun or did not finish): the end is charged to GEN-EXC-1
 *       (a provider reports errors as NTSTATUS; it does not end the consumer's process) and to no rule of the
 *       property, whose rules are then judged by its other properties or stay UNTESTED.</li>
 * </ul>
 * Either way the cause stays the same one line ({@link ProviderProcessEnded#cause()}), so every property the same bug
 * ended the process in is one entry of report.json's {@code failureCauses}. A process the kit ended for a call that
 * outlived its bound (GEN-TIME-1) is not rerun: a hang costs its bound once.
 */
final class CrashConfirmation {
    /** Most properties rerun to confirm a process end, per run (per worker with {@code --jobs}). */
    static final int MAX_RERUNS = 8;
    /** The rule an unconfirmed process end is charged to. */
    static final String UNCONFIRMED_RULE = "GEN-EXC-1";

    private CrashConfirmation() {
    }

    /**
     * @param o a property outcome
     * @return the process end that was its first failure and may be rerun (not a hang), or null
     */
    static ProviderProcessEnded toConfirm(PropertyOutcome o) {
        if (o == null || !"FAILED".equals(o.status())) {
            return null;
        }
        ProviderProcessEnded e = ProviderProcessEnded.in(KitLifecycle.firstFailure(o.failure()));
        return e != null && !e.hang() ? e : null;
    }

    /**
     * @param original an outcome for which {@link #toConfirm} is not null
     * @param rerun    the outcome of its rerun alone in a fresh process, or null when it was not rerun or did not finish
     * @param why      when {@code rerun} is null, why (e.g. {@code at most 8 properties are rerun})
     * @return the outcome the verdicts are computed from: the original, its message saying it was confirmed, or the
     *     original with its failure charged to {@value #UNCONFIRMED_RULE} instead
     */
    static PropertyOutcome judge(PropertyOutcome original, PropertyOutcome rerun, String why) {
        ProviderProcessEnded first = toConfirm(original);
        if (first == null) {
            return original;
        }
        ProviderProcessEnded again = toConfirm(rerun);
        String property = original.property().propertyId();
        if (again != null) {
            String same = again.cause().equals(first.cause()) ? "the same cause" : "cause " + again.cause();
            return with(original, original.message() + "\nconfirmed: rerun alone in a fresh host process with seed "
                    + original.seed() + ", " + property + " ended that process again (" + same + ")", original.failure());
        }
        String rerunWas = rerun == null ? "not rerun: " + why
                : "rerun alone in a fresh host process with seed " + original.seed() + ", it " + describe(rerun);
        String message = "the provider's process ended while " + property + " ran (" + first.cause() + ") but the end was not"
                + " confirmed (" + rerunWas + "), so it is charged to " + UNCONFIRMED_RULE + " and to no rule of "
                + property + " (it may be the late effect of an earlier property); the account: " + first.getMessage();
        ProviderProcessEnded moved = new ProviderProcessEnded(UNCONFIRMED_RULE, message, first.cause(), false);
        return with(original, moved.getMessage(), moved);
    }

    private static String describe(PropertyOutcome rerun) {
        Catches.FirstFailure f = Catches.of(rerun);
        if (f != null) {
            return "failed first with " + f.describe();
        }
        return "SUCCESSFUL".equals(rerun.status()) ? "passed" : "ended " + rerun.status();
    }

    private static PropertyOutcome with(PropertyOutcome o, String message, Throwable failure) {
        return new PropertyOutcome(o.property(), o.status(), o.tries(), o.checks(), o.seed(), o.durationMillis(), message,
                failure, o.counterexample(), o.finishedAtMillis(), o.checksRun());
    }
}
