package org.ndktck.tck.sections;

import org.junit.jupiter.api.Test;

/** Developer scratch run (not part of the build's assertions): prints a run's summary. */
class ScratchSectionsTest {
    @Test
    void scratch() {
        String classes = System.getProperty("scratch.classes");
        if (classes == null) {
            return;
        }
        SectionRun run = SectionRun.against(System.getProperty("scratch.provider", "reference"))
                .tries(Integer.getInteger("scratch.tries", 100));
        String settings = System.getProperty("scratch.set", "");
        for (String kv : settings.split(",")) {
            if (kv.contains("=")) {
                run.set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        for (String c : classes.split(",")) {
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
