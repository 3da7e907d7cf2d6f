package org.ndktck.faults;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.Providers;
import org.ndktck.spec.RequestCompletion;

/** A small test bench over one provider of this module: an adapter, a PD, a CQ and two connected QPs. */
final class Bench implements AutoCloseable {
    final HostMemory memory;
    final NdkAdapter adapter;
    final NdkPd pd;
    final NdkCq cq;
    final NdkQp a;
    final NdkQp b;
    final NdkQp unconnected;
    private long nextVa = 0x1000_0000L;

    /** One completion as it was called. */
    record Call(Object context, NtStatus status, Thread thread, long nanos) {
    }

    /** A completion that records every call. */
    static class Recorder implements RequestCompletion {
        final List<Call> calls = new CopyOnWriteArrayList<>();
        final CountDownLatch first = new CountDownLatch(1);

        @Override
        public void complete(Object requestContext, NtStatus status) {
            calls.add(new Call(requestContext, status, Thread.currentThread(), System.nanoTime()));
            first.countDown();
        }

        boolean await(long millis) throws InterruptedException {
            return first.await(millis, TimeUnit.MILLISECONDS);
        }
    }

    static NdkProvider provider(String name) {
        return Providers.find(name, Bench.class.getClassLoader()).orElseThrow(() -> new AssertionError("no provider " + name));
    }

    Bench(String provider, String completion) {
        var factory = provider(provider).configure(Map.of("completion", completion));
        memory = new HostMemory(factory.pageSize());
        adapter = factory.openAdapter(memory);
        pd = create(c -> adapter.createPd(c, "pd"));
        cq = create(c -> adapter.createCq(64, c, "cq"));
        a = qp("qpA");
        b = qp("qpB");
        unconnected = qp("qpU");
        if (!NtStatus.STATUS_SUCCESS.equals(adapter.connectLoopback(a, b))) {
            throw new AssertionError("connectLoopback failed");
        }
    }

    private NdkQp qp(Object context) {
        return create(c -> pd.createQp(cq, cq, context, 16, 16, 2, 2, 0, c, "qp"));
    }

    /** Creates through the consumer-side protocol: inline, or the completion awaited for 5 s. */
    static <T extends NdkObject> T create(Function<CreateCompletion<T>, CreateResult<T>> call) {
        List<T> out = new CopyOnWriteArrayList<>();
        List<NtStatus> st = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        CreateResult<T> r = call.apply((x, s, o) -> {
            st.add(s);
            if (o != null) {
                out.add(o);
            }
            done.countDown();
        });
        if (r.status().isPending()) {
            try {
                if (!done.await(5, TimeUnit.SECONDS)) {
                    throw new AssertionError("create did not complete");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            if (!NtStatus.STATUS_SUCCESS.equals(st.get(0))) {
                throw new AssertionError("create completed with " + st.get(0));
            }
            return out.get(0);
        }
        if (!NtStatus.STATUS_SUCCESS.equals(r.status())) {
            throw new AssertionError("create returned " + r.status());
        }
        return r.object();
    }

    /** @return a fresh one-page buffer at a new virtual address */
    Mdl buffer() {
        long pfn = memory.allocate(1);
        long va = nextVa;
        nextVa += 0x10_0000L;
        return Mdl.of(memory.pageSize(), va, memory.pageSize(), new long[]{pfn});
    }

    /** @return a normal MR, created inline or awaited */
    NdkMr newMr() {
        return create(c -> pd.createMr(false, c, "mr"));
    }

    /** @return the final status of a request (inline, or its first completion within 5 s) */
    static NtStatus finalStatus(NtStatus returned, Recorder rec) throws InterruptedException {
        if (!returned.isPending()) {
            return returned;
        }
        if (!rec.await(5000)) {
            throw new AssertionError("no completion after STATUS_PENDING");
        }
        return rec.calls.get(0).status();
    }

    @Override
    public void close() {
        adapter.close();
    }
}
