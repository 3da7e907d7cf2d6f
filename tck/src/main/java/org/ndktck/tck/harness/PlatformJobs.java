package org.ndktck.tck.harness;

import java.util.Optional;
import java.util.function.Function;

/**
 * {@code ndk.tck.jobs} on the JUnit Platform route (a provider's own Maven build). There the kit's properties run
 * in the build's test JVM one after another, whatever the value: jqwik 1.9 runs properties sequentially, the
 * kit keeps per-run state in that JVM (the ledger, the provider under test), and the isolation {@code ./ndk-tck run
 * --jobs N} gives (a provider that hangs, throws or corrupts its state in one worker's JVM) needs workers in JVMs of
 * their own, whose results Surefire cannot count as its own tests. So the verdicts are those of jobs 1; a value
 * other than 1 is not ignored silently: the kit prints {@link #notice} once and adds it to report.json's notes.
 */
public final class PlatformJobs {
    /** The configuration parameter (and system property). */
    public static final String KEY = "ndk.tck.jobs";

    private PlatformJobs() {
    }

    /**
     * @param parameters the run's configuration parameters (a suite's first)
     * @return the notice when {@code ndk.tck.jobs} is set to anything but 1 (parameter first, then system property)
     */
    public static Optional<String> notice(Function<String, Optional<String>> parameters) {
        Optional<String> v = parameters.apply(KEY).or(() -> Optional.ofNullable(System.getProperty(KEY)));
        if (v.isEmpty() || v.get().trim().equals("1")) {
            return Optional.empty();
        }
        return Optional.of("ndk-tck: " + KEY + "=" + v.get().trim() + " is not used in a JUnit Platform build: the properties run one "
                + "after another in this test JVM, with the verdicts of jobs 1 (./ndk-tck run --jobs N runs N workers in JVMs "
                + "of their own)");
    }
}
