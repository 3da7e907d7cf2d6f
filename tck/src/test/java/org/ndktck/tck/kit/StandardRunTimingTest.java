package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.ndktck.tck.RunLedger;

import java.lang.management.ManagementFactory;

/**
 * Not a timed assertion (speed targets are checked by the runner's timing report, not by unit tests): a
 * measurement run, off by default, that runs the seed-page kit at the standard profile against the reference
 * and prints wall time, process CPU time and the cost of a try per property. Run it with
 * {@code mvn -pl tck -am test -Dtest=StandardRunTimingTest -Dndk.tck.timing=true [-Dndk.tck.set.completion=pending]}.
 */
class StandardRunTimingTest {
    @Test
    @EnabledIfSystemProperty(named = "ndk.tck.timing", matches = "true")
    void standardRun() {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        KitRun warm = KitRun.against("reference").tries(100).classes(KitProperties.seedPages());
        warm.run();
        long cpu0 = os.getProcessCpuTime();
        KitRun k = KitRun.against("reference").param("ndk.tck.profile", "standard").param("ndk.tck.tries", "")
                .classes(KitProperties.seedPages());
        String completion = System.getProperty("ndk.tck.set.completion");
        if (completion != null) {
            k.set("completion", completion);
        }
        KitRun.Result r = k.run();
        long cpu = (os.getProcessCpuTime() - cpu0) / 1_000_000;
        long tries = r.properties().stream().mapToLong(RunLedger.PropertyRecord::tries).sum();
        StringBuilder b = new StringBuilder();
        b.append(String.format("standard run: %d properties, %d tries, wall %d ms, process CPU %d ms, %.0f us wall per try%n",
                r.properties().size(), tries, r.millis(), cpu, r.millis() * 1000.0 / Math.max(1, tries)));
        for (RunLedger.PropertyRecord p : r.properties()) {
            b.append(String.format("  %-75s %-10s tries=%5d %6d ms %7.0f us/try%n", p.property(), p.status(), p.tries(), p.durationMillis(),
                    p.durationMillis() * 1000.0 / Math.max(1, p.tries())));
        }
        System.out.println(b);
    }
}
