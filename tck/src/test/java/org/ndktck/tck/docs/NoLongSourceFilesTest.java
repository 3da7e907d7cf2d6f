package org.ndktck.tck.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No Java source file of the kit ({@code tck}), the reference provider ({@code reference-impl}) or the faults
 * ({@code faults}), main or test, is longer than {@value #MAX_LINES} lines: a reader finds a rule's properties, a
 * provider's piece or a fault from a file that does one job, and a file past the limit is split by what its parts do
 * (a chain's world, its steps, its checks), not cut at the line. The test reads the real tree under the project root
 * ({@code MODULE/src/main/java} and {@code MODULE/src/test/java}, build output in {@code target/} left out) and fails
 * naming every file over the limit with its line count. Lines are counted as {@code wc -l} counts them (newline
 * characters), so {@code wc -l} over the same files shows the same numbers.
 */
class NoLongSourceFilesTest {
    /** The most lines a source file may have. */
    static final int MAX_LINES = 600;
    /** The modules whose sources the limit holds for. */
    static final List<String> MODULES = List.of("tck", "reference-impl", "faults");

    @Test
    void noSourceFileOfTheKitTheReferenceOrTheFaultsIsOverTheLimit() throws IOException {
        Path root = NoTrackerNumbersTest.projectRoot();
        List<Path> files = new ArrayList<>();
        for (String module : MODULES) {
            for (String sources : List.of("src/main/java", "src/test/java")) {
                files.addAll(javaFiles(root.resolve(module).resolve(sources)));
            }
        }
        // not vacuous: the walk saw every module's main and test sources, this file among them
        assertThat(files).as("Java files under " + MODULES).hasSizeGreaterThan(300)
                .contains(root.resolve("tck/src/main/java/org/ndktck/tck/runner/KitRunner.java"),
                        root.resolve("tck/src/test/java/org/ndktck/tck/docs/NoLongSourceFilesTest.java"),
                        root.resolve("reference-impl/src/main/java/org/ndktck/reference/ReferenceAdapter.java"),
                        root.resolve("reference-impl/src/test/java/org/ndktck/reference/ArbitraryArgumentsProperties.java"),
                        root.resolve("faults/src/main/java/org/ndktck/faults/SectionFaults.java"));
        assertThat(overTheLimit(root, files))
                .as("Java files over " + MAX_LINES + " lines; split each by what its parts do (one job per file)")
                .isEmpty();
    }

    @Test
    void theCheckNamesEveryFileOverTheLimitAndNoOther(@TempDir Path dir) throws IOException {
        Path src = Files.createDirectories(dir.resolve("m/src/main/java/p"));
        Files.writeString(src.resolve("AtTheLimit.java"), "x\n".repeat(MAX_LINES));
        Files.writeString(src.resolve("OneOver.java"), "x\n".repeat(MAX_LINES + 1));
        // a last line without a newline is not counted, as wc -l does not count it
        Files.writeString(src.resolve("NoFinalNewline.java"), "x\n".repeat(MAX_LINES) + "x");
        Files.writeString(src.resolve("Long.txt"), "x\n".repeat(MAX_LINES * 2));
        Path build = Files.createDirectories(dir.resolve("m/src/main/java/target"));
        Files.writeString(build.resolve("Generated.java"), "x\n".repeat(MAX_LINES * 2));
        List<Path> files = javaFiles(dir.resolve("m/src/main/java"));
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrder("AtTheLimit.java", "OneOver.java", "NoFinalNewline.java");
        assertThat(overTheLimit(dir, files)).containsExactly("m/src/main/java/p/OneOver.java: 601 lines");
    }

    /** @return one {@code path: N lines} per file of {@code files} over {@link #MAX_LINES}, path relative to {@code root} */
    static List<String> overTheLimit(Path root, List<Path> files) throws IOException {
        List<String> over = new ArrayList<>();
        for (Path f : files) {
            long lines = lines(Files.readAllBytes(f));
            if (lines > MAX_LINES) {
                over.add(root.relativize(f).toString().replace('\\', '/') + ": " + lines + " lines");
            }
        }
        return over;
    }

    /** @return the newline characters in {@code bytes}: the lines {@code wc -l} counts */
    static long lines(byte[] bytes) {
        long n = 0;
        for (byte b : bytes) {
            if (b == '\n') {
                n++;
            }
        }
        return n;
    }

    /** @return the {@code .java} files under {@code dir}, sorted, outside any {@code target/}; none when it is missing */
    static List<Path> javaFiles(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".java"))
                    .filter(p -> {
                        for (Path part : dir.relativize(p)) {
                            if (part.toString().equals("target")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted().forEach(files::add);
        }
        return files;
    }
}
