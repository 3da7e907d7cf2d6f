package org.ndktck.tck.harness;

import java.util.concurrent.atomic.AtomicInteger;

import net.jqwik.api.Assume;
import org.ndktck.spec.NtStatus;

/**
 * The one rule for allowed refusals. The NDKPI return-code tables let a provider refuse any
 * request, create or control registration for lack of resources: STATUS_INSUFFICIENT_RESOURCES, inline or as
 * the completion status (GEN-CB-5). A try in which a call the property needs is refused that way judges
 * nothing: every property, for its set-up calls as well as for the call under test, hands the status to
 * {@link #discardIfRefused}, which discards the try (jqwik's assumption) and counts it. The counts reach
 * {@code report.json} per property and per rule ({@code judgedTries}, {@code discardedTries},
 * {@code refusedTries}); a rule whose judged tries fall below the floor ({@link #floor}) is UNTESTED with
 * the reason, never PASS.
 *
 * <p>Process-wide: the kit runs one property at a time, and a try may run on a caller thread the property's
 * thread did not make; the count is reset when a property starts ({@link KitLifecycle}).
 */
public final class Refusals {
    /**
     * The floor of judged tries, as a fraction of a property's executed tries: at least one try in
     * {@value} must be judged (and at least one in all), else the property judged too little to pass.
     */
    public static final int FLOOR_DIVISOR = 10;

    /**
     * How many times the session's own set-up creates (the PDs, CQs and QPs of {@code NdkSession}) are made
     * when the provider refuses them for lack of resources, before the try is discarded: a set-up call judges
     * nothing, so making it again costs the property no judgement.
     */
    public static final int SETUP_ATTEMPTS = 3;

    private static final AtomicInteger REFUSED = new AtomicInteger();
    private static final AtomicInteger BEYOND_LIMIT = new AtomicInteger();
    private static final java.util.concurrent.atomic.AtomicReference<String> LIMIT_NOTE = new java.util.concurrent.atomic.AtomicReference<>();

    /** What a post does when the provider refuses it inline for lack of resources. */
    public enum OnRefusal {
        /** The try is discarded ({@link #discard}). */
        DISCARD(1),
        /**
         * The request is posted again, up to {@link #SETUP_ATTEMPTS} times in all, before the try is discarded:
         * for a probe or set-up post, which judges nothing itself (a request refused inline never reached the
         * QP, so posting it again is the same request).
         */
        RETRY(SETUP_ATTEMPTS),
        /** The refused request is returned as it is, for a property that judges only the requests accepted. */
        KEEP(1);

        private final int attempts;

        OnRefusal(int attempts) {
            this.attempts = attempts;
        }

        /** @return how many times the request is posted at most */
        public int attempts() {
            return attempts;
        }
    }

    private Refusals() {
    }

    /**
     * The statuses that mean "no resources now, try later", whatever call returns them: a valid request refused with
     * one of these is an allowed refusal wherever the call's page lists other status codes (NdkCreateMr,
     * NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr, NdkBuildLam, NdkCloseObject, the work requests and
     * the creates the kit makes for its set-up). A status that says the request is malformed (STATUS_INVALID_PARAMETER
     * and the like) is not in it: on a valid request that stays a failure of the rule.
     */
    public static final java.util.Set<NtStatus> TRY_LATER = java.util.Set.of(NtStatus.STATUS_INSUFFICIENT_RESOURCES,
            NtStatus.STATUS_NO_MEMORY, NtStatus.STATUS_DEVICE_BUSY, NtStatus.STATUS_DEVICE_NOT_READY);

    /**
     * @param status a call's final status (inline, or the completion's after STATUS_PENDING); may be null
     * @return true when the status means "no resources now, try later" ({@link #TRY_LATER}: STATUS_INSUFFICIENT_RESOURCES,
     *     STATUS_NO_MEMORY, STATUS_DEVICE_BUSY, STATUS_DEVICE_NOT_READY), which the pages let a call end with
     */
    public static boolean isAllowedRefusal(NtStatus status) {
        return status != null && TRY_LATER.contains(status);
    }

