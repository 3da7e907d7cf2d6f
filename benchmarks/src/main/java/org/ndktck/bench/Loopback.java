package org.ndktck.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.Providers;
import org.ndktck.spec.RequestCompletion;

/**
 * The setting every benchmark shares: one adapter of a provider found by name through the SPI
 * ({@link Providers#find}), its {@link HostMemory}, one PD, one CQ, and two QPs of that PD connected to each
 * other over loopback ({@code local} posts, {@code remote} is the peer whose memory RDMA reads reach).
 *
 * <p>The benchmarks measure the inline path: the provider is configured with {@code completion=inline}, so
 * every call finishes before it returns and no completion callback runs. Any status other than
 * STATUS_SUCCESS during setup or during a measured operation throws {@link IllegalStateException} naming the
 * call and the status, so a benchmark can never time a failing call by mistake.
 *
 * <p>Units: page counts are ULONGs carried in Java ints, lengths and addresses are unsigned 64-bit values in
 * longs, as in the SPI.
 */
public final class Loopback implements AutoCloseable {
    /** Bytes in one MDL at most: a ULONG ByteCount, so a chain is used beyond this (1 GiB per MDL here). */
    static final long MAX_MDL_BYTES = 1L << 30;
    /** The virtual address where {@link #chain} places the first byte of its regions. */
    static final long CHAIN_VA = 0x0000_0100_0000_0000L;

    /** A completion that must never run: the adapter is inline. */
    static final RequestCompletion NEVER = (context, status) -> {
        throw new IllegalStateException("completion called on an inline adapter: " + status);
    };

    final NdkAdapter adapter;
    final HostMemory memory;
    final int pageSize;
    final NdkPd pd;
    final NdkCq cq;
    final NdkQp local;
    final NdkQp remote;

    /**
     * Opens the adapter and connects the two QPs.
     *
     * @param providerName a provider short name, e.g. {@code reference}
     * @param extra        settings added to {@code completion=inline} (e.g. {@code maxObjects})
     * @throws IllegalStateException when the provider is not found or a setup call does not succeed
     */
    Loopback(String providerName, Map<String, String> extra) {
        NdkProvider provider = Providers.find(providerName, Loopback.class.getClassLoader())
                .orElseThrow(() -> new IllegalStateException("provider not found: " + providerName));
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("completion", "inline");
        settings.putAll(extra);
        NdkAdapterFactory factory = provider.configure(settings);
        this.pageSize = factory.pageSize();
        this.memory = new HostMemory(pageSize);
        this.adapter = factory.openAdapter(memory);
        this.pd = created("NdkCreatePd", adapter.createPd((c, s, o) -> { }, null));
        this.cq = created("NdkCreateCq", adapter.createCq(1 << 16, (c, s, o) -> { }, null));
        this.local = createQp();
        this.remote = createQp();
        ok("connectLoopback", adapter.connectLoopback(local, remote));
    }

    private NdkQp createQp() {
        return created("NdkCreateQp", pd.createQp(cq, cq, "qp", 1024, 1024, 4, 4, 0, (c, s, o) -> { }, null));
    }

    /** @return the object of a create that must have succeeded inline */
    static <T extends NdkObject> T created(String call, CreateResult<T> result) {
        ok(call, result.status());
        return Objects.requireNonNull(result.object(), call + " returned SUCCESS without an object");
    }

    /** Throws unless {@code status} is STATUS_SUCCESS. */
    static void ok(String call, NtStatus status) {
        if (status.code() != NtStatus.STATUS_SUCCESS.code()) {
            throw new IllegalStateException(call + " returned " + status + " (expected STATUS_SUCCESS, inline)");
        }
    }

    /**
     * Builds a locked, virtually contiguous MDL chain over {@code pages} fresh page frames, starting at
     * {@link #CHAIN_VA} + {@code vaOffset} with ByteOffset 0, each MDL at most {@code pagesPerMdl} pages.
     *
     * @param pages       pages in all (the chain is {@code pages × PAGE_SIZE} bytes)
     * @param pagesPerMdl pages per MDL (the last MDL may have fewer); at most 1 GiB of bytes
     * @param vaOffset    added to {@link #CHAIN_VA} (a multiple of PAGE_SIZE)
     * @return the first MDL
     */
    Mdl chain(long pages, int pagesPerMdl, long vaOffset) {
        if ((long) pagesPerMdl * pageSize > MAX_MDL_BYTES) {
            throw new IllegalArgumentException("an MDL of " + pagesPerMdl + " pages exceeds 1 GiB");
        }
        long firstPfn = memory.allocate(pages);
        long va = CHAIN_VA + vaOffset;
        Mdl first = null;
        Mdl last = null;
        for (long done = 0; done < pages; ) {
            int n = (int) Math.min(pagesPerMdl, pages - done);
            long[] pfns = new long[n];
            for (int i = 0; i < n; i++) {
                pfns[i] = firstPfn + done + i;
            }
            Mdl m = Mdl.of(pageSize, va + done * pageSize, n * pageSize, pfns);
            if (first == null) {
                first = m;
            } else {
                last.setNext(m);
            }
            last = m;
            done += n;
        }
        return first;
    }

    /**
     * NdkBuildLam over a fresh chain of {@code pages} pages.
     *
     * @param pages the pages to map
     * @return the mapping's AdapterPageArray (a copy of its first AdapterPageCount entries)
     */
    long[] lamPages(int pages) {
        Mdl mdl = chain(pages, (int) (MAX_MDL_BYTES / pageSize), 0);
        NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) NdkLogicalAddressMapping.bytesFor(pages));
        ok("NdkBuildLam", adapter.buildLam(mdl, (long) pages * pageSize, null, null, lam));
        if (lam.adapterPageCount() != pages) {
            throw new IllegalStateException("NdkBuildLam mapped " + lam.adapterPageCount() + " pages, not " + pages);
        }
        return Arrays.copyOf(lam.adapterPageArray(), pages);
    }

    /** @return a new MR of the PD, fast-register or not */
    NdkMr createMr(boolean fastRegister) {
        return created("NdkCreateMr", pd.createMr(fastRegister, (c, s, o) -> { }, null));
    }

    /**
     * Removes every CQ entry and checks that each has STATUS_SUCCESS.
     *
     * @return how many entries there were
     */
    int drainCq() {
        NdkResult[] results = new NdkResult[64];
        int total = 0;
        int n;
        while ((n = cq.getCqResults(results)) > 0) {
            for (int i = 0; i < n; i++) {
                ok("CQ entry of " + results[i].requestContext(), results[i].status());
            }
            total += n;
        }
        return total;
    }

    @Override
    public void close() {
        adapter.close();
    }
}
