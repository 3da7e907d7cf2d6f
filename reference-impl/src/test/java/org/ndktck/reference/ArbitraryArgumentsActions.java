package org.ndktck.reference;

import org.ndktck.spec.CreateResult;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.reference.ArbitraryArgumentsWorld.World;
import org.ndktck.reference.ArbitraryArgumentsWorld.Known;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.ndktck.reference.ArbitraryArgumentsWorld.PS;
import static org.ndktck.reference.ArbitraryArgumentsWorld.LAM_PAGES;
import static org.ndktck.reference.ArbitraryArgumentsWorld.LOCAL_VA;

/**
 * The actions of {@link ArbitraryArgumentsProperties}: one SPI call each with arbitrary arguments (any value of the
 * whole unsigned range of a ULONG, SIZE_T or 64-bit address, carried in a Java int or long, or a valid value with
 * some parts replaced), run on an {@link ArbitraryArgumentsWorld.World}: NdkRegisterMr, NdkDeregisterMr,
 * NdkInitializeFastRegisterMr, NdkFastRegister, NdkInvalidate, NdkRead and NdkWrite (with arbitrary or known tokens
 * and addresses, or arbitrary local SGEs), NdkBuildLam / NdkReleaseLam, and the remaining create, send, receive and
 * connect calls. An action asserts what the catalog requires of the call's outcome (a forbidden request fails inline
 * or completes with an error status); its {@code toString} is what a shrunk failure prints.
 */
final class ArbitraryArgumentsActions {
    private ArbitraryArgumentsActions() {
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
}
