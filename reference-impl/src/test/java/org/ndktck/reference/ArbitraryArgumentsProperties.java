package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Assertions;
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
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * Arbitrary arguments for every call of the SPI: every numeric argument from the whole unsigned range (with
 * jqwik's edge cases, and values near the valid ones), nulls where the SPI allows them. The reference never
 * throws, never hangs, never calls a completion after an inline return, completes every accepted work request
 * exactly once, and never lets through a request that the rule catalog forbids: such a request fails inline or
 * completes with an error status.
 */
class ArbitraryArgumentsProperties {
    private static final int PS = 4096;
    private static final long LAM_PAGES = 8;
    private static final long LOCAL_VA = 0x5000_0000L;

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

    // ------------------------------------------------------------------ actions

    interface Action {
        void run(World w);
    }

    /** NdkRegisterMr of a 1..3-MDL chain at an arbitrary VA, arbitrary Length and flags. */
    record Register(int mr, long rawVa, int[] byteCounts, boolean[] rawContiguous, long rawLength, int rawFlags,
                    int mutate) implements Action {
        @Override
        public String toString() {
            return String.format("Register[mr=%d, VA=0x%X, byteCounts=%s, contiguous=%s, Length=0x%X, flags=0x%X, "
                    + "mutate=0x%X]", mr, rawVa, java.util.Arrays.toString(byteCounts),
                    java.util.Arrays.toString(rawContiguous), rawLength, rawFlags, mutate);
        }

        public void run(World w) {
            NdkMr m = w.normal.get(mr % w.normal.size());
            // a valid request first; each bit of mutate replaces one part by its arbitrary value
            long va = (mutate & 1) != 0 ? rawVa : rawVa & 0x0000_7FFF_FFFF_FFFFL;
            boolean[] contiguous = new boolean[byteCounts.length];
            for (int i = 0; i < contiguous.length; i++) {
                contiguous[i] = (mutate & 2) == 0 || rawContiguous[i];
            }
            long chainBytes = 0;
            for (int c : byteCounts) {
                chainBytes += Integer.toUnsignedLong(c);
            }
            long length = (mutate & 4) != 0 || chainBytes == 0 ? rawLength
                    : 1 + Long.remainderUnsigned(rawLength, chainBytes);
            int flags = (mutate & 8) != 0 ? rawFlags : (rawFlags & 0xB) | ((rawFlags & 0x4) != 0 ? 0x5 : 0);
            Mdl first = null;
            Mdl last = null;
            long expected = va;
            long total = 0;
            boolean breaks = false;
            long covered = 0;
            for (int i = 0; i < byteCounts.length; i++) {
                long mdlVa = contiguous[i] || i == 0 ? expected : expected + 0x10_0000;
                if (i > 0 && Long.compareUnsigned(covered, length) < 0 && mdlVa != expected) {
                    breaks = true;
                }
                Mdl mdl = w.buffer(mdlVa, byteCounts[i]);
                if (first == null) {
                    first = mdl;
                } else {
                    last.setNext(mdl);
                }
                last = mdl;
                expected = mdlVa + Integer.toUnsignedLong(byteCounts[i]);
                covered += Integer.toUnsignedLong(byteCounts[i]);
                total += Integer.toUnsignedLong(byteCounts[i]);
            }
            boolean forbidden = length == 0 || Unsigned.lastByteWraps(va, length)
                    || Long.compareUnsigned(length, total) > 0 || breaks
                    || (flags & ~0xF) != 0 || ((flags & 0x4) != 0 && (flags & 0x1) == 0)
                    || Long.compareUnsigned(length, w.settings.maxRegistrationSize()) > 0;
            Mdl chain = first;
            NtStatus s = w.call(c -> m.register(chain, length, flags, c, null));
            w.outcomes.add("register " + (forbidden ? "forbidden" : "allowed") + (s.equals(NtStatus.STATUS_SUCCESS)
                    ? " succeeded" : " failed"));
            if (forbidden) {
                w.forbidSuccess(String.format("register VA 0x%X Length 0x%X flags 0x%X", va, length, flags), s);
            }
            if (s.equals(NtStatus.STATUS_SUCCESS)) {
                w.live.put(m.getRemoteToken(), new Known(va, length, (flags & 0x2) != 0, (flags & 0x5) == 0x5));
            }
        }
    }

    record Deregister(int mr) implements Action {
        public void run(World w) {
            NdkMr m = w.normal.get(mr % w.normal.size());
            w.live.remove(m.getRemoteToken());
            NtStatus s = w.call(c -> m.deregister(c, null));
            if (!s.equals(NtStatus.STATUS_SUCCESS) && !s.isError()) {
                w.violations.add("deregister gave " + s);
            }
        }
    }

    record Initialize(int mr, int rawCount, boolean remote, boolean arbitrary) implements Action {
        public void run(World w) {
            NdkMr m = w.fast.get(mr % w.fast.size());
            int count = arbitrary ? rawCount : 1 + Integer.remainderUnsigned(rawCount, 16);
            boolean forbidden = count == 0
                    || Integer.compareUnsigned(count, w.settings.frmrPageCount()) > 0 || w.fastRegions.containsKey(m);
            NtStatus s = w.call(c -> m.initializeFastRegister(count, remote, c, null));
            if (forbidden) {
                w.forbidSuccess("initialize " + Integer.toUnsignedString(count), s);
            }
            if (s.equals(NtStatus.STATUS_SUCCESS)) {
                w.initialized.put(m, count);
                w.remoteAccess.put(m, remote);
            }
        }
    }

    /** NdkFastRegister with arbitrary page array, count, FBO, Length, BaseVirtualAddress and flags. */
    record FastRegister(int mr, int rawCount, long[] pages, int rawFbo, long rawLength, long rawBva, int flags,
                        int mutate, boolean onUnconnected) implements Action {
        @Override
        public String toString() {
            return String.format("FastRegister[mr=%d, count=%s, pages=%s, FBO=0x%X, Length=0x%X, BVA=0x%X, flags=0x%X, "
                    + "mutate=0x%X, unconnected=%s]", mr, Integer.toUnsignedString(rawCount),
                    java.util.Arrays.toString(pages), rawFbo, rawLength, rawBva, flags, mutate, onUnconnected);
        }

        public void run(World w) {
            NdkMr m = w.fast.get(mr % w.fast.size());
            Integer init = w.initialized.get(m);
            long[] lamPages = w.lam.adapterPageArray();
            // a valid request first; each bit of mutate replaces one part by its arbitrary value
            int validMax = (int) Math.min(init == null ? 1 : Integer.toUnsignedLong(init), LAM_PAGES);
            int count = (mutate & 1) != 0 ? rawCount : 1 + Integer.remainderUnsigned(rawCount, validMax);
            long[] array;
            if ((mutate & 2) != 0) {
                array = pages.clone();
                for (int i = 0; i < array.length; i++) {
                    if (array[i] >= 0 && array[i] < LAM_PAGES) {
                        array[i] = lamPages[(int) array[i]];
                    }
                }
            } else {
                array = new long[(int) Math.min(Integer.toUnsignedLong(count), LAM_PAGES)];
                for (int i = 0; i < array.length; i++) {
                    array[i] = lamPages[(int) ((i + Integer.toUnsignedLong(rawCount)) % LAM_PAGES)];
                }
            }
            int fbo = (mutate & 4) != 0 ? rawFbo : Integer.remainderUnsigned(rawFbo, PS);
            long room = Integer.toUnsignedLong(count) * PS - Integer.toUnsignedLong(fbo);
            long length = (mutate & 8) != 0 || room <= 0 ? rawLength : 1 + Long.remainderUnsigned(rawLength, room);
            long bva = (mutate & 16) != 0 ? rawBva : (rawBva & 0x0000_7FFF_FFFF_F000L) + Integer.toUnsignedLong(fbo);
            boolean remote = w.remoteAccess.getOrDefault(m, false);
            int fl = (mutate & 32) != 0 ? flags : flags & (remote ? 0x2BB : 0x293);
            fl = fl & ~NdkOpFlags.DEFER | (w.settings.ndkVersion().minor() >= 2 ? fl & NdkOpFlags.DEFER : 0);
            long unsignedCount = Integer.toUnsignedLong(count);
            boolean pagesOk = unsignedCount <= array.length;
            for (int i = 0; pagesOk && i < unsignedCount; i++) {
                long p = array[i];
                pagesOk = (p & (PS - 1)) == 0 && Long.compareUnsigned(p - lamPages[0], LAM_PAGES * PS) < 0;
            }
            int defined = 0x2BB & (w.settings.ndkVersion().minor() >= 2 ? -1 : ~0x200);
            boolean remoteFlags = (fl & 0x28) != 0;
            boolean forbidden = onUnconnected || init == null || w.fastRegions.containsKey(m)
                    || count == 0 || Integer.compareUnsigned(count, init) > 0 || !pagesOk
                    || Integer.toUnsignedLong(fbo) >= PS || length == 0
                    || Long.compareUnsigned(length, unsignedCount * PS - Integer.toUnsignedLong(fbo)) > 0
                    || (bva & (PS - 1)) != Integer.toUnsignedLong(fbo) || Unsigned.lastByteWraps(bva, length)
                    || (fl & ~defined) != 0 || ((fl & 0x20) != 0 && (fl & 0x10) == 0)
                    || (remoteFlags && !w.remoteAccess.getOrDefault(m, false));
            Object context = new Object();
            NdkQp qp = onUnconnected ? w.unconnected : w.a;
            NtStatus s = qp.fastRegister(context, m, count, array, fbo, length, bva, fl);
            String what = String.format("fast register count %s FBO 0x%X Length 0x%X BVA 0x%X flags 0x%X",
                    Integer.toUnsignedString(count), fbo, length, bva, fl);
            w.post(what, context, s, forbidden, fl);
            if (s.equals(NtStatus.STATUS_SUCCESS) && !forbidden) {
                Known k = new Known(bva, length, (fl & 0x8) != 0, (fl & 0x30) == 0x30);
                w.fastRegions.put(m, k);
                w.live.put(m.getRemoteToken(), k);
            }
            if (forbidden && s.equals(NtStatus.STATUS_SUCCESS)) {
                // the entry must be an error (checked in settle); it grants nothing meanwhile
                w.fastRegions.put(m, new Known(0, 0, false, false));
            }
        }
    }

    record Invalidate(int mr, int flags) implements Action {
        public void run(World w) {
            NdkMr m = w.fast.get(mr % w.fast.size());
            int fl = flags & ~NdkOpFlags.DEFER;
            boolean forbidden = !w.fastRegions.containsKey(m) || (fl & ~0x3) != 0;
            w.live.remove(m.getRemoteToken());
            Object context = new Object();
            NtStatus s = w.a.invalidate(context, m, fl);
            w.post("invalidate flags 0x" + Integer.toHexString(fl), context, s, forbidden, fl);
            if (s.equals(NtStatus.STATUS_SUCCESS)) {
                w.fastRegions.remove(m);
            }
        }
    }

    /** NdkRead/NdkWrite with an arbitrary or known remote token and address, from a valid local SGE. */
    record Rdma(boolean read, boolean knownToken, int token, boolean nearBase, long address, int length, int flags)
            implements Action {
        public void run(World w) {
            List<Integer> tokens = new ArrayList<>(w.live.keySet());
            int t = knownToken && !tokens.isEmpty() ? tokens.get(Integer.remainderUnsigned(token, tokens.size())) : token;
            Known k = w.live.get(t);
            int n = Integer.remainderUnsigned(length, 0x4000);
            long addr = address;
            if (nearBase && k != null && k.length() > 0) {
                long offset = Long.remainderUnsigned(address, k.length());
                addr = k.base() + offset;
                n = (int) Math.min(n, k.length() - offset);
            }
            int fl = flags & (NdkOpFlags.SILENT_SUCCESS | NdkOpFlags.READ_FENCE
                    | (w.settings.ndkVersion().minor() >= 2 ? NdkOpFlags.DEFER : 0));
            boolean forbidden = k == null || !k.contains(addr, n) || (read ? !k.remoteRead() : !k.remoteWrite());
            NdkSge[] sgl = {new NdkSge(LOCAL_VA, n, w.localToken)};
            Object context = new Object();
            NtStatus s = read ? w.a.read(context, sgl, addr, t, fl) : w.b.write(context, sgl, addr, t, fl);
            w.post(String.format("%s 0x%X bytes at 0x%X token 0x%08X", read ? "read" : "write", n, addr, t),
                    context, s, forbidden, fl);
        }
    }

    /** A Write with arbitrary local SGEs to a valid target. */
    record LocalSges(long[] addresses, int[] lengths, int[] tokens, boolean[] validToken) implements Action {
        @Override
        public String toString() {
            return "LocalSges[addresses=" + java.util.Arrays.toString(addresses) + ", lengths="
                    + java.util.Arrays.toString(lengths) + ", tokens=" + java.util.Arrays.toString(tokens)
                    + ", validToken=" + java.util.Arrays.toString(validToken) + "]";
        }

        public void run(World w) {
            NdkSge[] sgl = new NdkSge[addresses.length];
            boolean forbidden = false;
            long total = 0;
            for (int i = 0; i < sgl.length; i++) {
                int t = validToken[i] ? w.localToken : tokens[i];
                int n = lengths[i];
                sgl[i] = new NdkSge(addresses[i], n, t);
                long offset = addresses[i] - LOCAL_VA;
                boolean inside = t == w.localToken && Long.compareUnsigned(offset, 0x4000) < 0
                        && Long.compareUnsigned(Integer.toUnsignedLong(n), 0x4000 - offset) <= 0;
                forbidden |= !inside;
                total += Integer.toUnsignedLong(n);
            }
            Mdl target = w.buffer(w.nextVa, 0x10000);
            w.nextVa += 0x100_0000;
            NdkMr t = w.normal.get(0);
            w.live.remove(t.getRemoteToken());
            w.call(c -> t.deregister(c, null));
            if (!w.call(c -> t.register(target, 0x10000, 0x7, c, null)).equals(NtStatus.STATUS_SUCCESS)) {
                w.violations.add("target register failed");
                return;
            }
            w.live.put(t.getRemoteToken(), new Known(target.virtualAddress(), 0x10000, true, true));
            forbidden |= Long.compareUnsigned(total, 0x10000) > 0;
            Object context = new Object();
            NtStatus s = w.a.write(context, sgl, target.virtualAddress(), t.getRemoteToken(), 0);
            w.post("write from arbitrary SGEs", context, s, forbidden, 0);
        }
    }

    /** NdkBuildLam with arbitrary Length and *pLAMSize; releases what it built. */
    record BuildLam(long va, int byteCount, long length, int lamSize) implements Action {
        public void run(World w) {
            Mdl mdl = w.buffer(va, byteCount);
            NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping(lamSize);
            boolean forbidden = length == 0 || Unsigned.lastByteWraps(va, length)
                    || Long.compareUnsigned(length, Integer.toUnsignedLong(byteCount)) > 0;
            NtStatus s = w.call(c -> w.adapter.buildLam(mdl, length, c, null, lam));
            if (forbidden) {
                w.forbidSuccess(String.format("build LAM VA 0x%X Length 0x%X", va, length), s);
            }
            if (s.equals(NtStatus.STATUS_BUFFER_TOO_SMALL)) {
                long pages = Mdl.spanPages((int) (va & (PS - 1)), length, PS);
                if (Integer.toUnsignedLong(lam.lamSize()) != 16 + 8 * pages) {
                    w.violations.add("LAM size needed " + Integer.toUnsignedString(lam.lamSize()) + " for " + pages);
                }
            }
            if (s.equals(NtStatus.STATUS_SUCCESS)) {
                w.adapter.releaseLam(lam);
            }
        }
    }

    /** The remaining calls with arbitrary numbers: create CQ/QP, send, receive, connect. */
    record Misc(int kind, int a1, int a2, int a3, int a4, int a5) implements Action {
        public void run(World w) {
            switch (Integer.remainderUnsigned(kind, 4)) {
                case 0 -> {
                    CreateResult<NdkCq> r = w.adapter.createCq(a1, (c, s, o) -> { }, null);
                    if (r.status().equals(NtStatus.STATUS_SUCCESS)) {
                        Fixture.close(c -> r.object().close(c, null));
                    }
                }
                case 1 -> {
                    CompletableFuture<NdkQp> done = new CompletableFuture<>();
                    CreateResult<NdkQp> r = w.pd.createQp(w.cq, w.cq, null, a1, a2, a3, a4, a5,
                            (c, s, o) -> done.complete(o), null);
                    NdkQp qp = r.status().equals(NtStatus.STATUS_SUCCESS) ? r.object() : null;
                    if (r.status().isPending()) {
                        try {
                            qp = done.get(10, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            w.violations.add("no create completion");
                        }
                    }
                    if (qp != null) {
                        NdkQp q = qp;
                        Fixture.close(c -> q.close(c, null));
                    }
                }
                case 2 -> {
                    // on a connection of its own: an arbitrary token is almost never valid, and the receiver then
                    // aborts the connection (INV-6), which would cancel the world's later requests on A and B
                    NdkQp x = w.create(c -> w.pd.createQp(w.cq, w.cq, "X", 64, 64, 4, 4, 64, c, null));
                    NdkQp y = w.create(c -> w.pd.createQp(w.cq, w.cq, "Y", 64, 64, 4, 4, 64, c, null));
                    w.adapter.connectLoopback(x, y);
                    NdkSge[] sgl = {new NdkSge(LOCAL_VA + (a1 & 0xFFF), a2 & 0xFFF, w.localToken)};
                    NtStatus s = y.receive(null, sgl);
                    NtStatus t = x.sendAndInvalidate(null, new NdkSge[] {new NdkSge(LOCAL_VA, a3 & 0xFF, w.localToken)},
                            a4, a5 & ~(NdkOpFlags.INLINE | NdkOpFlags.DEFER));
                    if (s.isPending() || t.isPending()) {
                        w.violations.add("a work request returned PENDING");
                    }
                }
                default -> {
                    NtStatus s = w.adapter.connectLoopback(w.a, w.unconnected);
                    w.forbidSuccess("connect a connected QP", s);
                }
            }
        }
    }

    // ------------------------------------------------------------------ generators

    static Arbitrary<Long> anyLong() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(-2, 0x12000),
                Arbitraries.of(0x8000_0000L, 0xFFFF_FFFFL, 0x1_0000_0000L, 0x1_0000_0800L, 0xFFFF_FFFF_FFFF_F000L,
                        Long.MIN_VALUE, 1L << 40, (1L << 40) + 1));
    }

    static Arbitrary<Integer> anyInt() {
        return Arbitraries.oneOf(Arbitraries.integers(), Arbitraries.integers().between(-2, 0x3000),
                Arbitraries.of(0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 1 << 20, (1 << 20) + 1, 16, 256, 257));
    }

    /** Which parts of a valid request to replace by arbitrary values: none, one, or any. */
    static Arbitrary<Integer> mutation() {
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(4, Arbitraries.of(1, 2, 4, 8, 16, 32)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 63)));
    }

    static Arbitrary<Integer> flags() {
        return Arbitraries.oneOf(Arbitraries.integers(), Arbitraries.integers().between(0, 0x3FF),
                Arbitraries.of(0x0, 0x1, 0x2, 0x5, 0x7, 0x8, 0xF, 0x10, 0x20, 0x30, 0x38, 0x80, 0x200, 0x2BB));
    }

    @Provide
    Arbitrary<List<Action>> actions() {
        Arbitrary<Action> register = Combinators.combine(Arbitraries.integers().between(0, 3), anyLong(),
                Arbitraries.oneOf(Arbitraries.integers().between(1, 0x3000), Arbitraries.integers().between(0, 0x3000))
                        .array(int[].class).ofMinSize(1).ofMaxSize(3),
                Arbitraries.of(true, true, true, false).array(boolean[].class).ofSize(3), anyLong(), flags(), mutation())
                .as((mr, va, counts, contiguous, length, fl, mut) -> (Action) new Register(mr, va, counts, contiguous,
                        length, fl, mut));
        Arbitrary<Action> deregister = Arbitraries.integers().between(0, 3).map(Deregister::new);
        Arbitrary<Action> initialize = Combinators.combine(Arbitraries.integers().between(0, 3), anyInt(),
                Arbitraries.of(true, false), Arbitraries.of(false, false, false, true)).as(Initialize::new);
        Arbitrary<long[]> pages = Arbitraries.oneOf(Arbitraries.longs().between(0, LAM_PAGES - 1), anyLong())
                .array(long[].class).ofMaxSize(10);
        Arbitrary<Action> fastRegister = Combinators.combine(Arbitraries.integers().between(0, 3),
                anyInt(), pages, anyInt(), anyLong(), anyLong(), flags(),
                Combinators.combine(mutation(), Arbitraries.of(false, false, false, false, false, true))
                        .as((mut, unc) -> mut * 2 + (unc ? 1 : 0)))
                .as((mr, count, p, fbo, length, bva, fl, mu) -> (Action) new FastRegister(mr, count, p, fbo, length,
                        bva, fl, mu >>> 1, (mu & 1) != 0));
        Arbitrary<Action> invalidate = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.oneOf(Arbitraries.just(0), flags())).as(Invalidate::new);
        Arbitrary<Action> rdma = Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, true, false),
                anyInt(), Arbitraries.of(true, true, false), anyLong(), anyInt(), flags()).as(Rdma::new);
        Arbitrary<Action> localSges = Arbitraries.integers().between(1, 4).flatMap(n -> Combinators.combine(
                Arbitraries.oneOf(anyLong(), Arbitraries.longs().between(LOCAL_VA - 2, LOCAL_VA + 0x4002))
                        .array(long[].class).ofSize(n),
                Arbitraries.oneOf(anyInt(), Arbitraries.integers().between(0, 0x4001)).array(int[].class).ofSize(n),
                anyInt().array(int[].class).ofSize(n),
                Arbitraries.of(true, true, false).array(boolean[].class).ofSize(n)).as(LocalSges::new));
        Arbitrary<Action> buildLam = Combinators.combine(anyLong(), Arbitraries.integers().between(0, 0x3000),
                anyLong(), anyInt()).as(BuildLam::new);
        Arbitrary<Action> misc = Combinators.combine(Arbitraries.integers().between(0, 3), anyInt(), anyInt(),
                anyInt(), anyInt(), anyInt()).as(Misc::new);
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, register), net.jqwik.api.Tuple.of(1, deregister),
                        net.jqwik.api.Tuple.of(3, initialize), net.jqwik.api.Tuple.of(5, fastRegister),
                        net.jqwik.api.Tuple.of(2, invalidate), net.jqwik.api.Tuple.of(4, rdma),
                        net.jqwik.api.Tuple.of(1, localSges), net.jqwik.api.Tuple.of(2, buildLam),
                        net.jqwik.api.Tuple.of(1, misc))
                .list().ofMinSize(1).ofMaxSize(25);
    }

    @Provide
    Arbitrary<Map<String, String>> settings() {
        return Combinators.combine(Arbitraries.of("inline", "inline", "pending", "mixed"), Arbitraries.of("1.1", "1.2"),
                Arbitraries.of("true", "false"), Arbitraries.longs(), Arbitraries.of("1099511627776", "65536",
                        "18446744073709551615")).as((c, v, r, seed, max) -> Map.of("completion", c, "ndkVersion", v,
                "readSinkNotRequired", r, "seed", Long.toString(seed), "maxRegistrationSize", max));
    }

    // ------------------------------------------------------------------ properties

    @Property(tries = 300)
    void arbitraryArgumentsNeverBreakTheCatalog(@ForAll("settings") Map<String, String> settings,
                                                @ForAll("actions") List<Action> actions) {
        World world = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            World w = new World(settings);
            try {
                for (Action action : actions) {
                    action.run(w);
                }
                w.settle();
            } finally {
                w.adapter.close();
            }
            return w;
        });
        for (String outcome : world.outcomes) {
            Statistics.label("outcome").collect(outcome);
        }
        assertThat(world.violations).isEmpty();
        Statistics.label("outcome").coverage(c -> {
            c.check("register allowed succeeded").count(n -> n > 0);
            c.check("register forbidden failed").count(n -> n > 0);
            c.check("fast forbidden rejected inline").count(n -> n > 0);
            c.check("fast allowed posted").count(n -> n > 0);
            c.check("read allowed posted").count(n -> n > 0);
            c.check("write allowed posted").count(n -> n > 0);
            c.check("read forbidden posted").count(n -> n > 0);
            c.check("write forbidden posted").count(n -> n > 0);
        });
    }

    @Property(tries = 30)
    void nullsWhereTheSpiForbidsThemAreDocumentedNullPointerExceptions(@ForAll("settings") Map<String, String> settings) {
        World w = new World(settings);
        try {
            NdkMr mr = w.normal.get(0);
            NdkMr fast = w.fast.get(0);
            Mdl mdl = w.buffer(0x7000_0000L, 0x1000);
            RequestCompletion rc = (c, s) -> { };
            NdkSge[] ok = {new NdkSge(LOCAL_VA, 8, w.localToken)};
            List<Runnable> calls = List.of(
                    () -> mr.register(null, 1, 0, rc, null),
                    () -> mr.register(mdl, 1, 0, null, null),
                    () -> mr.deregister(null, null),
                    () -> fast.initializeFastRegister(1, true, null, null),
                    () -> mr.close(null, null),
                    () -> w.pd.createMr(true, null, null),
                    () -> w.pd.createQp(null, w.cq, null, 1, 1, 1, 1, 0, (c, s, o) -> { }, null),
                    () -> w.pd.createQp(w.cq, null, null, 1, 1, 1, 1, 0, (c, s, o) -> { }, null),
                    () -> w.adapter.createPd(null, null),
                    () -> w.adapter.createCq(1, null, null),
                    () -> w.adapter.buildLam(null, 1, rc, null, new NdkLogicalAddressMapping(64)),
                    () -> w.adapter.buildLam(mdl, 1, rc, null, null),
                    () -> w.adapter.releaseLam(null),
                    () -> w.adapter.connectLoopback(null, w.a),
                    () -> w.a.fastRegister(null, null, 1, new long[1], 0, 1, 0, 0),
                    () -> w.a.fastRegister(null, fast, 1, null, 0, 1, 0, 0),
                    () -> w.a.invalidate(null, null, 0),
                    () -> w.a.read(null, null, 0, 0, 0),
                    () -> w.a.write(null, new NdkSge[] {ok[0], null}, 0, 0, 0),
                    () -> w.a.send(null, null, 0),
                    () -> w.a.sendAndInvalidate(null, null, 0, 0),
                    () -> w.a.receive(null, null),
                    () -> w.cq.getCqResults(null),
                    () -> w.cq.getCqResultsEx(null));
            for (Runnable call : calls) {
                assertThatThrownBy(call::run).isInstanceOf(NullPointerException.class)
                        .satisfies(e -> assertThat(e.getMessage()).isNotBlank());
            }
            // and nothing changed: the adapter still works, with null contexts
            assertThat(w.call(c -> w.adapter.buildLam(mdl, 0x1000, c, null, new NdkLogicalAddressMapping(64))))
                    .isEqualTo(NtStatus.STATUS_SUCCESS);
            assertThat(w.adapter.buildLam(mdl, 0x1000, null, null, new NdkLogicalAddressMapping(64)))
                    .as("NdkBuildLam's completion is optional (AMB-16)").isEqualTo(NtStatus.STATUS_SUCCESS);
            assertThat(w.a.write(null, ok, 0, 0, 0)).isEqualTo(NtStatus.STATUS_SUCCESS);
        } finally {
            w.adapter.close();
        }
    }
}
