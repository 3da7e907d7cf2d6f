package org.ndktck.tck.runner;

import java.io.InputStream;
import java.util.Properties;

/** The kit's version, from the Maven metadata in the kit jar ({@code unknown} when run from classes). */
public final class KitVersion {
    private static volatile String version;

    private KitVersion() {
    }

    /** @return the version of the ndk-tck artifact, e.g. {@code 0.1.0-SNAPSHOT} */
    public static String get() {
        String v = version;
        if (v == null) {
            v = KitVersion.class.getPackage().getImplementationVersion();
            if (v == null) {
                try (InputStream in = KitVersion.class.getResourceAsStream("/META-INF/maven/org.ndktck/ndk-tck/pom.properties")) {
                    if (in != null) {
                        Properties p = new Properties();
                        p.load(in);
                        v = p.getProperty("version");
                    }
                } catch (Exception ignored) {
                    // fall through
                }
            }
            if (v == null) {
                v = "unknown";
            }
            version = v;
        }
        return v;
    }
}
