package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

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
 * A test bench: host memory, one adapter, one PD, one CQ and two connected QPs, with helpers that turn the
 * SPI's PENDING/completion protocol into plain calls (each waits at most 5 s).
 */
final class Fixture implements AutoCloseable {
    final HostMemory memory;
    final NdkAdapter adapter;
    final int pageSize;
    final NdkPd pd;
    final NdkCq cq;
    final NdkQp qpA;
    final NdkQp qpB;

    private Fixture(org.ndktck.spec.NdkProvider provider, Map<String, String> settings) {
        var factory = provider.configure(settings);
        this.pageSize = factory.pageSize();
        this.memory = new HostMemory(pageSize);
        this.adapter = factory.openAdapter(memory);
        this.pd = create(c -> adapter.createPd(c, "pd"));
        this.cq = create(c -> adapter.createCq(1024, c, "cq"));
        this.qpA = newQp("A");
        this.qpB = newQp("B");
        assertThat(adapter.connectLoopback(qpA, qpB)).isEqualTo(NtStatus.STATUS_SUCCESS);
    }

    static Fixture open(String... keyValues) {
        return open(new ReferenceProvider(), keyValues);
    }

    static Fixture open(org.ndktck.spec.NdkProvider provider, String... keyValues) {
        Map<String, String> settings = new HashMap<>();
        for (String kv : keyValues) {
            int eq = kv.indexOf('=');
            settings.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return new Fixture(provider, settings);
    }

    NdkQp newQp(Object context) {
        return create(c -> pd.createQp(cq, cq, context, 64, 64, 4, 4, 128, c, "qp"));
    }

    // ------------------------------------------------------------------ sync helpers

    static NtStatus sync(Function<RequestCompletion, NtStatus> call) {
        CompletableFuture<NtStatus> done = new CompletableFuture<>();
        NtStatus status = call.apply((context, s) -> done.complete(s));
        if (!status.isPending()) {
            return status;
        }
        try {
            return done.get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("completion did not come", e);
        }
    }

    static <T extends NdkObject> T create(Function<CreateCompletion<T>, CreateResult<T>> call) {
        CompletableFuture<T> done = new CompletableFuture<>();
        CompletableFuture<NtStatus> status = new CompletableFuture<>();
        CreateResult<T> r = call.apply((context, s, object) -> {
            status.complete(s);
            done.complete(object);
        });
        if (r.status().isPending()) {
            try {
                assertThat(status.get(5, TimeUnit.SECONDS)).isEqualTo(NtStatus.STATUS_SUCCESS);
                return done.get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("create completion did not come", e);
            }
        }
        assertThat(r.status()).isEqualTo(NtStatus.STATUS_SUCCESS);
        return r.object();
    }

    static NtStatus close(Function<org.ndktck.spec.CloseCompletion, NtStatus> call) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        NtStatus s = call.apply(context -> done.complete(null));
        if (s.isPending()) {
            try {
                done.get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("close completion did not come", e);
            }
        }
        return s;
    }

    // ------------------------------------------------------------------ memory

    /** A fresh MDL over new frames: VA, ByteCount. */
    Mdl buffer(long va, int byteCount) {
        long pages = Mdl.spanPages((int) (va & (pageSize - 1)), Integer.toUnsignedLong(byteCount), pageSize);
        long[] pfns = new long[(int) pages];
        if (pages > 0) {
            long first = memory.allocate(pages);
            for (int i = 0; i < pages; i++) {
                pfns[i] = first + i;
            }
        }
        return Mdl.of(pageSize, va, byteCount, pfns);
    }

