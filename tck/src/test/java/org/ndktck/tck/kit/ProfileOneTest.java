package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

class ProfileOneTest {
    @Test
    @EnabledIfSystemProperty(named = "ndk.tck.profileTag", matches = ".+")
    void run() {
        for (int i = 0; i < 2; i++) {
            KitRun.Result r = KitRun.against("reference").tries(1000).classes(KitProperties.seedPages())
                    .tags(System.getProperty("ndk.tck.profileTag").split(","))
                    .set("completion", System.getProperty("ndk.tck.profileCompletion", "inline")).run();
            System.out.println(r.describe());
        }
    }
}
