package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.ndktck.spec.NtStatus.STATUS_INSUFFICIENT_RESOURCES;
import static org.ndktck.spec.NtStatus.STATUS_PENDING;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;

/** Object life: close ordering (CL-1 to CL-8), callbacks that call back in, the object budget. */
@Timeout(30)
class LifecycleTest {

    @Test
    void headersCarryTypeAndVersion() {
        try (Fixture f = Fixture.open("ndkVersion=1.1")) {
            assertThat(f.pd.header().objectType()).isEqualTo(NdkObjectType.PD);
            assertThat(f.cq.header().objectType()).isEqualTo(NdkObjectType.CQ);
            assertThat(f.qpA.header().objectType()).isEqualTo(NdkObjectType.QP);
            NdkMr mr = f.newMr(true);
            assertThat(mr.header().objectType()).isEqualTo(NdkObjectType.MR);
            assertThat(mr.header().version()).isEqualTo(NdkVersion.V1_1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending", "mixed"})
    void aPdClosePendsUntilItsMrClosedAndItsCloseCallbackReturned(String completion) throws Exception {
        try (Fixture f = Fixture.open("completion=" + completion, "seed=11")) {
            NdkPd pd = Fixture.create(c -> f.adapter.createPd(c, null));
            NdkMr mr = Fixture.create(c -> pd.createMr(false, c, null));
            List<String> events = new CopyOnWriteArrayList<>();
            CountDownLatch pdClosed = new CountDownLatch(1);
            assertThat(pd.close(ctx -> {
                events.add("pd");
                pdClosed.countDown();
            }, null)).isEqualTo(STATUS_PENDING);
            Fixture.sleep(30);
            assertThat(events).isEmpty();
            NtStatus mrClose = mr.close(ctx -> {
                Fixture.sleep(20);
                events.add("mr");
            }, null);
            assertThat(mrClose).isIn(STATUS_SUCCESS, STATUS_PENDING);
            if (mrClose.equals(STATUS_SUCCESS)) {
                events.add(0, "mr");
            }
            assertThat(pdClosed.await(5, TimeUnit.SECONDS)).isTrue();
            Fixture.sleep(30);
            assertThat(events).containsExactly("mr", "pd");
        }
    }

    @Test
    void closingAnMrWithARegistrationPendingMakesTheCloseTheLastCallback() throws Exception {
        try (Fixture f = Fixture.open("completion=pending")) {
            NdkMr mr = f.newMr(false);
            List<String> events = new CopyOnWriteArrayList<>();
            CountDownLatch closed = new CountDownLatch(1);
            assertThat(mr.register(f.buffer(0x10000, 0x1000), 0x1000, 0, (c, s) -> {
                Fixture.sleep(50);
                events.add("register " + s.name());
            }, null)).isEqualTo(STATUS_PENDING);
            assertThat(mr.close(c -> {
                events.add("close");
                closed.countDown();
            }, null)).isEqualTo(STATUS_PENDING);
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
            Fixture.sleep(50);
            assertThat(events).hasSize(2);
            assertThat(events.get(1)).isEqualTo("close");
            assertThat(events.get(0)).startsWith("register");
        }
    }

    @Test
    void aCqClosePendsUntilItsQpsClosed() throws Exception {
        try (Fixture f = Fixture.open()) {
            CountDownLatch cqClosed = new CountDownLatch(1);
            assertThat(f.cq.close(c -> cqClosed.countDown(), null)).isEqualTo(STATUS_PENDING);
            assertThat(cqClosed.await(50, TimeUnit.MILLISECONDS)).isFalse();
            Fixture.close(c -> f.qpA.close(c, null));
            assertThat(cqClosed.await(50, TimeUnit.MILLISECONDS)).isFalse();
            Fixture.close(c -> f.qpB.close(c, null));
            assertThat(cqClosed.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void callbacksMayCallBackIntoTheProvider(String completion) throws Exception {
        try (Fixture f = Fixture.open("completion=" + completion)) {
            NdkMr mr = f.newMr(false);
            CompletableFuture<String> result = new CompletableFuture<>();
            NtStatus s = mr.register(f.buffer(0x10000, 0x1000), 0x1000, 0x2, (c, st) -> {
                // GEN-LIFE-1: deregister and close from inside the completion
                NtStatus d = mr.deregister((c2, st2) -> { }, null);
                NtStatus cl = mr.close(c3 -> result.complete("closed after " + d.name()), null);
                if (cl.equals(STATUS_SUCCESS)) {
                    result.complete("closed inline after " + d.name());
                }
            }, null);
            if (s.equals(STATUS_SUCCESS)) {
                // inline mode never calls back; do the same from here
                assertThat(mr.deregister((c, st) -> { }, null)).isEqualTo(STATUS_SUCCESS);
                assertThat(mr.close(c -> { }, null)).isEqualTo(STATUS_SUCCESS);
                result.complete("inline");
            }
            assertThat(result.get(5, TimeUnit.SECONDS)).isNotNull();
        }
    }

    @Test
    void closeReturnsOnlySuccessOrPendingAndASecondCloseIsHarmless() {
        try (Fixture f = Fixture.open()) {
            NdkMr mr = f.newMr(true);
            int[] calls = {0};
            assertThat(mr.close(c -> calls[0]++, null)).isEqualTo(STATUS_SUCCESS);
            assertThat(mr.close(c -> calls[0]++, null)).isEqualTo(STATUS_SUCCESS);
            Fixture.sleep(20);
            assertThat(calls[0]).isZero();
        }
    }

    @Test
    void theObjectBudgetGivesInsufficientResourcesInlineOrThroughTheCompletion() throws Exception {
        for (String completion : new String[] {"inline", "pending"}) {
            NdkAdapter adapter = new ReferenceProvider().configure(Map.of("maxObjects", "2", "completion", completion))
                    .openAdapter(new HostMemory(4096));
            NdkPd pd = Fixture.create(c -> adapter.createPd(c, null));
            NdkMr mr = Fixture.create(c -> pd.createMr(false, c, null));
            CompletableFuture<NtStatus> async = new CompletableFuture<>();
            CreateResult<NdkMr> third = pd.createMr(true, (c, s, o) -> async.complete(s), null);
            NtStatus status = third.status().isPending() ? async.get(5, TimeUnit.SECONDS) : third.status();
            assertThat(status).as(completion).isEqualTo(STATUS_INSUFFICIENT_RESOURCES);
            assertThat(third.object()).isNull();
            Fixture.close(c -> mr.close(c, null));
            // the budget is freed by the close; with completion=pending the close's callback may run just before the
            // slot is returned, so a create right after it may still be refused: try again for up to a second
            NdkMr again = null;
            for (int attempt = 0; attempt < 100 && again == null; attempt++) {
                CompletableFuture<NtStatus> done = new CompletableFuture<>();
                CompletableFuture<NdkMr> made = new CompletableFuture<>();
                CreateResult<NdkMr> r = pd.createMr(true, (c, st, o) -> {
                    made.complete(o);
                    done.complete(st);
                }, null);
                boolean pending = r.status().isPending();
                NtStatus s = pending ? done.get(5, TimeUnit.SECONDS) : r.status();
                if (s.equals(STATUS_SUCCESS)) {
                    again = pending ? made.get(5, TimeUnit.SECONDS) : r.object();
                } else {
                    assertThat(s).as(completion).isEqualTo(STATUS_INSUFFICIENT_RESOURCES);
                    Fixture.sleep(10);
                }
            }
            assertThat(again).as("the budget is freed by close").isNotNull();
            assertThat(again.header().objectType()).isEqualTo(NdkObjectType.MR);
            adapter.close();
        }
    }

    @Test
    void adapterCloseClosesWhatIsLeftAndWaitsForEveryCallback() throws Exception {
        Fixture f = Fixture.open("completion=pending");
        NdkMr mr = f.newMr(false);
        List<String> events = new CopyOnWriteArrayList<>();
        assertThat(mr.register(f.buffer(0x10000, 0x1000), 0x1000, 0, (c, s) -> {
            Fixture.sleep(100);
            events.add("register");
        }, null)).isEqualTo(STATUS_PENDING);
        assertThat(f.pd.close(c -> events.add("pd"), null)).isEqualTo(STATUS_PENDING);
        f.adapter.close();
        assertThat(events).containsExactly("register", "pd");
        Fixture.sleep(50);
        assertThat(events).hasSize(2);
        assertThat(f.adapter.createPd((c, s, o) -> events.add("late"), null).status()).isNotEqualTo(STATUS_SUCCESS);
        f.adapter.close();
    }

    @Test
    void adapterCloseFromInsideACallbackDoesNotDeadlock() throws Exception {
        Fixture f = Fixture.open("completion=pending");
        NdkMr mr = f.newMr(false);
        CompletableFuture<NtStatus> done = new CompletableFuture<>();
        List<String> events = new CopyOnWriteArrayList<>();
        assertThat(mr.register(f.buffer(0x10000, 0x1000), 0x1000, 0, (c, s) -> {
            f.adapter.close();
            events.add("closed inside the callback");
            done.complete(s);
        }, "r")).isEqualTo(STATUS_PENDING);
        assertThat(done.get(5, TimeUnit.SECONDS)).as("the registration's completion status").isEqualTo(STATUS_SUCCESS);
        assertThat(events).as("the close made inside the callback returned").containsExactly("closed inside the callback");
        assertThat(f.adapter.createPd((c, s, o) -> events.add("late"), null).status())
                .as("a call on the adapter closed inside the callback").isNotEqualTo(STATUS_SUCCESS);
        f.adapter.close();
        assertThat(events).as("no callback after the adapter closed").containsExactly("closed inside the callback");
    }

    @Test
    void foreignObjectsAreRejectedAndWrappersAreUnwrapped() {
        try (Fixture f = Fixture.open(); Fixture other = Fixture.open()) {
            NdkMr foreign = other.initialized(1, true);
            var lam = f.lam(f.buffer(0x6600_0000L, 0x1000), 0x1000);
            assertThat(f.qpA.fastRegister("x", foreign, 1, lam.adapterPageArray(), 0, 0x1000, 0x1000, 0))
                    .isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            NdkMr mine = f.initialized(1, true);
            NdkMr wrapped = new WrappedMr(new WrappedMr(mine));
            assertThat(f.completionOf(c -> f.qpA.fastRegister(c, wrapped, 1, lam.adapterPageArray(), 0, 0x1000, 0x1000, 0)))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.adapter.connectLoopback(f.qpA, other.qpA)).isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            NdkQp q1 = f.newQp("1");
            NdkQp q2 = f.newQp("2");
            assertThat(f.adapter.connectLoopback(q1, q1)).isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            assertThat(f.adapter.connectLoopback(q1, f.qpA)).isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            assertThat(f.adapter.connectLoopback(q1, q2)).isEqualTo(STATUS_SUCCESS);
            NdkCq foreignCq = other.cq;
            AtomicReference<CreateResult<NdkQp>> r = new AtomicReference<>();
            r.set(f.pd.createQp(foreignCq, f.cq, null, 1, 1, 1, 1, 0, (c, s, o) -> { }, null));
            assertThat(r.get().status()).isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            assertThatThrownBy(() -> f.qpA.fastRegister("x", null, 1, new long[1], 0, 1, 0, 0))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("mr");
            assertThatThrownBy(() -> f.qpA.send("x", new org.ndktck.spec.NdkSge[] {null}, 0))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("sgl[0]");
        }
    }

    /** A wrapper as the fault catalogue writes them: delegates, and unwraps. */
    private record WrappedMr(NdkMr inner) implements NdkMr, Unwrappable {
        @Override
        public org.ndktck.spec.NdkObject unwrap() {
            return inner;
        }

        @Override
        public org.ndktck.spec.NdkObjectHeader header() {
            return inner.header();
        }

        @Override
        public NtStatus register(org.ndktck.spec.Mdl mdl, long length, int flags,
                                 org.ndktck.spec.RequestCompletion completion, Object requestContext) {
            return inner.register(mdl, length, flags, completion, requestContext);
        }

        @Override
        public NtStatus deregister(org.ndktck.spec.RequestCompletion completion, Object requestContext) {
            return inner.deregister(completion, requestContext);
        }

        @Override
        public NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess,
                                               org.ndktck.spec.RequestCompletion completion, Object requestContext) {
            return inner.initializeFastRegister(adapterPageCount, remoteAccess, completion, requestContext);
        }

        @Override
        public int getLocalToken() {
            return inner.getLocalToken();
        }

        @Override
        public int getRemoteToken() {
            return inner.getRemoteToken();
        }

        @Override
        public NtStatus close(org.ndktck.spec.CloseCompletion completion, Object closeContext) {
            return inner.close(completion, closeContext);
        }
    }
}
