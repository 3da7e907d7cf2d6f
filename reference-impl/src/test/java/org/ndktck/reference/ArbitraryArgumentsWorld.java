package org.ndktck.reference;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The world of one try of {@link ArbitraryArgumentsProperties}: a reference adapter with its PD, CQ, two connected
 * QPs and an unconnected one, a LAM over {@value #LAM_PAGES} pages, the MRs the actions use, what the test knows to
 * be registered ({@link Known}: base and length in bytes, unsigned, with the remote access bits) and every posted
 * work request ({@link Posted}), so that {@link World#settle} can check that each accepted request completed exactly
 * once and that none the rule catalog forbids succeeded. Pages are {@value #PS} bytes.
 */
final class ArbitraryArgumentsWorld {
    private ArbitraryArgumentsWorld() {
    }

    static final int PS = 4096;
    static final long LAM_PAGES = 8;
    static final long LOCAL_VA = 0x5000_0000L;

    // ------------------------------------------------------------------ the world of one try

    /** A registration the test knows to be live: base, length, access bits (as the test derives them). */
    record Known(long base, long length, boolean remoteRead, boolean remoteWrite) {
        boolean contains(long address, long n) {
            long offset = address - base;
            return Long.compareUnsigned(offset, length) < 0 && Long.compareUnsigned(n, length - offset) <= 0;
        }
    }

    /** A posted work request: whether the catalog forbids it and whether it must have a CQ entry. */
    record Posted(String what, boolean forbidden, boolean silent) {
    }

    static final class World {
        final HostMemory memory = new HostMemory(PS);
        final NdkAdapter adapter;
        final ReferenceSettings settings;
        final NdkPd pd;
        final NdkCq cq;
        final NdkQp a;
        final NdkQp b;
        final NdkQp unconnected;
        final NdkLogicalAddressMapping lam;
        final int localToken;
        final List<NdkMr> normal = new ArrayList<>();
        final List<NdkMr> fast = new ArrayList<>();
        final Map<NdkMr, Integer> initialized = new HashMap<>();
        final Map<NdkMr, Boolean> remoteAccess = new HashMap<>();
        final Map<NdkMr, Known> fastRegions = new HashMap<>();
        final Map<Integer, Known> live = new HashMap<>();
        final Map<Object, Posted> posted = new LinkedHashMap<>();
        final List<CompletableFuture<NtStatus>> lateCalls = new ArrayList<>();
        final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
        long nextVa = 0x1_0000_0000L;

        World(Map<String, String> s) {
            var factory = new ReferenceProvider().configure(s);
            settings = ((ReferenceFactory) factory).settings();
            adapter = factory.openAdapter(memory);
            pd = create(c -> adapter.createPd(c, null));
            cq = create(c -> adapter.createCq(1 << 16, c, null));
            a = create(c -> pd.createQp(cq, cq, "A", 64, 64, 4, 4, 64, c, null));
            b = create(c -> pd.createQp(cq, cq, "B", 64, 64, 4, 4, 64, c, null));
            unconnected = create(c -> pd.createQp(cq, cq, "C", 64, 64, 4, 4, 64, c, null));
            adapter.connectLoopback(a, b);
            lam = new NdkLogicalAddressMapping(4096);
            Mdl lamMdl = buffer(0x6600_0000L, (int) (LAM_PAGES * PS));
            check("build LAM", call(c -> adapter.buildLam(lamMdl, LAM_PAGES * PS, c, null, lam)), true);
            NdkMr local = create(c -> pd.createMr(false, c, null));
            Mdl localMdl = buffer(LOCAL_VA, 0x4000);
            check("local register", call(c -> local.register(localMdl, 0x4000, 0xF, c, null)), true);
            localToken = local.getLocalToken();
            live.put(localToken, new Known(LOCAL_VA, 0x4000, true, true));
            for (int i = 0; i < 2; i++) {
                normal.add(create(c -> pd.createMr(false, c, null)));
                NdkMr f = create(c -> pd.createMr(true, c, null));
                fast.add(f);
            }
        }

        Mdl buffer(long va, int bytes) {
            int pages = (int) Mdl.spanPages((int) (va & (PS - 1)), Integer.toUnsignedLong(bytes), PS);
            long[] pfns = new long[pages];
            if (pages > 0) {
                long first = memory.allocate(pages);
                for (int i = 0; i < pages; i++) {
                    pfns[i] = first + i;
                }
            }
            return Mdl.of(PS, va, bytes, pfns);
        }

        void check(String what, NtStatus status, boolean mustSucceed) {
            if (mustSucceed && !status.equals(NtStatus.STATUS_SUCCESS)) {
                violations.add(what + " failed: " + status);
            }
        }

        void forbidSuccess(String what, NtStatus status) {
            if (status.equals(NtStatus.STATUS_SUCCESS)) {
                violations.add(what + " succeeded though the catalog forbids it");
            }
        }

        /** Calls; waits for a completion after PENDING; watches that none comes after an inline return. */
        NtStatus call(Function<RequestCompletion, NtStatus> op) {
            CompletableFuture<NtStatus> done = new CompletableFuture<>();
            int[] calls = {0};
            NtStatus r = op.apply((context, s) -> {
                synchronized (calls) {
                    calls[0]++;
                }
                if (!done.complete(s)) {
                    violations.add("completion called twice");
                }
            });
            if (!r.isPending()) {
                lateCalls.add(done);
                return r;
            }
            try {
                return done.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                violations.add("no completion after PENDING");
                return NtStatus.STATUS_INTERNAL_ERROR;
            }
        }

        <T extends NdkObject> T create(Function<CreateCompletion<T>, CreateResult<T>> op) {
            CompletableFuture<T> done = new CompletableFuture<>();
            CreateResult<T> r = op.apply((context, s, o) -> done.complete(o));
            if (!r.status().isPending()) {
                assertThat(r.status()).isEqualTo(NtStatus.STATUS_SUCCESS);
                return r.object();
            }
            try {
                return done.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("no create completion", e);
            }
        }

        void post(String what, Object context, NtStatus inline, boolean forbidden, int flags) {
            outcomes.add(what.substring(0, what.indexOf(' ')) + (forbidden ? " forbidden" : " allowed")
                    + (inline.equals(NtStatus.STATUS_SUCCESS) ? " posted" : " rejected inline"));
            if (inline.equals(NtStatus.STATUS_SUCCESS)) {
                posted.put(context, new Posted(what, forbidden, (flags & NdkOpFlags.SILENT_SUCCESS) != 0));
            } else if (inline.isPending()) {
                violations.add(what + " returned STATUS_PENDING");
            }
        }

        /** Releases deferred requests, waits for every entry that must come, and checks them. */
        void settle() {
            a.flush();
            b.flush();
            Map<Object, Integer> seen = new HashMap<>();
            Map<Object, NtStatus> status = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            NdkResultEx[] buf = new NdkResultEx[64];
            while (System.nanoTime() < deadline) {
                int n = cq.getCqResultsEx(buf);
                for (int i = 0; i < n; i++) {
                    seen.merge(buf[i].requestContext(), 1, Integer::sum);
                    status.put(buf[i].requestContext(), buf[i].status());
                }
                boolean all = posted.entrySet().stream().allMatch(e ->
                        seen.containsKey(e.getKey()) || (e.getValue().silent() && !e.getValue().forbidden()));
                if (all && n == 0) {
                    break;
                }
                if (n == 0) {
                    Fixture.sleep(1);
                }
            }
            posted.forEach((context, p) -> {
                Integer count = seen.get(context);
                if (count == null) {
                    if (!p.silent() || p.forbidden()) {
                        violations.add(p.what() + ": no completion" + (p.forbidden() ? " (forbidden: success?)" : ""));
                    }
                } else if (count != 1) {
                    violations.add(p.what() + ": " + count + " completions");
                } else if (p.forbidden() && status.get(context).equals(NtStatus.STATUS_SUCCESS)) {
                    violations.add(p.what() + " completed with success though the catalog forbids it");
                }
            });
            for (CompletableFuture<NtStatus> late : lateCalls) {
                if (late.isDone()) {
                    violations.add("completion called after an inline return");
                }
            }
        }
    }
}
