package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * Properties of NdkGetPrivilegedMemoryRegionToken (catalog section "NdkGetPrivilegedMemoryRegionToken";
 * the NDK_FN_GET_PRIVILEGED_MEMORY_REGION_TOKEN page). SGEs that use the privileged token name adapter
 * logical addresses from a LAM built over a guarded target buffer; each SGE stays inside one LAM page
 * (SGE-1: LAM pages need not be adjacent).
 */
@NdkKit
public class PrivilegedTokenProperties {

    /** A LAM over a target buffer of {@code pages} pages whose first byte is at {@code fbo} in the first page. */
    private record Lam(HostBuffer buffer, org.ndktck.tck.harness.Lam lam, int fbo, int pageSize) {
        /** @return the logical address of chain byte k */
        long logical(long k) {
            long at = fbo + k;
            return lam.pages()[(int) (at / pageSize)] + at % pageSize;
        }

        /** @return chain byte k's buffer offset */
        long bufferOffset(long k) {
            return fbo + k;
        }
    }

    private static Lam lam(NdkSession s, SessionTools t, int pages, int fbo) {
        int p = s.pageSize();
        HostBuffer b = s.allocate(pages);
        long length = (long) pages * p - fbo;
        Mdl mdl = b.mdl(t.freshVa() + fbo, 0, (int) length);
        return new Lam(b, s.buildLam(mdl, length), fbo, p);
    }

    /** @return chain offset k of an n-byte run inside one page of the LAM (chosen by seed) */
    private static long runIn(Lam l, int pages, int n, int seed) {
        int p = l.pageSize();
        int page = seed % pages;
        int lo = page == 0 ? l.fbo() : 0;
        int room = p - lo - n;
        int inPage = lo + (room <= 0 ? 0 : (seed / pages) % (room + 1));
        return (long) page * p + inPage - l.fbo();
    }

