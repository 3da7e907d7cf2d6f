package org.ndktck.tck;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where a provider that runs in processes of its own (the C bridge's host processes) lets the runner ask for fresh
 * ones: before a property whose first failure was a {@link ProviderProcessEnded} is rerun alone to confirm it, the
 * runner calls {@link #freshStart()}, and every registered action ends its live host process, so the next adapter
 * the kit opens starts a new one with no state of the properties that ran before. A provider in the kit's JVM
 * registers nothing and the call does nothing.
 */
public final class ProviderProcesses {
    private static final List<Runnable> RETIRE = new CopyOnWriteArrayList<>();

    private ProviderProcesses() {
    }

    /**
     * @param retire ends the provider's live process (quietly: no call is in flight when the runner calls it); it is
     *               kept for the JVM's life, so register it once per process route
     */
    public static void register(Runnable retire) {
        RETIRE.add(retire);
    }

    /** Ends every registered provider process, so the next adapter opened starts a fresh one; failures are ignored. */
    public static void freshStart() {
        for (Runnable r : RETIRE) {
            try {
                r.run();
            } catch (RuntimeException | LinkageError e) {
                // a process that cannot be ended now is replaced when it is next found ended
            }
        }
    }
}
