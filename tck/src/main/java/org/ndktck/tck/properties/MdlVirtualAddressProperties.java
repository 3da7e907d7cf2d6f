package org.ndktck.tck.properties;

import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u64;

/**
 * The MDL virtual address is an index, never dereferenced: MR-REG-3 (NdkRegisterMr) and LAM-5
 * (NdkBuildLam). The kit gives each chain a virtual address unrelated to its page frames: one whose page
 * number is the PFN of the guard frame just before the chain's buffer, of a painted decoy buffer, or an
 * arbitrary address with the top bit set. A provider that used the address to reach memory would read or
 * write those frames, which the session's memory check sees (guard frames are recorded, painted buffers
 * compared byte by byte).
 */
@NdkKit
public class MdlVirtualAddressProperties {

    /** Where the chain's virtual address points if read as a physical address. */
    enum Alias {
        /** At the guard frame before the chain's own buffer (and then into the buffer, one page off). */
        GUARD_FRAME,
        /** At a painted decoy buffer. */
        DECOY_BUFFER,
        /** Nowhere the kit allocated: an address with the top bit set. */
        TOP_BIT
    }

    /**
     * One case: the alias, the chain's pages, its offset in the first page, and where it is probed.
     *
     * @param alias  where the VA points
     * @param pages  pages of the chain (1 to 4)
     * @param offset VA mod PAGE_SIZE
     * @param kFrac  where in the region the probe is (fraction of the length)
     * @param n      bytes probed
     */
    record Case(Alias alias, int pages, int offset, double kFrac, int n) {
    }

    @Provide
    Arbitrary<Case> cases() {
        int p = Limits.current().pageSize();
        Arbitrary<Case> random = Combinators.combine(Arbitraries.of(Alias.class), Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(0, p - 1), Arbitraries.doubles().between(0, 1), Arbitraries.integers().between(1, 64))
                .as(Case::new);
        return random.edgeCases(c -> c.filter(x -> false).add(new Case(Alias.GUARD_FRAME, 1, 0, 0, 16),
                new Case(Alias.GUARD_FRAME, 2, p - 1, 1, 8), new Case(Alias.DECOY_BUFFER, 1, 0, 0, 16),
                new Case(Alias.DECOY_BUFFER, 3, 100, 0.5, 64), new Case(Alias.TOP_BIT, 2, 17, 0.3, 32)));
    }

    /** A chain over its own buffer, with a VA chosen by the alias. */
    private record Chain(HostBuffer buffer, Mdl mdl, long va, long length) {
    }

    private static Chain chain(NdkSession s, SessionTools t, Case c) {
        int p = s.pageSize();
        HostBuffer decoy = c.alias() == Alias.DECOY_BUFFER ? s.allocate(c.pages() + 1) : null;
        HostBuffer b = s.allocate(c.pages());
        long pageBase = switch (c.alias()) {
            case GUARD_FRAME -> b.guardNextToFirst() * p;
            case DECOY_BUFFER -> decoy.firstPfn() * p;
            case TOP_BIT -> Long.MIN_VALUE + t.freshVa();
        };
        long length = (long) c.pages() * p - c.offset();
        Mdl mdl = b.mdl(pageBase + c.offset(), 0, (int) length);
        return new Chain(b, mdl, pageBase + c.offset(), length);
    }

