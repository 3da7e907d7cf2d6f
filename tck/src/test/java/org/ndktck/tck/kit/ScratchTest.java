package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.properties.FastRegisterProperties;

class ScratchTest {
    @Test
    void run() {
        String tries = System.getProperty("scratch.tries", "1000");
        String tags = System.getProperty("scratch.tags", "MR-FR-4");
        for (int i = 0; i < 2; i++) {
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            KitRun.Result r = KitRun.against(System.getProperty("scratch.provider", "reference")).tries(Integer.parseInt(tries))
                    .param("jqwik.reporting.onlyfailures", "true")
                    .classes(FastRegisterProperties.class).tags(tags.split(",")).run();
            System.out.println("process CPU ms: " + (os.getProcessCpuTime() - cpu0) / 1_000_000);
            System.out.println(r.describe());
        }
    }
}
