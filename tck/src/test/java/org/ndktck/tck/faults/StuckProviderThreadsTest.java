package org.ndktck.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.Invoker;
import org.ndktck.tck.harness.TckConfig;

/**
 * A provider whose calls hang does not poison the rest of the JVM ("the rest of the run must go on",
 * and a provider that blocks interruptibly lets the thread go when interrupted): the kit interrupts every
 * caller thread it abandons, and a thread the provider then lets go no longer counts against the limit of
 * stuck threads (64). Seventy calls that block until interrupted each fail GEN-TIME-1; the next call works.
 */
class StuckProviderThreadsTest {

    @AfterEach
    void restore() {
        TckConfig.useParameters(k -> Optional.empty());
        Invoker.resetRun();
    }

    @Test
    void callsThatBlockUntilInterruptedDoNotUseUpTheStuckThreadLimit() {
        TckConfig.useParameters(k -> k.equals(TckConfig.TIMEOUT_FACTOR) ? Optional.of("0.01") : Optional.empty());
        Invoker inv = Invoker.forCurrentThread();
        CountDownLatch never = new CountDownLatch(1);
        for (int i = 0; i < 70; i++) {
            RuleViolation v = catchThrowableOfType(RuleViolation.class, () -> inv.call("NdkRegisterMr", () -> "a call that blocks", () -> {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "released";
            }));
            assertThat(v).as("call %d", i).isNotNull();
            assertThat(v.ruleId()).isEqualTo("GEN-TIME-1");
            assertThat(v.getMessage()).as("call %d", i).contains("abandoned the calling thread");
        }
        assertThat(inv.call("NdkQueryAdapterInfo", () -> "a call that returns", () -> "returned")).isEqualTo("returned");
    }
}
