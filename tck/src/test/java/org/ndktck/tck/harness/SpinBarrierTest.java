package org.ndktck.tck.harness;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The barrier of the concurrent schedules: phases, termination and the watcher's bound. */
class SpinBarrierTest {
    @Test
    void everyPartyLeavesEachPhaseOnlyWhenAllHaveArrived() throws Exception {
        int parties = 4;
        int phases = 50;
        SpinBarrier b = new SpinBarrier(parties + 1);
        AtomicInteger[] arrivedAt = new AtomicInteger[phases];
        for (int k = 0; k < phases; k++) {
            arrivedAt[k] = new AtomicInteger();
        }
        AtomicInteger early = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(parties);
        try {
            Future<?>[] f = new Future<?>[parties];
            for (int t = 0; t < parties; t++) {
                f[t] = pool.submit(() -> {
                    for (int k = 0; k < phases; k++) {
                        arrivedAt[k].incrementAndGet();
                        assertThat(b.arriveAndAwait()).isEqualTo(k + 1);
                        if (arrivedAt[k].get() < parties) {
                            early.incrementAndGet(); // left phase k before every party had arrived at it
                        }
                    }
                    return null;
                });
            }
            for (int k = 0; k < phases; k++) {
                assertThat(b.arriveAndWatch(TimeUnit.SECONDS.toNanos(10))).isEqualTo(k + 1);
            }
            for (Future<?> x : f) {
                x.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(early.get()).isZero();
    }

    @Test
    void aWatcherWhosePartiesDoNotArriveTimesOutAndTerminationReleasesTheRest() throws Exception {
        SpinBarrier b = new SpinBarrier(3);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> waiter = pool.submit(() -> b.arriveAndAwait());
            assertThatThrownBy(() -> b.arriveAndWatch(TimeUnit.MILLISECONDS.toNanos(50))).isInstanceOf(TimeoutException.class);
            b.terminate();
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(-1);
            assertThat(b.arriveAndAwait()).as("after termination every wait ends at once").isEqualTo(-1);
            assertThat(b.isTerminated()).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }
}
