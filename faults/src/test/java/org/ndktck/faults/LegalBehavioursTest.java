package org.ndktck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;

/** Each legal provider delivers completions the way its description says, in both completion styles. */
class LegalBehavioursTest {

    private static NtStatus register(Bench b, NdkMr mr, Bench.Recorder rec) {
        return mr.register(b.buffer(), 4096, 0x7, rec, "r");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void earlyCompletionComesOnAnotherThreadBeforeTheReturn(String completion) throws Exception {
        try (Bench b = new Bench("legal:early-completion", completion)) {
            Bench.Recorder rec = new Bench.Recorder();
            NtStatus r = register(b, b.newMr(), rec);
            assertThat(r).isEqualTo(NtStatus.STATUS_PENDING);
            assertThat(rec.calls).as("completed before the call returned").singleElement().satisfies(c -> {
                assertThat(c.thread()).isNotSameAs(Thread.currentThread());
                assertThat(c.status()).isEqualTo(NtStatus.STATUS_SUCCESS);
                assertThat(c.context()).isEqualTo("r");
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void foreignThreadCompletion(String completion) throws Exception {
        try (Bench b = new Bench("legal:foreign-thread-completion", completion)) {
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(register(b, b.newMr(), rec)).isEqualTo(NtStatus.STATUS_PENDING);
            assertThat(rec.await(5000)).isTrue();
            Thread.sleep(20);
            assertThat(rec.calls).singleElement().satisfies(c -> {
                assertThat(c.thread()).isNotSameAs(Thread.currentThread());
                assertThat(c.thread().getName()).startsWith("fault-delivery-legal:foreign-thread-completion");
                assertThat(c.status()).isEqualTo(NtStatus.STATUS_SUCCESS);
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void foreignThreadCompletionsComeBeforeTheirObjectsCloseEnds(String completion) throws Exception {
        try (Bench b = new Bench("legal:foreign-thread-completion", completion)) {
            java.util.List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
            NdkMr mr = b.newMr();
            assertThat(mr.register(b.buffer(), 4096, 0x7, (x, s) -> order.add("register " + s), "r"))
                    .isEqualTo(NtStatus.STATUS_PENDING);
            NtStatus close = mr.close(x -> {
                order.add("close");
                closed.countDown();
            }, "c");
            if (close.isPending()) {
                assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
            } else {
                order.add("close");
            }
            assertThat(order).as("the registration completed before the close ended")
                    .containsExactly("register " + NtStatus.STATUS_SUCCESS, "close");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void reentrantCallbacksComeOnTheCallingThreadAndMayCallBack(String completion) throws Exception {
        try (Bench b = new Bench("legal:reentrant-callbacks", completion)) {
            NdkMr mr = b.newMr();
            Bench.Recorder inner = new Bench.Recorder();
            int[] tokens = new int[1];
            Bench.Recorder outer = new Bench.Recorder() {
                @Override
                public void complete(Object ctx, NtStatus s) {
                    super.complete(ctx, s);
                    tokens[0] = mr.getRemoteToken();
                    mr.deregister(inner, "d");
                }
            };
            assertThat(register(b, mr, outer)).isEqualTo(NtStatus.STATUS_PENDING);
            assertThat(outer.calls).singleElement().satisfies(c -> assertThat(c.thread()).isSameAs(Thread.currentThread()));
            assertThat(inner.calls).as("the deregistration made inside the callback completed inside it too")
                    .singleElement().satisfies(c -> assertThat(c.status()).isEqualTo(NtStatus.STATUS_SUCCESS));
            assertThat(tokens[0]).isNotZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline"})
    void slowCallsStillGiveTheReferencesAnswers(String completion) throws Exception {
        try (Bench b = new Bench("legal:slow", completion)) {
            NdkMr mr = b.newMr();
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(Bench.finalStatus(register(b, mr, rec), rec)).isEqualTo(NtStatus.STATUS_SUCCESS);
            int token = mr.getLocalToken();
            for (int i = 0; i < 32; i++) {
                assertThat(mr.getLocalToken()).as("call " + i + " (some of them sleep first)").isEqualTo(token);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void everyEighthCallSleepsTwoToFiveMilliseconds() {
        java.util.List<Long> pauses = new java.util.ArrayList<>();
        for (long n = 1; n <= 32; n++) {
            pauses.add(LegalBehaviours.Slow.sleepMillis(n));
        }
        assertThat(pauses.stream().filter(p -> p > 0).toList()).as("the pauses of calls 1 to 32").containsExactly(3L, 4L, 5L, 2L);
        assertThat(pauses.stream().filter(p -> p == 0).count()).isEqualTo(28);
    }
}
