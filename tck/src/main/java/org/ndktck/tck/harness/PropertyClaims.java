package org.ndktck.tck.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * How the workers of one run ({@code run --jobs N}) share its properties: every worker walks the same plan, and
 * before a property starts, the worker claims it by creating a file named after the property in the run's claims
 * directory (an atomic create, so exactly one worker wins). A worker that loses the claim skips the property;
 * the winner runs it with the seed every worker derives from the run seed and the property's name
 * ({@link TckConfig#seedFor}), so which worker runs a property does not change its verdict. A busy worker simply
 * claims fewer properties: the work balances itself without a scheduler.
 *
 * <p>Off (every property is this JVM's) unless {@value #DIR} is set. The claim file holds the worker number, so
 * after the run the parent knows which worker owned a property that no report covers (a worker that died).
 */
public final class PropertyClaims {
    /** Configuration parameter: the claims directory of the run (absent: no sharing). */
    public static final String DIR = "ndk.tck.claims";
    /** Configuration parameter: this worker's number, 1-based (default 1). */
    public static final String WORKER = "ndk.tck.worker";
    /** Start of the skip reason of a property another worker claimed; such a skip is no outcome of this worker. */
    public static final String ELSEWHERE = "run by another worker of this run: ";

    private PropertyClaims() {
    }

    /**
     * @param propertyId {@code Class#method} of the property about to start
     * @return whether this worker runs it: true without a claims directory, when this worker's claim won, or when
     *     this worker claimed it before (a fresh launcher after an abandoned property); also true when the claims
     *     directory cannot be written (the property then runs in more than one worker, which the merge of the
     *     workers' reports tolerates)
     */
    public static boolean mine(String propertyId) {
        Optional<String> dir = TckConfig.parameter(DIR).filter(s -> !s.isBlank());
        if (dir.isEmpty()) {
            return true;
        }
        String me = TckConfig.parameter(WORKER).filter(s -> !s.isBlank()).orElse("1").trim();
        Path f = file(Path.of(dir.get()), propertyId);
        try {
            Files.writeString(f, me, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            return true;
        } catch (FileAlreadyExistsException e) {
            return owner(f).map(me::equals).orElse(false);
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * Makes an empty claims directory for a new run (the claims and outcomes of an earlier run in it are removed).
     *
     * @param dir the claims directory
     * @throws IOException when it cannot be created or emptied
     */
    public static void prepare(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (var old = Files.list(dir)) {
                for (Path f : (Iterable<Path>) old::iterator) {
                    Files.deleteIfExists(f);
                }
            }
        }
        Files.createDirectories(dir);
    }

    /**
     * @param dir        the claims directory
     * @param propertyId {@code Class#method}
     * @return the worker that claimed the property, if any worker did (and finished writing its claim)
     */
    public static Optional<String> owner(Path dir, String propertyId) {
        return owner(file(dir, propertyId));
    }

    private static Optional<String> owner(Path f) {
        try {
            String s = Files.readString(f, StandardCharsets.UTF_8).trim();
            return s.isEmpty() ? Optional.empty() : Optional.of(s);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Path file(Path dir, String propertyId) {
        return dir.resolve(fileName(propertyId));
    }

    /**
     * @param propertyId {@code Class#method}
     * @return the name of its claim file: the property with every character outside {@code [A-Za-z0-9._-]} as {@code _}
     */
    public static String fileName(String propertyId) {
        return propertyId.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
