package org.ndktck.tck.harness;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps jqwik's advice about the kit's own properties off the build's console: several of the kit's properties take
 * no {@code @ForAll} parameter and run many tries on purpose (each try draws its own schedule or provider state), and
 * jqwik warns about each of them ("Running Property ... without any @ForAll parameters ... Maybe you want to change it
 * into an @Example?"), once per property per run: about a hundred lines of a {@code mvn verify} that tell a provider
 * author nothing. The system property {@value #SHOW} set to {@code true} keeps them.
 */
public final class JqwikWarnings {
    private JqwikWarnings() {
    }

    /** The system property that keeps jqwik's warnings about the kit's properties. */
    public static final String SHOW = "ndk.tck.jqwikWarnings";

    /** Held: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
    private static final Logger CHECKED_PROPERTY = Logger.getLogger("net.jqwik.engine.execution.CheckedProperty");

    /**
     * Raises the level of jqwik's logger for that advice to SEVERE, unless {@value #SHOW} is {@code true}.
     *
     * @return true when the warnings are kept off
     */
    public static boolean quiet() {
        if (Boolean.getBoolean(SHOW)) {
            return false;
        }
        CHECKED_PROPERTY.setLevel(Level.SEVERE);
        return true;
    }
}
