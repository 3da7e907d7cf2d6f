package org.ndktck.tck.sections;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;
import org.ndktck.tck.kit.KitRun;

import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit is a correct consumer: the {@link ConsumerGuard} catches each consumer rule broken on
 * purpose by a stub consumer, and the whole kit run against the guarded reference provider breaks none.
 */
class ConsumerGuardTest {

    @BeforeEach
    void reset() {
        ConsumerGuard.reset();
    }

    /** A stub of an SPI interface: methods answer from {@code answer}, or return null / 0. */
    @SuppressWarnings("unchecked")
    private static <T> T stub(Class<T> type, java.util.function.BiFunction<String, Object[], Object> answer) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, (p, m, args) -> {
            Object r = answer.apply(m.getName(), args);
            if (r != null) {
                return r;
            }
            Class<?> rt = m.getReturnType();
            return rt == int.class ? 0 : rt == long.class ? 0L : rt == boolean.class ? false : null;
        });
    }

    private static NdkAdapter adapterStub() {
        NdkAdapterInfo info = new NdkAdapterInfo(NdkVersion.V1_1, 0, 16, 1L << 30, 0, 1, 1, 1, 1 << 20, 0, 1, 1, 16, 16, 64);
        return stub(NdkAdapter.class, (name, args) -> name.equals("queryAdapterInfo") ? info : null);
    }

    /** A PD behind the guard, over {@link #adapterStub()}, whose stub creates {@code mr} and {@code qp}. */
    private static NdkPd pd(NdkMr mr, NdkQp qp) {
        NdkPd inner = stub(NdkPd.class, (name, args) -> switch (name) {
            case "createMr" -> CreateResult.success(mr);
            case "createQp" -> CreateResult.success(qp);
            default -> null;
        });
        NdkAdapterInfo info = adapterStub().queryAdapterInfo();
        NdkAdapter adapter = stub(NdkAdapter.class, (name, args) -> switch (name) {
            case "queryAdapterInfo" -> info;
            case "createPd" -> CreateResult.success(inner);
            default -> null;
        });
        return ConsumerGuard.guard(adapter).createPd((c, s, o) -> { }, null).object();
    }

    /** {@code inner} behind the guard, as an MR of {@link #pd}. */
    private static NdkMr mr(NdkMr inner, boolean fastRegister) {
        return pd(inner, null).createMr(fastRegister, (c, s, o) -> { }, null).object();
    }

    /** {@code inner} behind the guard, as a QP of {@link #pd}. */
    private static NdkQp qp(NdkQp inner) {
        return pd(null, inner).createQp(null, null, null, 1, 1, 1, 1, 0, (c, s, o) -> { }, null).object();
    }

    private static java.util.Set<String> flagged() {
        java.util.Set<String> s = new java.util.TreeSet<>();
        ConsumerGuard.violations().forEach(v -> s.add(v.rule()));
        return s;
    }

    @Test
    void touchingTheMdlWhileTheRegistrationIsPendingIsCaught() {
        AtomicReference<RequestCompletion> held = new AtomicReference<>();
        NdkMr inner = stub(NdkMr.class, (name, args) -> {
            if (name.equals("register")) {
                held.set((RequestCompletion) args[3]);
                return NtStatus.STATUS_PENDING;
            }
            return null;
        });
        NdkMr mr = mr(inner, false);
        Mdl mdl = Mdl.of(4096, 0x10000, 16, new long[]{0x200});
        assertThat(mr.register(mdl, 16, 0, (c, s) -> { }, null)).isEqualTo(NtStatus.STATUS_PENDING);
        mr.getRemoteToken();
        mdl.setNext(null);
        held.get().complete(null, NtStatus.STATUS_SUCCESS);
        mr.getRemoteToken();
        assertThat(flagged()).containsExactlyInAnyOrder("MR-REG-5", "MR-TOK-3");
        assertThat(ConsumerGuard.violations()).hasSize(2);
    }

    @Test
    void aTokenReadBeforeAnyRegistrationIsCaught() {
        NdkMr mr = mr(stub(NdkMr.class, (n, a) -> null), true);
        mr.getLocalToken();
        assertThat(flagged()).containsExactly("MR-TOK-3");
    }

    @Test
    void twoPostsAtOnceOnOneQueueAndACloseWithACallInFlightAreCaught() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        NdkQp inner = stub(NdkQp.class, (name, args) -> {
            if (name.equals("write")) {
                inside.countDown();
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return NtStatus.STATUS_SUCCESS;
            }
            if (name.equals("read") || name.equals("close")) {
                return NtStatus.STATUS_SUCCESS;
            }
            return null;
        });
        NdkQp qp = qp(inner);
        Thread t = new Thread(() -> qp.write(null, new NdkSge[0], 0, 0, 0));
        t.start();
        assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
        qp.read(null, new NdkSge[0], 0, 0, 0);
        qp.close(c -> { }, null);
        release.countDown();
        t.join(5000);
        assertThat(flagged()).containsExactlyInAnyOrder("WRP-1", "GEN-LIFE-2");
    }

    @Test
    void closingTheAdapterFromACallbackAndUsingAClosedObjectAreCaught() {
        AtomicReference<org.ndktck.spec.CreateCompletion<NdkPd>> held = new AtomicReference<>();
        NdkAdapter inner = stub(NdkAdapter.class, (name, args) -> switch (name) {
            case "queryAdapterInfo" -> new NdkAdapterInfo(NdkVersion.V1_2, 0, 16, 1L << 30, 0, 1, 1, 1, 1 << 20, 0, 1, 1, 16, 16, 64);
            case "createPd" -> {
                @SuppressWarnings("unchecked")
                org.ndktck.spec.CreateCompletion<NdkPd> c = (org.ndktck.spec.CreateCompletion<NdkPd>) args[0];
                held.set(c);
                yield CreateResult.pending();
            }
            default -> null;
        });
        NdkAdapter adapter = ConsumerGuard.guard(inner);
        AtomicReference<NdkPd> pd = new AtomicReference<>();
        adapter.createPd((ctx, st, o) -> {
            pd.set(o);
            adapter.close();
        }, null);
        held.get().complete(null, NtStatus.STATUS_SUCCESS, stub(NdkPd.class, (n, a) -> n.equals("close") ? NtStatus.STATUS_SUCCESS : null));
        pd.get().close(c -> { }, null);
        pd.get().getPrivilegedMemoryRegionToken();
        assertThat(flagged()).containsExactlyInAnyOrder("CL-8", "CL-3");
    }

    @Test
    void deferOnAnOlderAdapterIsCaught() {
        NdkQp inner = stub(NdkQp.class, (n, a) -> NtStatus.STATUS_SUCCESS);
        NdkQp qp = qp(inner);
        qp.write(null, new NdkSge[0], 0, 0, org.ndktck.spec.NdkOpFlags.DEFER);
        assertThat(flagged()).containsExactly("DEF-5");
    }

    /**
     * The whole kit (every property class of org.ndktck.tck.properties, both branches' parts), run against
     * the guarded reference provider with few tries in each completion style, breaks no consumer rule.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pending", "mixed"})
    void theWholeKitIsACorrectConsumer(String completion) {
        KitRun run = KitRun.against(GuardedReferenceProvider.class.getName(), KitRun.Preset.SECTIONS).tries(8).set("completion", completion)
                .set("seed", "7").packages("org.ndktck.tck.properties");
        long opened = ConsumerGuard.adaptersOpened();
        KitRun.Result r = run.run();
        System.out.println(r.describe());
        assertThat(ConsumerGuard.adaptersOpened() - opened).as("adapters opened behind the guard").isGreaterThan(100);
        assertThat(r.properties()).as(r.describe()).hasSizeGreaterThan(40);
        // SEC-1's properties (ConsumerMisuseProperties) break consumer rules on purpose: the rest must not
        assertThat(ConsumerGuard.violations().stream().filter(v -> !"SEC-1".equals(v.propertyRule())).toList())
                .as(r.describe()).isEmpty();
    }
}