    /**
     * PRIV-1: with the PD's privileged token an SGE may name LAM logical addresses directly: an NdkSend from
     * {LAM address, n, privileged token} delivers the chain's bytes into the peer's receive buffer, and an
     * NdkReceive into such an SGE stores the peer's sent bytes in the chain's own page frames (and nowhere
     * else).
     */
    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("PRIV-1")
    void thePrivilegedTokenReachesLamAddressesLocally(@ForAll @IntRange(min = 1, max = 4) int pages,
                                                      @ForAll @IntRange(min = 0, max = 4095) int fboSeed,
                                                      @ForAll @IntRange(min = 1, max = 512) int nSeed,
                                                      @ForAll @IntRange(min = 0, max = 100_000) int seed) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int fbo = fboSeed % p;
                Lam l = lam(s, t, pages, fbo);
                int n = Math.min(nSeed, p - fbo);
                int priv = t.privilegedToken(s.target().pd());
                Registered sink = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                long k = runIn(l, pages, n, seed);
                NdkSge src = new NdkSge(l.logical(k), n, priv);
                byte[] expected = l.buffer().read(l.bufferOffset(k), n);
                WorkRequest recv = t.receive(t.peer(), new NdkSge[]{sink.sge(0, n)}, NdkOperationType.RECEIVE);
                WrOutcome send = t.complete(t.send(t.target(), new NdkSge[]{src}, 0));
                if (!send.succeeded()) {
                    throw Violations.of("PRIV-1", send.call() + " with the privileged token " + u32(priv),
                            "STATUS_SUCCESS and the chain's bytes " + Hex.bytes(expected) + " at the peer", send.describe());
                }
                WrOutcome ro = t.complete(recv);
                byte[] got = sink.buffer().read(0, n);
                if (!ro.succeeded() || !Arrays.equals(got, expected)) {
                    throw Violations.of("PRIV-1", send.call() + " with the privileged token " + u32(priv),
                            "STATUS_SUCCESS and the chain's bytes " + Hex.bytes(expected) + " at the peer",
                            send.describe() + "; the peer's receive " + ro.describe() + ", it holds " + Hex.bytes(got));
                }
                sink.buffer().expectWrite(0, expected);
                long k2 = runIn(l, pages, n, seed * 31 + 7);
                NdkSge dst = new NdkSge(l.logical(k2), n, priv);
                byte[] data = SessionTools.complement(l.buffer().expected(l.bufferOffset(k2), n));
                sink.buffer().expectWrite(p / 2, data);
                s.memory().poke(sink.buffer().pfn(0), p / 2, data);
                WorkRequest recv2 = t.receive(t.target(), new NdkSge[]{dst}, NdkOperationType.RECEIVE);
                WrOutcome send2 = t.complete(t.send(t.peer(), new NdkSge[]{sink.sge(p / 2, n)}, 0));
                WrOutcome ro2 = t.complete(recv2);
                byte[] landed = l.buffer().read(l.bufferOffset(k2), n);
                if (!ro2.succeeded() || !Arrays.equals(landed, data)) {
                    throw Violations.of("PRIV-1", ro2.call() + " with the privileged token " + u32(priv) + " at LAM address "
                                    + u64(dst.address()), "STATUS_SUCCESS and the sent bytes " + Hex.bytes(data) + " in the chain's page frame",
                            ro2.describe() + " (the send " + send2.describe() + "), the frame holds " + Hex.bytes(landed));
                }
                l.buffer().expectWrite(l.bufferOffset(k2), data);
                s.checkMemory("PRIV-1", "sends and receives through the privileged token");
            }
        });
    }

    /**
     * PRIV-2: the privileged token is never a remote token: the peer's NdkRead and NdkWrite with the target
     * PD's privileged token, at LAM logical addresses of the target and at virtual addresses of a target
     * region registered with remote read and write, complete in error and change no byte.
     */
    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("PRIV-2")
    void thePrivilegedTokenGrantsNoRemoteAccess(@ForAll @IntRange(min = 1, max = 3) int pages,
                                                @ForAll @IntRange(min = 1, max = 64) int n,
                                                @ForAll @IntRange(min = 0, max = 100_000) int seed, @ForAll boolean write) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Lam l = lam(s, t, pages, 0);
                Registered r = t.registered(s.target(), pages, 0, (long) pages * p,
                        NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ | t.readSinkFlag());
                int priv = t.privilegedToken(s.target().pd());
                long k = runIn(l, pages, n, seed);
                long[] addresses = {l.logical(k), r.va() + k};
                for (long a : addresses) {
                    Access acc = write ? s.peerWrite(a, priv, new byte[n]) : s.peerRead(a, priv, n);
                    if (acc.succeeded()) {
                        throw Violations.of("PRIV-2", acc.describe() + " with the target PD's privileged token " + u32(priv),
                                "an error: the privileged token grants no remote access", "it succeeded"
                                        + (write ? "" : " and read " + Hex.bytes(acc.data())));
                    }
                }
                s.checkMemory("PRIV-2", "peer accesses with the privileged token");
            }
        });
    }

    /**
     * PRIV-3 (adapters with NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED): an NdkRead whose sink is
     * {LAM logical address, n, privileged token} succeeds, the chain's page frame then holds the bytes read,
     * and no other byte changed.
     */
    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("PRIV-3")
    void lamAddressesAreReadSinksWhenTheAdapterAllowsIt(@ForAll @IntRange(min = 1, max = 4) int pages,
                                                        @ForAll @IntRange(min = 1, max = 512) int nSeed,
                                                        @ForAll @IntRange(min = 0, max = 100_000) int seed) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Lam l = lam(s, t, pages, 0);
                int n = Math.min(nSeed, s.maxAccess());
                int priv = t.privilegedToken(s.target().pd());
                long k = runIn(l, pages, n, seed);
                NdkSge sink = new NdkSge(l.logical(k), n, priv);
                byte[] source = s.peerScratchBytes(n);
                Access a = s.targetReadInto(sink, 0);
                byte[] landed = l.buffer().read(l.bufferOffset(k), n);
                if (!a.succeeded() || !Arrays.equals(landed, source)) {
                    throw Violations.of("PRIV-3", a.describe(), "STATUS_SUCCESS and the peer's bytes " + Hex.bytes(source)
                            + " in the chain's page frame", a.outcome().describe() + ", the frame holds " + Hex.bytes(landed));
                }
                l.buffer().expectWrite(l.bufferOffset(k), source);
                s.checkMemory("PRIV-3", a.describe());
            }
        });
    }
}
