package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.RunLedger;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit ships no {@code junit-platform.properties}: a provider's own build must stay in charge of its
 * platform configuration (design section 5). Checks what goes into the kit jar (its classes directory, or
 * the jar itself when the tests run against it).
 */
class KitJarContentTest {
    @Test
    void theKitJarHasNoJunitPlatformProperties() throws IOException, URISyntaxException {
        Path root = Path.of(RunLedger.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(root)) {
            try (Stream<Path> files = Files.walk(root)) {
                assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("junit-platform.properties");
            }
        } else {
            try (java.util.jar.JarFile jar = new java.util.jar.JarFile(root.toFile())) {
                assertThat(Collections.list(jar.entries()).stream().map(e -> e.getName())).noneMatch(n -> n.endsWith("junit-platform.properties"));
            }
        }
        List<URL> all = Collections.list(RunLedger.class.getClassLoader().getResources("junit-platform.properties"));
        assertThat(all).noneMatch(u -> u.toString().startsWith(root.toUri().toString()));
        assertThat(Path.of("src/main/resources/junit-platform.properties")).doesNotExist();
    }
}
