package org.ndktck.tck.harness;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The launcher threads the command-line runner gave up on (a property that far outlasted its share of the time
 * budget or the property bound: {@code KitExecution}). Such a thread's JUnit Platform execution cannot be stopped
 * from outside, and the runner goes on with the properties not yet run on a fresh launcher. The abandoned execution
 * must then run nothing more: jqwik's stores and the kit's run state are process-wide, so a second execution of the
 * same properties beside the fresh one would share them (jqwik drops a property's stores when a property with the
 * same unique ID ends or is skipped in either execution, and the fresh one's statistics then fail) and would double
 * the CPU the run takes. So the abandoned thread is stopped where the kit's hooks next see it ({@link KitLifecycle}:
 * before a property, before and after a try): it parks there for good, and its execution never reaches jqwik's
 * end of a property, a skip or the end of a container. The thread is a daemon; it keeps the JVM from nothing.
 */
public final class AbandonedLaunchers {
    private static final Set<Thread> ABANDONED = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    private AbandonedLaunchers() {
    }

    /** @param launcherThread the thread whose platform execution the runner gave up on */
    public static void abandon(Thread launcherThread) {
        ABANDONED.add(launcherThread);
    }

    /** Parks the current thread for good when it is a launcher thread the runner abandoned; returns at once otherwise. */
    static void stopHereIfAbandoned() {
        stopHereIfAbandoned(Thread.currentThread());
    }

    /**
     * Parks the current thread for good when it works for a launcher thread the runner abandoned (it is that thread,
     * or a caller thread of its {@link Invoker}); returns at once otherwise.
     *
     * @param launcher the thread the current thread works for
     */
    static void stopHereIfAbandoned(Thread launcher) {
        if (ABANDONED.isEmpty() || !ABANDONED.contains(launcher)) {
            return;
        }
        while (true) {
            java.util.concurrent.locks.LockSupport.park(AbandonedLaunchers.class);
            Thread.interrupted(); // the runner interrupts it; it stays parked
        }
    }
}
