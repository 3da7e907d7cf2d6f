package org.ndktck.tck.harness;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** An abandoned launcher thread stops for good where the kit's hooks see it; any other thread goes on. */
class AbandonedLaunchersTest {
    @Test
    void anAbandonedThreadStaysParkedEvenWhenInterruptedAndOthersPass() throws Exception {
        AtomicBoolean passed = new AtomicBoolean();
        Thread t = new Thread(() -> {
            AbandonedLaunchers.stopHereIfAbandoned();
            passed.set(true);
        });
        t.setDaemon(true);
        AbandonedLaunchers.abandon(t);
        t.start();
        t.join(300);
        t.interrupt();
        t.join(300);
        assertThat(t.isAlive()).as("parked for good").isTrue();
        assertThat(passed).isFalse();

        AtomicBoolean other = new AtomicBoolean();
        Thread u = new Thread(() -> {
            AbandonedLaunchers.stopHereIfAbandoned();
            other.set(true);
        });
        u.start();
        u.join(5000);
        assertThat(other).as("a thread never abandoned goes on").isTrue();
    }
}
