package org.ndktck.tck.faults;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.kit.KitRun;

/**
 * A developer's tool, off unless {@code -Dscratch.provider} is given: runs the kit against one or more providers
 * (comma-separated) and prints which properties failed and which rules they were charged to. Options:
 * {@code -Dscratch.rules=RULE,...} (tags; default every property), {@code -Dscratch.tries=N} (10),
 * {@code -Dscratch.factor=F} (timeout factor, 0.2). Example:
 * {@code mvn -q -B -pl tck -am verify -Dtest=ScratchFaultsTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dscratch.provider=fault:GEN-TIME-1/blocks-forever,reference}
 */
@org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "scratch.provider", matches = ".+")
class ScratchFaultsTest {
    @Test
    void run() {
        String rules = System.getProperty("scratch.rules", "");
        for (String provider : System.getProperty("scratch.provider", "reference").split(",")) {
            KitRun r = KitRun.against(provider, KitRun.Preset.FAULTS).tries(Integer.parseInt(System.getProperty("scratch.tries", "10")))
                    .timeoutFactor(Double.parseDouble(System.getProperty("scratch.factor", "0.2")));
            if (!rules.isEmpty()) {
                r.rules(rules.split(","));
            }
            KitRun.Result res = r.run();
            System.out.println(res.describe());
            System.out.println("failed rules: " + res.failedRules());
        }
    }
}
