package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.properties.CreateMrProperties;
import org.ndktck.tck.properties.FastRegisterProperties;
import org.ndktck.tck.properties.GeneralAsyncProperties;
import org.ndktck.tck.properties.MrObjectHeaderProperties;
import org.ndktck.tck.properties.RegisterMrProperties;

class ScratchTest {
    @Test
    void run() {
        String tries = System.getProperty("scratch.tries", "100");
        String tags = System.getProperty("scratch.tags", "");
        String sets = System.getProperty("scratch.set", "");
        int rounds = Integer.getInteger("scratch.rounds", 1);
        for (int i = 0; i < rounds; i++) {
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            KitRun k = KitRun.against(System.getProperty("scratch.provider", "reference")).tries(Integer.parseInt(tries))
                    .param("ndk.tck.timeoutFactor", System.getProperty("scratch.factor", "1"))
                    .classes(GeneralAsyncProperties.class, MrObjectHeaderProperties.class, CreateMrProperties.class,
                            RegisterMrProperties.class, FastRegisterProperties.class);
            if (!tags.isEmpty()) {
                k.tags(tags.split(","));
            }
            for (String kv : sets.split(",")) {
                if (!kv.isEmpty()) {
                    k.set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
                }
            }
            KitRun.Result r = k.run();
            System.out.println("process CPU ms: " + (os.getProcessCpuTime() - cpu0) / 1_000_000);
            System.out.println(r.describe());
        }
    }
}