    /**
     * MR-REG-3: after NdkRegisterMr of a chain whose VA is unrelated to its frames, a peer write at VA + k
     * succeeds and lands in byte k of the chain's own frames, a peer read at VA + k returns those bytes, and
     * no other frame (guard, decoy buffer, neighbouring bytes) is read or written.
     */
    @CoverageClasses(3)
    @Property
    @Tag("MR-REG-3")
    void registrationNeverDereferencesTheMdlAddress(@ForAll("cases") Case c) {
        SectionChecks.cover("alias", c.alias().name(), Arrays.stream(Alias.values()).map(Enum::name).toList());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                Chain ch = chain(s, t, c);
                Registered r = t.registerOver(s.target(), ch.buffer(), ch.mdl(), ch.length(),
                        NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                int n = (int) Math.min(c.n(), ch.length());
                long k = (long) (c.kFrac() * (ch.length() - n));
                byte[] data = SessionTools.complement(ch.buffer().expected(c.offset() + k, n));
                Access w = s.peerWrite(ch.va() + k, r.remoteToken(), data);
                byte[] landed = ch.buffer().read(c.offset() + k, n);
                if (!w.succeeded() || !Arrays.equals(landed, data)) {
                    throw Violations.of("MR-REG-3", w.describe() + " into a region registered at VA " + u64(ch.va()) + " (" + c.alias() + ")",
                            "STATUS_SUCCESS and the bytes " + Hex.bytes(data) + " in byte " + u64(k) + " of the chain's own frames",
                            w.outcome().describe() + ", the chain's frame holds " + Hex.bytes(landed));
                }
                ch.buffer().expectWrite(c.offset() + k, data);
                Access rd = s.peerRead(ch.va() + k, r.remoteToken(), n);
                if (!rd.succeeded() || !Arrays.equals(rd.data(), data)) {
                    throw Violations.of("MR-REG-3", rd.describe(), "the chain's own bytes " + Hex.bytes(data),
                            rd.outcome().describe() + (rd.succeeded() ? ", read " + Hex.bytes(rd.data()) : ""));
                }
                s.checkMemory("MR-REG-3", "peer accesses of a region registered at VA " + u64(ch.va()) + " (" + c.alias() + ")");
            }
        });
    }

    /**
     * LAM-5: NdkBuildLam of a chain whose VA is unrelated to its frames maps exactly the chain's frames: an
     * NdkSend from the logical address of chain byte k with the privileged token delivers the chain's
     * bytes, a peer write through a fast registration over the LAM lands in chain byte k, and no other
     * frame is read or written.
     */
    @CoverageClasses(3)
    @Property
    @Tag("LAM-5")
    void buildLamNeverDereferencesTheMdlAddress(@ForAll("cases") Case c) {
        SectionChecks.cover("alias", c.alias().name(), Arrays.stream(Alias.values()).map(Enum::name).toList());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                Chain ch = chain(s, t, c);
                NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) NdkLogicalAddressMapping.bytesFor(c.pages()));
                Outcome o = t.buildLam(ch.mdl(), ch.length(), lam);
                Refusals.discardIfRefused(o.status());
                if (!o.succeeded()) {
                    throw Violations.of("LAM-7", o.call(), "STATUS_SUCCESS for a valid chain with a large enough buffer", o.describe());
                }
                long[] pages = lam.adapterPageArray();
                int n = (int) Math.min(c.n(), ch.length());
                long k = (long) (c.kFrac() * (ch.length() - n));
                int inPage = (int) ((c.offset() + k) % p);
                n = Math.min(n, p - inPage);
                long logical = pages[(int) ((c.offset() + k) / p)] + inPage;
                int priv = t.privilegedToken(s.target().pd());
                Registered sink = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                byte[] chainBytes = ch.buffer().read(c.offset() + k, n);
                WorkRequest recv = t.receive(t.peer(), new NdkSge[]{sink.sge(0, n)}, NdkOperationType.RECEIVE);
                WrOutcome send = t.complete(t.send(t.target(), new NdkSge[]{new NdkSge(logical, n, priv)}, 0));
                if (!send.succeeded()) {
                    throw Violations.of("LAM-5", send.call(), "STATUS_SUCCESS: the LAM maps the chain's own frames", send.describe());
                }
                WrOutcome ro = t.complete(recv);
                byte[] got = sink.buffer().read(0, n);
                if (!ro.succeeded() || !Arrays.equals(got, chainBytes)) {
                    throw Violations.of("LAM-5", send.call() + " from the LAM of a chain at VA " + u64(ch.va()) + " (" + c.alias() + ")",
                            "chain byte " + u64(k) + "'s bytes " + Hex.bytes(chainBytes), "the peer received " + Hex.bytes(got) + " (" + ro.describe() + ")");
                }
                sink.buffer().expectWrite(0, got);
                NdkMr mr = s.fastRegisterMr(c.pages(), true);
                long base = t.freshVa() + c.offset();
                WrOutcome fr = s.fastRegister(s.target().qp(), mr, c.pages(), pages, c.offset(), ch.length(), base,
                        NdkOpFlags.ALLOW_REMOTE_WRITE | NdkOpFlags.ALLOW_REMOTE_READ);
                if (!fr.succeeded()) {
                    throw Violations.of("MR-FR-8", fr.call(), "STATUS_SUCCESS for a valid fast registration over a LAM", fr.describe());
                }
                byte[] data = SessionTools.complement(ch.buffer().expected(c.offset() + k, n));
                Access w = s.peerWrite(base + k, s.remoteToken(mr), data);
                byte[] landed = ch.buffer().read(c.offset() + k, n);
                if (!w.succeeded() || !Arrays.equals(landed, data)) {
                    throw Violations.of("LAM-5", w.describe() + " through a fast registration over the LAM of a chain at VA " + u64(ch.va()),
                            "the bytes " + Hex.bytes(data) + " in chain byte " + u64(k) + "'s own frame",
                            w.outcome().describe() + ", the frame holds " + Hex.bytes(landed));
                }
                ch.buffer().expectWrite(c.offset() + k, data);
                s.checkMemory("LAM-5", "accesses through the LAM of a chain at VA " + u64(ch.va()) + " (" + c.alias() + ")");
            }
        });
    }
}
