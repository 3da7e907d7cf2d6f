package org.ndktck.tck.harness;

/**
 * The kit could not set up what a property needs (a PD, a CQ, a QP, a LAM for a valid request) because
 * the provider failed a call that no rule of the property is about. The property fails with this
 * message (the call, its arguments and the status), and the runner charges it to the property's rule:
 * a provider that cannot give the kit what the rule presupposes cannot pass that rule.
 */
public class KitSetupError extends AssertionError {
    private static final long serialVersionUID = 1L;

    /**
     * @param call   the call and its arguments
     * @param result what came back: a status, or an outcome's description (which starts with "returned")
     */
    public KitSetupError(String call, String result) {
        super("kit set-up failed: " + call + (result != null && result.startsWith("returned ") ? " " : " returned ") + result);
    }
}
