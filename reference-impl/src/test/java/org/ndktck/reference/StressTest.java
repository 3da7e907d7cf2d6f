package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Four threads share one adapter and one PD for about three seconds, each on its own pair of QPs and its own
 * CQ (WRP-1, CQ-4), registering, fast-registering, invalidating, reading and writing (also into the other
 * threads' registrations), deregistering and closing. Afterwards: every accepted work request completed exactly
 * once, every PENDING call completed exactly once, every object closed, and no two live registrations ever
 * shared a token.
 */
class StressTest {
    private static final int THREADS = 4;
    private static final long MILLIS = 3000;
    private static final int PAGE = 4096;

    private final long seed = new Random().nextLong();
    private NdkAdapter adapter;
    private HostMemory memory;
    private NdkPd pd;
    /** token → owner, for every registration believed live (removed before it is retired). */
    private final Map<Integer, Object> liveTokens = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    /** One counter per call that returned PENDING: its completion calls (must end at 1, GEN-CB-1). */
    private final List<AtomicInteger> pendingCalls = new CopyOnWriteArrayList<>();
    /** One counter per call that returned anything else (must stay 0, GEN-CB-2). */
    private final List<AtomicInteger> inlineCalls = new CopyOnWriteArrayList<>();

    @Test
    @Timeout(60)
    void fourThreadsForThreeSeconds() throws Exception {
        memory = new HostMemory(PAGE);
        adapter = new ReferenceProvider().configure(Map.of("completion", "mixed", "seed", Long.toString(seed)))
                .openAdapter(memory);
        pd = create(c -> adapter.createPd(c, null));
        liveTokens.put(pd.getPrivilegedMemoryRegionToken(), "privileged");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<Worker>> futures = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS);
        for (int i = 0; i < THREADS; i++) {
            Worker w = new Worker(i, new Random(seed + i));
            futures.add(pool.submit(() -> {
                w.run(deadline);
                return w;
            }));
        }
        List<Worker> workers = new ArrayList<>();
        for (Future<Worker> f : futures) {
            workers.add(f.get(30, TimeUnit.SECONDS));
        }
        pool.shutdown();
        for (Worker w : workers) {
            w.finish();
        }
        CountDownLatch pdClosed = new CountDownLatch(1);
        NtStatus s = pd.close(c -> pdClosed.countDown(), null);
        if (s.isPending()) {
            assertThat(pdClosed.await(5, TimeUnit.SECONDS)).as("PD close completion").isTrue();
        }
        adapter.close();
        Thread.sleep(50);
        assertThat(pendingCalls).allSatisfy(c -> assertThat(c.get()).as("completion calls").isEqualTo(1));
        assertThat(inlineCalls).allSatisfy(c -> assertThat(c.get()).as("calls after inline return").isZero());
        assertThat(violations).as("seed %d", seed).isEmpty();
        long posted = workers.stream().mapToLong(w -> w.posted).sum();
        System.out.printf("stress: seed %d, %d work requests, %d pending calls, %d inline calls%n", seed, posted, pendingCalls.size(), inlineCalls.size());
        assertThat(posted).as("work requests posted").isGreaterThan(100);
        assertThat(workers).allSatisfy(w -> assertThat(w.completedOnce).as("each request completed once")
                .hasSize((int) w.posted));
        assertThat(((ReferenceAdapter) adapter).callbackFailures()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    private RequestCompletion counting(CountDownLatch latch, NtStatus[] status, AtomicInteger calls) {
        return (context, st) -> {
            status[0] = st;
            calls.incrementAndGet();
            latch.countDown();
        };
    }

    /** Calls, and waits for the completion if the call pended (the consumer waits before using the result). */
    private NtStatus call(Function<RequestCompletion, NtStatus> op) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        NtStatus[] status = new NtStatus[1];
        AtomicInteger calls = new AtomicInteger();
        NtStatus r = op.apply(counting(latch, status, calls));
        if (!r.isPending()) {
            inlineCalls.add(calls);
            return r;
        }
        pendingCalls.add(calls);
        if (!latch.await(5, TimeUnit.SECONDS)) {
            violations.add("no completion within 5 s");
            return NtStatus.STATUS_INTERNAL_ERROR;
        }
        return status[0];
    }

    private <T extends NdkObject> T create(Function<CreateCompletion<T>, CreateResult<T>> op) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        List<T> out = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        CreateResult<T> r = op.apply((context, status, object) -> {
            calls.incrementAndGet();
            if (status.equals(NtStatus.STATUS_SUCCESS)) {
                out.add(object);
            }
            latch.countDown();
        });
        if (r.status().isPending()) {
            pendingCalls.add(calls);
            if (!latch.await(5, TimeUnit.SECONDS) || out.isEmpty()) {
                violations.add("create failed or did not complete");
                return null;
            }
            return out.get(0);
        }
        inlineCalls.add(calls);
        if (!r.status().equals(NtStatus.STATUS_SUCCESS) || r.object() == null) {
            violations.add("create returned " + r);
        }
        return r.object();
    }

    private void close(Function<CloseCompletion, NtStatus> op) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        NtStatus r = op.apply(c -> {
            calls.incrementAndGet();
            latch.countDown();
        });
        if (r.isPending()) {
            pendingCalls.add(calls);
            if (!latch.await(5, TimeUnit.SECONDS)) {
                violations.add("close did not complete");
            }
        } else {
            inlineCalls.add(calls);
        }
        if (!r.isPending() && !r.equals(NtStatus.STATUS_SUCCESS)) {
            violations.add("close returned " + r);
        }
    }

    private void claim(int token, Object owner) {
        Object previous = liveTokens.putIfAbsent(token, owner);
        if (previous != null && previous != owner) {
            violations.add(String.format("token 0x%08X given to %s while live for %s", token, owner, previous));
        }
    }

    private void release(int token, Object owner) {
        liveTokens.remove(token, owner);
    }

    /** One thread's objects and its view of them. */
    private final class Worker {
        final int id;
        final Random random;
        NdkCq cq;
        NdkQp a;
        NdkQp b;
        NdkMr local;
        int localToken;
        long localVa;
        NdkLogicalAddressMapping lam;
        final List<NdkMr> registered = new ArrayList<>();
        final List<NdkMr> created = new ArrayList<>();
        final List<NdkMr> fastReady = new ArrayList<>();
        final List<NdkMr> fastRegistered = new ArrayList<>();
        final Map<NdkMr, Long> bases = new HashMap<>();
        long posted;
        final Map<Object, Integer> completedOnce = new HashMap<>();

        Worker(int id, Random random) {
            this.id = id;
            this.random = random;
        }

        Mdl buffer(long va, int bytes) {
            int pages = (int) Mdl.spanPages((int) (va & (PAGE - 1)), bytes, PAGE);
            long first = memory.allocate(pages);
            long[] pfns = new long[pages];
            for (int i = 0; i < pages; i++) {
                pfns[i] = first + i;
            }
            return Mdl.of(PAGE, va, bytes, pfns);
        }

        void run(long deadline) throws Exception {
            cq = create(c -> adapter.createCq(4096, c, null));
            a = create(c -> pd.createQp(cq, cq, "A" + id, 1024, 1024, 4, 4, 64, c, null));
            b = create(c -> pd.createQp(cq, cq, "B" + id, 1024, 1024, 4, 4, 64, c, null));
            if (!adapter.connectLoopback(a, b).equals(NtStatus.STATUS_SUCCESS)) {
                violations.add("connect failed");
            }
            localVa = 0x1_0000_0000L * (id + 1);
            local = create(c -> pd.createMr(false, c, null));
            Mdl localMdl = buffer(localVa, 4 * PAGE);
            if (!call(c -> local.register(localMdl, 4 * PAGE, 0xF, c, null)).equals(NtStatus.STATUS_SUCCESS)) {
                violations.add("local register failed");
            }
            localToken = local.getLocalToken();
            claim(localToken, local);
            lam = new NdkLogicalAddressMapping(1 << 12);
            Mdl lamMdl = buffer(0x2000_0000L * (id + 1), 4 * PAGE);
            if (!call(c -> adapter.buildLam(lamMdl, 4 * PAGE, c, null, lam)).equals(NtStatus.STATUS_SUCCESS)) {
                violations.add("build LAM failed");
            }
            long next = 0x10_0000_0000L * (id + 1);
            while (System.nanoTime() < deadline) {
                switch (random.nextInt(9)) {
                    case 0 -> {
                        NdkMr mr = create(c -> pd.createMr(random.nextBoolean(), c, null));
                        if (mr != null) {
                            created.add(mr);
                        }
                    }
                    case 1 -> register(next += 0x10_0000);
                    case 2 -> deregister();
                    case 3 -> closeOne();
                    case 4 -> fastRegister(next += 0x10_0000);
                    case 5 -> invalidate();
                    case 6, 7 -> rdma();
                    default -> drain();
                }
            }
            drain();
        }

        NdkMr pick(List<NdkMr> list) {
            return list.isEmpty() ? null : list.get(random.nextInt(list.size()));
        }

        void register(long va) throws InterruptedException {
            NdkMr mr = created.stream().filter(m -> !fastReady.contains(m)).findFirst().orElse(null);
            if (mr == null) {
                return;
            }
            int bytes = 1 + random.nextInt(3 * PAGE);
            Mdl mdl = buffer(va + random.nextInt(PAGE), bytes);
            NtStatus s = call(c -> mr.register(mdl, bytes, 0x7, c, null));
            if (s.equals(NtStatus.STATUS_SUCCESS)) {
                created.remove(mr);
                registered.add(mr);
                bases.put(mr, mdl.virtualAddress());
                claim(mr.getRemoteToken(), mr);
            } else {
                // a fast-register MR: initialize it instead
                NtStatus init = call(c -> mr.initializeFastRegister(4, true, c, null));
                if (init.equals(NtStatus.STATUS_SUCCESS)) {
                    created.remove(mr);
                    fastReady.add(mr);
                }
            }
        }

        void deregister() throws InterruptedException {
            NdkMr mr = pick(registered);
            if (mr == null) {
                return;
            }
            release(mr.getRemoteToken(), mr);
            registered.remove(mr);
            if (!call(c -> mr.deregister(c, null)).equals(NtStatus.STATUS_SUCCESS)) {
                violations.add("deregister failed");
            }
            created.add(mr);
        }

        void closeOne() throws InterruptedException {
            NdkMr mr = pick(registered.isEmpty() ? created : registered);
            if (mr == null) {
                return;
            }
            release(mr.getRemoteToken(), mr);
            registered.remove(mr);
            created.remove(mr);
            StressTest.this.close(c -> mr.close(c, null));
        }

        void fastRegister(long bva) {
            NdkMr mr = pick(fastReady);
            if (mr == null) {
                return;
            }
            int pages = 1 + random.nextInt(4);
            int fbo = random.nextInt(PAGE);
            long length = 1 + random.nextInt(pages * PAGE - fbo);
            Object context = new Object();
            NtStatus s = a.fastRegister(context, mr, pages, lam.adapterPageArray(), fbo, length, bva + fbo, 0x38);
            if (!s.equals(NtStatus.STATUS_SUCCESS)) {
                violations.add("valid fast register failed: " + s);
                return;
            }
            posted++;
            fastReady.remove(mr);
            fastRegistered.add(mr);
            bases.put(mr, bva + fbo);
            claim(mr.getRemoteToken(), mr);
        }

        void invalidate() {
            NdkMr mr = pick(fastRegistered);
            if (mr == null) {
                return;
            }
            release(mr.getRemoteToken(), mr);
            NtStatus s = a.invalidate(new Object(), mr, 0);
            if (!s.equals(NtStatus.STATUS_SUCCESS)) {
                violations.add("invalidate failed: " + s);
                return;
            }
            posted++;
            fastRegistered.remove(mr);
            fastReady.add(mr);
        }

        void rdma() {
            Object[] tokens = liveTokens.keySet().toArray();
            if (tokens.length == 0) {
                return;
            }
            int token = (Integer) tokens[random.nextInt(tokens.length)];
            long address = 0x10_0000_0000L + random.nextInt(1 << 20);
            for (Map.Entry<NdkMr, Long> e : bases.entrySet()) {
                if (random.nextInt(3) == 0) {
                    address = e.getValue() + random.nextInt(64);
                    break;
                }
            }
            NdkSge[] sgl = {new NdkSge(localVa + random.nextInt(PAGE), 1 + random.nextInt(256), localToken)};
            Object context = new Object();
            NtStatus s = random.nextBoolean() ? a.read(context, sgl, address, token, 0)
                    : b.write(context, sgl, address, token, 0);
            if (s.equals(NtStatus.STATUS_SUCCESS)) {
                posted++;
            } else {
                violations.add("read/write rejected inline: " + s);
            }
        }

        void drain() {
            NdkResultEx[] results = new NdkResultEx[64];
            int n;
            while ((n = cq.getCqResultsEx(results)) > 0) {
                for (int i = 0; i < n; i++) {
                    completedOnce.merge(results[i].requestContext(), 1, Integer::sum);
                }
            }
        }

        void finish() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (completedOnce.size() < posted && System.nanoTime() < deadline) {
                drain();
                Thread.sleep(1);
            }
            Thread.sleep(20);
            drain();
            completedOnce.forEach((context, count) -> {
                if (count != 1) {
                    violations.add("request completed " + count + " times");
                }
            });
            List<NdkMr> all = new ArrayList<>(registered);
            all.addAll(created);
            all.addAll(fastReady);
            all.addAll(fastRegistered);
            all.add(local);
            for (NdkMr mr : all) {
                StressTest.this.close(c -> mr.close(c, null));
            }
            adapter.releaseLam(lam);
            StressTest.this.close(c -> a.close(c, null));
            StressTest.this.close(c -> b.close(c, null));
            drain();
            StressTest.this.close(c -> cq.close(c, null));
        }
    }
}
