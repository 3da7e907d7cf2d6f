package org.ndktck.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * Each misbehaving provider does what its description says, in both completion styles of the reference it
 * wraps (the kit's view of them is tested in the tck module, org.ndktck.tck.faults).
 */
class MisbehavioursTest {
    private static final int RW = 0x7;

    private static NtStatus register(Bench b, NdkMr mr, Bench.Recorder rec, Object ctx) {
        return mr.register(b.buffer(), 4096, RW, rec, ctx);
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void blocksForeverUntilTheAdapterIsClosed(String completion) throws Exception {
        Bench b = new Bench("fault:GEN-TIME-1/blocks-forever", completion);
        NdkMr mr = b.newMr();
        AtomicReference<NtStatus> out = new AtomicReference<>();
        Thread t = new Thread(() -> out.set(register(b, mr, new Bench.Recorder(), "r")));
        t.setDaemon(true);
        t.start();
        t.join(200);
        assertThat(t.isAlive()).as("NdkRegisterMr still blocked").isTrue();
        b.close();
        t.join(5000);
        assertThat(t.isAlive()).as("released by NdkCloseAdapter").isFalse();
        assertThat(out.get()).isEqualTo(NtStatus.STATUS_CANCELLED);
    }

    @Test
    void blocksForeverLetsAnInterruptedThreadGo() throws Exception {
        try (Bench b = new Bench("fault:GEN-TIME-1/blocks-forever", "inline")) {
            NdkMr mr = b.newMr();
            AtomicReference<NtStatus> out = new AtomicReference<>();
            Thread t = new Thread(() -> out.set(register(b, mr, new Bench.Recorder(), "r")));
            t.setDaemon(true);
            t.start();
            t.join(100);
            assertThat(t.isAlive()).isTrue();
            t.interrupt();
            t.join(5000);
            assertThat(t.isAlive()).isFalse();
            assertThat(out.get()).isEqualTo(NtStatus.STATUS_CANCELLED);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void pendingNeverCompletes(String completion) throws Exception {
        try (Bench b = new Bench("fault:GEN-CB-1/pending-never-completes", completion)) {
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(register(b, b.newMr(), rec, "r")).isEqualTo(NtStatus.STATUS_PENDING);
            assertThat(rec.await(300)).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void completesTwice(String completion) throws Exception {
        try (Bench b = new Bench("fault:GEN-CB-1/completes-twice", completion)) {
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(register(b, b.newMr(), rec, "r")).isEqualTo(NtStatus.STATUS_PENDING);
            waitFor(() -> rec.calls.size() >= 2);
            assertThat(rec.calls).hasSize(2).allSatisfy(c -> {
                assertThat(c.context()).isEqualTo("r");
                assertThat(c.status()).isEqualTo(NtStatus.STATUS_SUCCESS);
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void completesAfterAnInlineReturn(String completion) throws Exception {
        try (Bench b = new Bench("fault:GEN-CB-2/after-inline-return", completion)) {
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(register(b, b.newMr(), rec, "r")).isEqualTo(NtStatus.STATUS_SUCCESS);
            assertThat(rec.await(2000)).isTrue();
            assertThat(rec.calls.get(0).context()).isEqualTo("r");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void completesWithAForeignContext(String completion) throws Exception {
        try (Bench b = new Bench("fault:GEN-CB-1/previous-request-context", completion)) {
            Bench.Recorder first = new Bench.Recorder();
            Bench.Recorder second = new Bench.Recorder();
            assertThat(register(b, b.newMr(), first, "first")).isEqualTo(NtStatus.STATUS_PENDING);
            assertThat(register(b, b.newMr(), second, "second")).isEqualTo(NtStatus.STATUS_PENDING);
            assertThat(first.await(2000)).isTrue();
            assertThat(second.await(2000)).isTrue();
            assertThat(first.calls.get(0).context()).isInstanceOf(Misbehaviours.ForgedContext.class);
            assertThat(second.calls.get(0).context()).isEqualTo("first");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void throwsFromTheCall(String completion) throws Exception {
        try (Bench b = new Bench("fault:GEN-EXC-1/throws-from-call", completion)) {
            NdkMr mr = b.newMr();
            assertThatThrownBy(() -> register(b, mr, new Bench.Recorder(), "r")).isInstanceOf(IllegalStateException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void aCompletionWorkerDiesBeforeTheCompletionIsDelivered(String completion) throws Exception {
        List<String> deaths = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> deaths.add(t.getName() + ": " + e));
        try (Bench b = new Bench("fault:GEN-EXC-1/throws-from-completion-path", completion)) {
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(register(b, b.newMr(), rec, "r")).isEqualTo(NtStatus.STATUS_PENDING);
            assertThat(rec.await(5000)).isTrue();
            assertThat(rec.calls.get(0).status()).isEqualTo(NtStatus.STATUS_SUCCESS);
            assertThat(deaths).as("the worker died before the completion came").singleElement()
                    .asString().startsWith("fault-completion-worker-").contains("IllegalStateException");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void createMrSucceedsWithoutAnObject(String completion) throws Exception {
        try (Bench b = new Bench("fault:GEN-CB-4/success-without-object", completion)) {
            CreateResult<NdkMr> r = b.pd.createMr(false, (x, s, o) -> {
                throw new AssertionError("no completion expected");
            }, "mr");
            assertThat(r.status()).isEqualTo(NtStatus.STATUS_SUCCESS);
            assertThat(r.object()).isNull();
        }
    }

    @Test
    void anMrSaysItIsAPd() throws Exception {
        try (Bench b = new Bench("fault:OBJ-1/wrong-object-type", "inline")) {
            assertThat(b.newMr().header().objectType()).isEqualTo(NdkObjectType.PD);
            assertThat(b.pd.header().objectType()).isEqualTo(NdkObjectType.PD);
            assertThat(b.cq.header().objectType()).isEqualTo(NdkObjectType.CQ);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void aForgedEntryFollowsTheFirstSuccessfulRequest(String completion) throws Exception {
        try (Bench b = new Bench("fault:CQ-2/extra-entry-never-posted", completion)) {
            NdkMr mr = b.newMr();
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(Bench.finalStatus(register(b, mr, rec, "r"), rec)).isEqualTo(NtStatus.STATUS_SUCCESS);
            NdkSge sge = new NdkSge(0x1000_0000L, 8, mr.getLocalToken());
            assertThat(b.a.write("w", new NdkSge[]{sge}, 0x1000_0000L + 64, mr.getRemoteToken(), 0))
                    .isEqualTo(NtStatus.STATUS_SUCCESS);
            List<NdkResultEx> entries = drain(b, 2);
            assertThat(entries).extracting(NdkResultEx::requestContext).contains("w")
                    .anySatisfy(c -> assertThat(c).isInstanceOf(Misbehaviours.ForgedContext.class));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void anInlineFailureStillGivesACqEntry(String completion) throws Exception {
        try (Bench b = new Bench("fault:DEF-2/cq-entry-after-inline-failure", completion)) {
            NtStatus s = b.unconnected.invalidate("inv", b.newMr(), 0);
            assertThat(s.isError()).as("NdkInvalidate on an unconnected QP fails inline: " + s).isTrue();
            assertThat(drain(b, 1)).singleElement().satisfies(e -> {
                assertThat(e.requestContext()).isEqualTo("inv");
                assertThat(e.status()).isEqualTo(s);
                assertThat(e.qpContext()).isEqualTo("qpU");
            });
        }
    }

    @Test
    void theRemoteTokenChangesBetweenReads() throws Exception {
        try (Bench b = new Bench("fault:MR-TOK-5/token-changes-between-reads", "inline")) {
            NdkMr mr = b.newMr();
            Bench.Recorder rec = new Bench.Recorder();
            assertThat(Bench.finalStatus(register(b, mr, rec, "r"), rec)).isEqualTo(NtStatus.STATUS_SUCCESS);
            int first = mr.getRemoteToken();
            assertThat(mr.getRemoteToken()).isNotEqualTo(first);
            assertThat(mr.getRemoteToken()).isEqualTo(first);
            assertThat(mr.getLocalToken()).isEqualTo(mr.getLocalToken());
        }
    }

    static List<NdkResultEx> drain(Bench b, int atLeast) throws InterruptedException {
        List<NdkResultEx> out = new CopyOnWriteArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < end) {
            NdkResultEx[] buf = new NdkResultEx[8];
            int n = b.cq.getCqResultsEx(buf);
            for (int i = 0; i < n; i++) {
                out.add(buf[i]);
            }
            if (out.size() >= atLeast && n == 0) {
                break;
            }
            Thread.sleep(5);
        }
        return out;
    }

    static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(2);
        }
        Thread.sleep(20);
    }
}
