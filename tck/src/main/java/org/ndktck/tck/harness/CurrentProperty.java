package org.ndktck.tck.harness;

import java.util.List;

/**
 * What {@link KitLifecycle} knows about the property running on the current thread: its rule IDs and
 * tries. The harness uses it to attribute a finding it makes in passing (a guard frame touched) to the
 * property's own rule, and generators use the tries to decide whether coverage can be demanded.
 */
public final class CurrentProperty {
    /**
     * @param ruleIds the property's rule IDs ({@link KitLifecycle#ruleIds}) in declaration order
     * @param tries   the tries the property runs
     */
    public record Info(List<String> ruleIds, int tries) {
    }

    private static final ThreadLocal<Info> CURRENT = new ThreadLocal<>();
    /**
     * The property running now in this JVM (the kit runs one property at a time): tries also run on threads
     * the property's thread did not set up (the caller thread of {@code NdkSession.inTry}, jqwik's shrinking
     * thread), where {@link #primaryRule} still needs the property's rule.
     */
    private static volatile Info running;

    private CurrentProperty() {
    }

    static void set(Info info) {
        CURRENT.set(info);
        running = info;
    }

    static void clear() {
        CURRENT.remove();
        running = null;
    }

    /**
     * Hands the running property to a thread that works for it (a caller thread), without changing which
     * property runs in the JVM.
     *
     * @param info the property, or null to forget it on this thread
     */
    static void setOnThisThread(Info info) {
        if (info == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(info);
        }
    }

    /** @return the property running on this thread, or null outside a kit property */
    public static Info get() {
        return CURRENT.get();
    }

    /**
     * @return the rule IDs of the property running on this thread, else of the one running in this JVM (a provider's
     *     completion thread sees it too); empty outside a kit property
     */
    public static List<String> runningRules() {
        Info i = CURRENT.get();
        if (i == null) {
            i = running;
        }
        return i == null ? List.of() : i.ruleIds();
    }

    /** @return the first rule of the running property (this thread's, else the one running in this JVM), or {@code fallback} */
    public static String primaryRule(String fallback) {
        Info i = CURRENT.get();
        if (i == null) {
            i = running;
        }
        return i == null || i.ruleIds().isEmpty() ? fallback : i.ruleIds().get(0);
    }

    /** @return the tries of the running property, or 0 outside a kit property */
    public static int tries() {
        Info i = CURRENT.get();
        return i == null ? 0 : i.tries();
    }

    /** Set when a wait of the running try reached its time bound; cleared when a try starts. */
    private static volatile boolean boundReached;
    /** Set once a try of the running property failed at a time bound: its shrinking tries are not run. */
    private static volatile boolean skipShrinking;

    /**
     * Notes that a wait of the running try (a provider call, a completion, a CQ entry) reached its time
     * bound (GEN-TIME-1 and the completion rules). Called by the harness from any thread.
     */
    public static void boundReached() {
        boundReached = true;
    }

    /** Starts a try: forgets whether the try before reached a bound. */
    static void startTry() {
        boundReached = false;
    }

    /** @return true when a wait of the running try reached its time bound */
    static boolean tryReachedBound() {
        return boundReached;
    }

    /** Tries run since the running property's first falsified try (its shrinking steps), or -1 before it. */
    private static volatile int shrinkSteps = -1;

    /** Forgets the shrinking of the property before. */
    static void resetShrinking() {
        shrinkSteps = -1;
    }

    /** Notes a falsified try: the tries after it are shrinking steps. */
    static void falsified() {
        if (shrinkSteps < 0) {
            shrinkSteps = 0;
        }
    }

    /** @return true when a try of the running property has failed (the tries after it are shrinking steps) */
    static boolean hasFalsified() {
        return shrinkSteps >= 0;
    }

    /** @return the shrinking steps run so far (counting the one about to run), or -1 when the property has not failed */
    static int nextShrinkStep() {
        return shrinkSteps < 0 ? -1 : ++shrinkSteps;
    }

    /** @param skip whether the running property's remaining (shrinking) tries are skipped */
    static void skipShrinking(boolean skip) {
        skipShrinking = skip;
    }

    /** @return true when the running property failed at a time bound, so its shrinking tries are skipped */
    static boolean shrinkingSkipped() {
        return skipShrinking;
    }
}
