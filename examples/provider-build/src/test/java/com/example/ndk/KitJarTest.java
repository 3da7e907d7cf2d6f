package com.example.ndk;

import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kit jar ships no {@code junit-platform.properties}: this build keeps control of its own JUnit Platform
 * configuration. Checks the kit artifact actually on this project's test class path.
 */
class KitJarTest {
    @Test
    void theKitArtifactHasNoJunitPlatformProperties() throws Exception {
        URL where = Class.forName("org.ndktck.tck.RunLedger").getProtectionDomain().getCodeSource().getLocation();
        Path kit = Path.of(where.toURI());
        if (kit.toString().endsWith(".jar")) {
            try (JarFile jar = new JarFile(kit.toFile())) {
                assertTrue(jar.getEntry("org/ndktck/tck/RunLedger.class") != null, "not the kit jar: " + kit);
                assertFalse(Collections.list(jar.entries()).stream().anyMatch(e -> e.getName().endsWith("junit-platform.properties")),
                        kit + " ships a junit-platform.properties");
            }
        }
        List<URL> found = Collections.list(getClass().getClassLoader().getResources("junit-platform.properties"));
        assertEquals(List.of(), found, "junit-platform.properties on the test class path");
    }
}