    /**
     * Makes a set-up call again while the provider refuses it for lack of resources, up to
     * {@link #SETUP_ATTEMPTS} times in all (a set-up call judges nothing, so making it again costs no
     * judgement); the caller then hands the last status to {@link #discardIfRefused}.
     *
     * @param call   makes the call once and returns its outcome
     * @param status the outcome's final status
     * @param <T>    the outcome type
     * @return the last outcome
     */
    public static <T> T retried(java.util.function.Supplier<T> call, java.util.function.Function<T, NtStatus> status) {
        T r = call.get();
        for (int i = 1; i < SETUP_ATTEMPTS && isAllowedRefusal(status.apply(r)); i++) {
            r = call.get();
        }
        return r;
    }

    /**
     * Discards the running try, counted, when {@code status} is an allowed refusal; returns otherwise.
     *
     * @param status the call's final status (inline, or through its completion)
     */
    public static void discardIfRefused(NtStatus status) {
        if (isAllowedRefusal(status)) {
            discard();
        }
    }

    /**
     * Discards the running try, counted as refused: a call it needed was refused in a way the pages allow.
     * Never returns normally.
     */
    public static void discard() {
        REFUSED.incrementAndGet();
        Assume.that(false);
    }

    /**
     * Discards the running try, counted apart from refusals: a set-up request the kit would need (a registration it
     * builds to be valid, a fixture) lies past a limit the adapter advertises (MaxRegistrationSize, FRMRPageCount), so
     * the kit does not make it; a request past a limit is made only by a property about that limit, where the pages'
     * allowed outcomes judge it. A property all of whose tries end here is UNTESTED with {@code note}, never PASS or
     * FAIL. Never returns normally.
     *
     * @param note the limit and the request, e.g. "Length 0x3000 is past MaxRegistrationSize 0x2000", and the setting
     *             that reaches the check
     */
    public static void beyondLimit(String note) {
        BEYOND_LIMIT.incrementAndGet();
        LIMIT_NOTE.compareAndSet(null, note);
        Assume.that(false);
    }

    /** @return the tries discarded by {@link #beyondLimit} since the running property started */
    public static int beyondLimitCount() {
        return BEYOND_LIMIT.get();
    }

    /** @return the note of the first {@link #beyondLimit} since the running property started, or null */
    public static String limitNote() {
        return LIMIT_NOTE.get();
    }

    /**
     * Runs one step of a stateful chain so that an allowed refusal inside it ({@link #discardIfRefused}, from any
     * call the step makes: a create, a registration, a post or a completion) ends the step, not the try: the
     * chain goes on without it, and the refusal is not counted as a discarded try. Any other assumption, and
     * every failure, propagates.
     *
     * @param step the step
     * @return true when the step ran to its end, false when an allowed refusal ended it
     */
    public static boolean stepUnlessRefused(Runnable step) {
        int before = REFUSED.get();
        int beforeLimit = BEYOND_LIMIT.get();
        try {
            step.run();
            return true;
        } catch (org.opentest4j.TestAbortedException e) {
            if (REFUSED.get() == before && BEYOND_LIMIT.get() == beforeLimit) {
                throw e;
            }
            // a step whose request lay past an adapter limit (beyondLimit) is left out like a refused one
            REFUSED.set(before);
            BEYOND_LIMIT.set(beforeLimit);
            return false;
        }
    }

    /** Starts a property: forgets the counts of the one before. */
    static void reset() {
        REFUSED.set(0);
        BEYOND_LIMIT.set(0);
        LIMIT_NOTE.set(null);
    }

    /** @return the tries discarded by {@link #discard} since the running property started */
    public static int count() {
        return REFUSED.get();
    }

    /**
     * @param tries the tries a property executed (judged and discarded)
     * @return the fewest judged tries with which it may pass: one in {@link #FLOOR_DIVISOR}, at least 1
     */
    public static int floor(int tries) {
        return Math.max(1, (tries + FLOOR_DIVISOR - 1) / FLOOR_DIVISOR);
    }
}
