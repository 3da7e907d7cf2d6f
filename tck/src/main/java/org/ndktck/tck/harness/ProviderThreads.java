package org.ndktck.tck.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * Catches exceptions that kill a provider's own threads (a completion path that throws), which
 * the kit could not see otherwise: it installs, once, a default uncaught-exception handler that records
 * the throwable and then hands it to the handler that was there before. A session compares
 * {@link #mark()} at open and close and reports what died in between as GEN-EXC-1.
 *
 * <p>Exceptions in threads the provider started with its own handler, or inside an executor that keeps
 * them in a Future, are not seen.
 */
public final class ProviderThreads {
    /** One thread death: the thread's name and what it threw. */
    public record Death(long seq, String thread, Throwable error) {
    }

    private static final List<Death> DEATHS = new ArrayList<>();
    private static long seq;
    private static boolean installed;

    private ProviderThreads() {
    }

    /** Installs the handler (idempotent). */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            record(t.getName(), e);
            if (previous != null) {
                previous.uncaughtException(t, e);
            }
        });
    }

    private static synchronized void record(String thread, Throwable e) {
        if (DEATHS.size() > 1000) {
            DEATHS.remove(0);
        }
        DEATHS.add(new Death(++seq, thread, e));
    }

    /** @return the sequence number of the last death recorded so far */
    public static synchronized long mark() {
        return seq;
    }

    /**
     * @param mark a value of {@link #mark()}
     * @return the deaths recorded after it
     */
    public static synchronized List<Death> since(long mark) {
        List<Death> out = new ArrayList<>();
        for (Death d : DEATHS) {
            if (d.seq() > mark) {
                out.add(d);
            }
        }
        return out;
    }
}
