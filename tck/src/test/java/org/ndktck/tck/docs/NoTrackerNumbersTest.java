package org.ndktck.tck.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The code and the documents carry no tracker numbers: the tracker lives outside the repository, so a sentence such
 * as "the budgets of issue N" cannot be followed by its reader. Each sentence says what or why instead (the
 * behaviour, the rule ID, the decision, the date of a measurement). The test reads every text file under the
 * project root (build output in {@code target/} and the {@code .git} entry left out, binary files skipped) and
 * fails with each {@code file:line} that names an issue by number ("issue N", "issues N to M", "issue #N") or
 * refers to a tracker entry as {@code #N}. A link to a public tracker elsewhere (an upstream project's issue) is
 * written as its address, which the pattern does not match.
 */
class NoTrackerNumbersTest {
    /**
     * "issue N", "Issues N to M", "issue #N", "issue#N"; case-insensitive. A word that runs on into digits (a
     * method name) is not prose and is not matched.
     */
    static final Pattern ISSUE_NUMBER = Pattern.compile("(?i)\\bissues?(?:[ \\t]+#?|[ \\t]*#)[0-9]+");
    /**
     * "#N" standing alone ("(#N)", "see #N", "PR #N"), but not a colour ({@code color:#222}), an HTML entity
     * ({@code &#38;}), an address's fragment ({@code /#12}) or part of a word.
     */
    static final Pattern HASH_NUMBER = Pattern.compile("(?<![\\w&:/#])#[0-9]+\\b(?![\\w-])");

    @Test
    void noFileNamesATrackerEntryByNumber() throws IOException {
        Path root = projectRoot();
        List<String> hits = new ArrayList<>();
        List<Path> files = textFiles(root);
        for (Path f : files) {
            hits.addAll(scan(root.relativize(f).toString().replace('\\', '/'),
                    new String(Files.readAllBytes(f), StandardCharsets.UTF_8)));
        }
        // not vacuous: the walk saw the project's documents and sources
        assertThat(files).as("files scanned under " + root).hasSizeGreaterThan(100)
                .contains(root.resolve("README.md"), root.resolve("BENCHMARKS.md"),
                        root.resolve("spec/src/main/resources/org/ndktck/spec/rules/catalog.yaml"));
        assertThat(hits).as("lines that name a tracker entry by number; say what or why instead").isEmpty();
    }

    @Test
    void thePatternsMatchWhatTheyAreFor() {
        // the examples are built from pieces so that this file passes its own scan
        String issue = "issue";
        assertThat(scan("x", "the budgets of " + issue + " 18")).containsExactly("x:1: the budgets of " + issue + " 18");
        assertThat(scan("x", "a\n(" + issue + "s 14 to 22)")).hasSize(1).allMatch(h -> h.startsWith("x:2: "));
        assertThat(scan("x", "see " + "#" + "31")).hasSize(1);
        assertThat(scan("x", "Issue #" + "7, point 2")).hasSize(1);
        assertThat(scan("x", issue + "#" + "7")).hasSize(1);
        assertThat(scan("x", "color:#222; &#38; https://github.com/apache/maven-surefire/issues/3356 #include"))
                .isEmpty();
    }

    /** @return one {@code path:line: text} per line of {@code text} that matches a tracker pattern */
    static List<String> scan(String path, String text) {
        List<String> hits = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (ISSUE_NUMBER.matcher(line).find() || HASH_NUMBER.matcher(line).find()) {
                hits.add(path + ":" + (i + 1) + ": " + line.strip());
            }
        }
        return hits;
    }

    /** @return every regular file under {@code root}, outside {@code target/} and {@code .git}, that holds no NUL */
    static List<Path> textFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (!Files.isRegularFile(p) || skipped(root.relativize(p))) {
                    continue;
                }
                byte[] bytes = Files.readAllBytes(p);
                boolean binary = false;
                for (byte b : bytes) {
                    if (b == 0) {
                        binary = true;
                        break;
                    }
                }
                if (!binary) {
                    files.add(p);
                }
            }
        }
        return files;
    }

    private static boolean skipped(Path relative) {
        for (Path part : relative) {
            String name = part.toString();
            if (name.equals("target") || name.equals(".git")) {
                return true;
            }
        }
        return false;
    }

    /** The project root: the parent of the tck module's directory (Surefire's basedir, else the working directory). */
    static Path projectRoot() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath().normalize();
        Path root = Files.isDirectory(base.resolve("tck")) ? base : base.getParent();
        assertThat(root.resolve("pom.xml")).as("project root's pom.xml").isRegularFile();
        assertThat(root.resolve("tck")).as("project root's tck module").isDirectory();
        return root;
    }
}
