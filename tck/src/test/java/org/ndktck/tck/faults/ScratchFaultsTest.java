package org.ndktck.tck.faults;

import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "scratch.provider", matches = ".+")
class ScratchFaultsTest {
    @Test
    void run() {
        String rules = System.getProperty("scratch.rules", "");
        for (String provider : System.getProperty("scratch.provider", "reference").split(",")) {
            FaultRun r = FaultRun.against(provider).tries(Integer.parseInt(System.getProperty("scratch.tries", "10")))
                    .timeoutFactor(Double.parseDouble(System.getProperty("scratch.factor", "0.2")));
            if (!rules.isEmpty()) {
                r.rules(rules.split(","));
            }
            FaultRun.Result res = r.run();
            System.out.println(res.describe());
            System.out.println("failed rules: " + res.failedRules());
        }
    }
}
