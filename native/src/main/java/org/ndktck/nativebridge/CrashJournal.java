package org.ndktck.nativebridge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.ndktck.tck.harness.CurrentProperty;

/**
 * In a run under the {@link CrashGuard}, records which rules the running property checks, one line each
 * time that changes ({@code rules ID,ID}), in the file named by the environment variable
 * {@value #ENV}. The line is written with one unbuffered write before the property's first adapter opens,
 * so it is on disk when the library crashes the process. Outside a guarded run it does nothing.
 */
final class CrashJournal {
    /** Environment variable naming the journal file. */
    static final String ENV = "NDK_TCK_NATIVE_JOURNAL";

    private static final Path FILE = System.getenv(ENV) == null ? null : Path.of(System.getenv(ENV));
    private static volatile String last = "";

    private CrashJournal() {
    }

    /** Called when an adapter opens: notes the running property's rules if they changed. */
    static void propertyStarts() {
        if (FILE == null) {
            return;
        }
        CurrentProperty.Info info = CurrentProperty.get();
        String rules = info != null ? String.join(",", info.ruleIds()) : CurrentProperty.primaryRule("");
        if (rules.isEmpty() || rules.equals(last)) {
            return;
        }
        synchronized (CrashJournal.class) {
            if (rules.equals(last)) {
                return;
            }
            last = rules;
            try {
                Files.write(FILE, ("rules " + rules + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND, StandardOpenOption.WRITE);
            } catch (IOException ignored) {
                // the guard then reports the crash without naming the property
            }
        }
    }
}
