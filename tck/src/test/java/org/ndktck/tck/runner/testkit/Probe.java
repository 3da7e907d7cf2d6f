package org.ndktck.tck.runner.testkit;

import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.harness.PropertyClaims;
import org.ndktck.tck.harness.ProviderUnderTest;
import org.ndktck.tck.harness.TckConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import java.util.Arrays;
import java.util.Map;

/** What the probe properties do, as the probe provider's settings say. */
final class Probe {
    /** The failure message: memory-region fields the HTML report draws. */
    static final String FIELDS = "NdkFastRegister accepted a region one byte too long: FBO=0x200 Length=0x1000 "
            + "BaseVirtualAddress=0x7000200 AdapterPageCount=2 PAGE_SIZE=0x1000; peer write RemoteAddress=0x7000000 "
            + "AccessLength=0x40 Access=write returned STATUS_SUCCESS, expected STATUS_INVALID_PARAMETER";

    private Probe() {
    }

    static void act(String rule, int x) {
        Map<String, String> s = ProviderUnderTest.get().factory().effectiveSettings();
        if (has(s, "hang", rule)) {
            while (true) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    // a stuck provider ignores interrupts
                }
            }
        }
        String worker = TckConfig.parameter(PropertyClaims.WORKER).orElse("1");
        if (worker.equals(s.get("haltWorker"))) {
            Runtime.getRuntime().halt(7);
        }
        if (worker.equals("1") && !s.getOrDefault("holdFor", "").isBlank()) {
            holdUntilClaimedBy(s.get("holdFor"));
        }
        if (has(s, "halt", rule)) {
            Runtime.getRuntime().halt(7);
        }
        if (has(s, "crash", rule)) {
            throw new IllegalStateException("probe provider exploded in " + rule);
        }
        if (has(s, "bury", rule)) {
            throw new IllegalStateException("probe property crashed in " + rule,
                    new RuleViolation(rule, "MUST: a violation buried as the cause of a crash"));
        }
        if (has(s, "advise", rule)) {
            RunLedger.advisory(rule, "[" + rule + "] SHOULD: returned STATUS_INSUFFICIENT_RESOURCES where STATUS_INVALID_PARAMETER is listed");
        }
        String violate = s.getOrDefault("violate", "");
        if (violate.startsWith(rule + ">")) {
            String other = violate.substring(rule.length() + 1);
            throw new RuleViolation(other, "MUST: completion called after an inline return while testing " + rule);
        }
        if (has(s, "fail", rule) && x >= 3) {
            throw new RuleViolation(rule, "MUST: " + FIELDS + " (x=" + x + ")");
        }
    }

    /** Waits (up to 60 s) until worker {@code k} of a shared run has claimed a property, as a slow property lets it. */
    private static void holdUntilClaimedBy(String k) {
        Optional<String> dir = TckConfig.parameter(PropertyClaims.DIR);
        long end = System.nanoTime() + 60_000_000_000L;
        while (dir.isPresent() && System.nanoTime() < end) {
            try (Stream<Path> files = Files.list(Path.of(dir.get()))) {
                if (files.anyMatch(f -> PropertyClaims.owner(f.getParent(), f.getFileName().toString()).filter(k::equals).isPresent())) {
                    return;
                }
                Thread.sleep(20);
            } catch (IOException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean has(Map<String, String> s, String key, String rule) {
        return Arrays.asList(s.getOrDefault(key, "").split(",")).contains(rule);
    }
}
