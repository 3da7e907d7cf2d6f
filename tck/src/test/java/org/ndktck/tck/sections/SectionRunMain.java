package org.ndktck.tck.sections;

import org.ndktck.tck.kit.KitRun;

/**
 * A developer's tool, not a test: runs section property classes and prints the run's summary (per
 * property: status, tries, time). System properties: {@code scratch.classes} (simple class names of
 * org.ndktck.tck.properties, comma-separated, or {@code ALL}), {@code scratch.provider} (default
 * {@code reference}), {@code scratch.tries} (0: the standard profile's tries), {@code scratch.set}
 * ({@code key=value,...} provider settings), {@code scratch.tags} (rule IDs).
 */
final class SectionRunMain {
    private SectionRunMain() {
    }

    /**
     * @param args unused; see the class documentation for the system properties
     */
    public static void main(String[] args) {
        String classes = System.getProperty("scratch.classes", "ALL");
        KitRun run = KitRun.against(System.getProperty("scratch.provider", "reference"), KitRun.Preset.SECTIONS);
        int tries = Integer.getInteger("scratch.tries", 100);
        if (tries > 0) {
            run.tries(tries);
        } else {
            run.param("ndk.tck.tries", "").param("ndk.tck.profile", "standard");
        }
        String settings = System.getProperty("scratch.set", "");
        for (String kv : settings.split(",")) {
            if (kv.contains("=")) {
                run.set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        if (classes.equals("ALL")) {
            run.classes(SectionProperties.all());
            classes = "";
        }
        for (String c : classes.split(",")) {
            if (c.isBlank()) {
                continue;
            }
            try {
                run.classes(Class.forName("org.ndktck.tck.properties." + c));
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException(c, e);
            }
        }
        String tags = System.getProperty("scratch.tags", "");
        if (!tags.isBlank()) {
            run.tags(tags.split(","));
        }
        System.out.println(run.run().describe());
    }
}
