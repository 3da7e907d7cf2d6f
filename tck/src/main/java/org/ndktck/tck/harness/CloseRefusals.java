package org.ndktck.tck.harness;

import org.ndktck.spec.NtStatus;

/**
 * How the kit judges a close (NdkCloseMr, NdkClosePd, NdkCloseQp, NdkCloseCq) that did not return STATUS_SUCCESS or
 * STATUS_PENDING (rule CL-2).
 *
 * <p>The object-lifetime page (text of 2022-10-05) lets a provider complete a close synchronously, successfully or in
 * error, with no close callback, and the NdkCloseObject page lists other status codes; that newer text wins over the
 * close-completion page's "a close never fails" (AMB-5). The kit makes a refused close again, up to
 * {@link Refusals#SETUP_ATTEMPTS} times in all (CL-1 still requires no callback after each refusal). When every
 * attempt was refused: a "try later" status ({@link Refusals#TRY_LATER}) discards the try (an allowed refusal, never
 * judged); any other status fails CL-2, since the consumer may close an object in any state and the pages give a
 * provider no reason to refuse a valid close for good; a status that is not an error (a warning or an informational
 * code other than STATUS_PENDING) fails CL-2 at once.
 */
public final class CloseRefusals {
    private CloseRefusals() {
    }

    /**
     * @param r a close's inline status; may be null
     * @return true when the close was refused in a way the kit makes again: an error status, or a try-later warning
     */
    public static boolean refused(NtStatus r) {
        return r != null && (r.isError() || Refusals.isAllowedRefusal(r));
    }

    /**
     * Judges a close's final inline status after the kit's attempts; returns normally for STATUS_SUCCESS or
     * STATUS_PENDING.
     *
     * @param r       the last attempt's status; may be null (the call threw or hung, reported elsewhere)
     * @param call    the call, for the message
     * @param restore run before an allowed refusal discards the try (the object stays the kit's, to close at tear-down)
     * @throws org.ndktck.tck.RuleViolation CL-2 for a refusal that is not a try-later one, or a non-error status
     */
    public static void judge(NtStatus r, String call, Runnable restore) {
        if (r != null && (r.equals(NtStatus.STATUS_SUCCESS) || r.isPending())) {
            return;
        }
        if (Refusals.isAllowedRefusal(r)) {
            restore.run();
            Refusals.discard();
        }
        throw Violations.of("CL-2", call, "STATUS_SUCCESS, STATUS_PENDING, or a refusal the kit can make again (an error "
                + "on one of " + Refusals.SETUP_ATTEMPTS + " attempts, or a try-later status such as STATUS_DEVICE_BUSY)",
                "returned " + r + (refused(r) ? " on every attempt" : ""));
    }
}