    /** Writes bytes at {@code offset} of the region an MDL describes (kit side, no guard record). */
    void poke(Mdl mdl, long offset, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            long pos = mdl.byteOffset() + offset + i;
            memory.poke(mdl.pfns()[(int) (pos / pageSize)], (int) (pos % pageSize), new byte[] {bytes[i]});
        }
    }

    /** Reads bytes at {@code offset} of the region an MDL describes. */
    byte[] peek(Mdl mdl, long offset, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            long pos = mdl.byteOffset() + offset + i;
            out[i] = memory.snapshot(mdl.pfns()[(int) (pos / pageSize)])[(int) (pos % pageSize)];
        }
        return out;
    }

    static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed + i * 7 + (i >> 8));
        }
        return b;
    }

    // ------------------------------------------------------------------ objects

    NdkMr newMr(boolean fastRegister) {
        return create(c -> pd.createMr(fastRegister, c, "mr"));
    }

    /** A normal MR registered over {@code mdl} with {@code flags}; asserts success. */
    NdkMr registered(Mdl mdl, long length, int flags) {
        NdkMr mr = newMr(false);
        assertThat(sync(c -> mr.register(mdl, length, flags, c, "reg"))).isEqualTo(NtStatus.STATUS_SUCCESS);
        return mr;
    }

    /** A LAM over a fresh buffer. */
    NdkLogicalAddressMapping lam(Mdl mdl, long length) {
        NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping(1 << 20);
        assertThat(sync(c -> adapter.buildLam(mdl, length, c, "lam", lam))).isEqualTo(NtStatus.STATUS_SUCCESS);
        return lam;
    }

    /** A fast-register MR initialized with {@code pages} and remote access. */
    NdkMr initialized(int pages, boolean remoteAccess) {
        NdkMr mr = newMr(true);
        assertThat(sync(c -> mr.initializeFastRegister(pages, remoteAccess, c, "init")))
                .isEqualTo(NtStatus.STATUS_SUCCESS);
        return mr;
    }

    // ------------------------------------------------------------------ CQ

    /** Waits until {@code count} entries arrived (or 5 s), then collects what else arrives within 10 ms. */
    List<NdkResultEx> drain(int count) {
        return drain(cq, count);
    }

    static List<NdkResultEx> drain(NdkCq cq, int count) {
        List<NdkResultEx> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        NdkResultEx[] buf = new NdkResultEx[16];
        while (out.size() < count && System.nanoTime() < deadline) {
            int n = cq.getCqResultsEx(buf);
            for (int i = 0; i < n; i++) {
                out.add(buf[i]);
            }
            if (n == 0) {
                Thread.onSpinWait();
                sleep(1);
            }
        }
        sleep(10);
        int n;
        while ((n = cq.getCqResultsEx(buf)) > 0) {
            for (int i = 0; i < n; i++) {
                out.add(buf[i]);
            }
        }
        return out;
    }

    /** Posts, expects SUCCESS, and returns the single completion status. */
    NtStatus completionOf(Function<Object, NtStatus> post) {
        Object context = new Object();
        assertThat(post.apply(context)).isEqualTo(NtStatus.STATUS_SUCCESS);
        List<NdkResultEx> entries = drain(1);
        assertThat(entries).hasSize(1);
        assertThat(entries.get(0).requestContext()).isSameAs(context);
        return entries.get(0).status();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static NdkSge[] sge(long address, int length, int token) {
        return new NdkSge[] {new NdkSge(address, length, token)};
    }

    @Override
    public void close() {
        adapter.close();
    }

    /**
     * The peer (qpA) writes {@code data} into a remote region: the bytes come from a fresh 64-byte-aligned
     * source buffer at {@code sourceVa}, registered with ALLOW_LOCAL_READ.
     *
     * @param sourceVa where the source buffer lives (a VA no other buffer of the test uses)
     * @param data     the bytes to write (at most one page)
     * @param remoteVa the target address in the remote region
     * @param remoteToken the region's remote token
     * @return the NdkWrite's completion status
     */
    NtStatus peerWrite(long sourceVa, byte[] data, long remoteVa, int remoteToken) {
        Mdl source = buffer(sourceVa, data.length);
        NdkMr s = registered(source, data.length, 0x1);
        poke(source, 0, data);
        return completionOf(c -> qpA.write(c, new NdkSge[]{new NdkSge(sourceVa, data.length, s.getLocalToken())}, remoteVa, remoteToken, 0));
    }
}
