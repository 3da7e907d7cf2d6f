package org.ndktck.tck.properties;

import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.generators.RegCase;
import org.ndktck.tck.generators.RegPlan;
import org.ndktck.tck.generators.RegisterPlans;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.RegScenario;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * Properties of NdkBuildLam and NdkReleaseLam (catalog section "NdkBuildLam and NdkReleaseLam"; the
 * NDK_FN_BUILD_LAM and NDK_FN_RELEASE_LAM pages). LAM-1, LAM-8, LAM-9 and LAM-REL-2 bind the kit and are
 * obeyed by it (the LAM-2 property breaks LAM-1 on purpose); LAM-6 is not black-box testable. LAM-5
 * (the MDL virtual address is never dereferenced) is in {@link MdlVirtualAddressProperties}.
 *
 * <p>*pLAMSize is a ULONG in bytes (16 bytes of header plus 8 a page); AdapterPageCount a ULONG.
 */
@NdkKit
public class LamProperties {
    private static final String LAM_TABLE =
            "STATUS_SUCCESS, STATUS_PENDING, STATUS_BUFFER_TOO_SMALL, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES or another error code";

    // ------------------------------------------------------------------ LAM-2

    @Provide
    Arbitrary<RegPlan> brokenChains() {
        return RegisterPlans.breaking(RegCase.BROKEN_CHAIN, Limits.current());
    }

    /**
     * LAM-2: a chain that is not virtually contiguous over Length (a gap or an overlap between two MDLs
     * inside Length) fails, inline or as the completion status (an error other than
     * STATUS_INVALID_PARAMETER is an ADVISORY finding); the same chain mapped only over its contiguous part
     * succeeds.
     */
    @Property
    @Tag("LAM-2")
    void aChainThatIsNotContiguousIsRejected(@ForAll("brokenChains") RegPlan plan) {
        Checks.cover("case", plan.edge(), this::brokenChains, RegPlan::edge);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                RegScenario sc = RegScenario.prepare(s, plan);
                long span = Mdl.spanPages(sc.chain().byteOffset(), plan.length(), s.pageSize());
                NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) Math.min(0xFFFF_FFFFL, NdkLogicalAddressMapping.bytesFor(span)));
                Outcome o = t.buildLam(sc.chain(), plan.length(), lam);
                Checks.mustFail("LAM-2", o.call(), o.status(), o.describe(), NtStatus.STATUS_INVALID_PARAMETER,
                        "a failure (STATUS_INVALID_PARAMETER): the chain is not virtually contiguous at region byte " + u64(plan.breakOffset()));
                long contiguous = plan.breakOffset();
                if (contiguous > 0) {
                    long span2 = Mdl.spanPages(sc.chain().byteOffset(), contiguous, s.pageSize());
                    NdkLogicalAddressMapping ok = new NdkLogicalAddressMapping((int) NdkLogicalAddressMapping.bytesFor(span2));
                    Outcome o2 = t.buildLam(sc.chain(), contiguous, ok);
                    Refusals.discardIfRefused(o2.status());
                    if (!o2.succeeded()) {
                        throw Violations.of("LAM-2", o2.call(), "STATUS_SUCCESS: Length " + u64(contiguous)
                                + " ends where the chain is still contiguous", o2.describe());
                    }
                }
            }
        });
    }

    // ------------------------------------------------------------------ LAM-3

    /** How much LAM-3 offers in *pLAMSize. */
    enum Offer {
        /** 0 bytes. */
        NOTHING,
        /** Less than the 16-byte header. */
        BELOW_HEADER,
        /** The header only. */
        HEADER_ONLY,
        /** One entry too few. */
        ONE_ENTRY_SHORT
    }

    /**
     * LAM-3: with a buffer too small for the mapping (0 bytes, less than the header, the header alone, one
     * entry too few) NdkBuildLam fails, never succeeds with a cut page array; with STATUS_BUFFER_TOO_SMALL
     * it returns in *pLAMSize at least 16 + 8 × pages, and a retry with that size succeeds (inline or
     * through the completion). Another error is an ADVISORY finding.
     */
    @CoverageClasses(4)
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("LAM-3")
    void aSmallBufferGivesBufferTooSmallAndTheSizeNeeded(@ForAll Offer offer, @ForAll @IntRange(min = 1, max = 40) int pages,
                                                         @ForAll @IntRange(min = 0, max = 1 << 20) int seed) {
        SectionChecks.cover("offer", offer.name(), Arrays.stream(Offer.values()).map(Enum::name).toList());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int off = seed % p;
                HostBuffer b = s.allocate(pages + 1);
                long length = Math.max(1, (long) pages * p - off - (seed % 7));
                Mdl mdl = b.mdl(t.freshVa() + off, 0, (int) length);
                long span = Mdl.spanPages(off, length, p);
                long needed = NdkLogicalAddressMapping.bytesFor(span);
                int offered = switch (offer) {
                    case NOTHING -> 0;
                    case BELOW_HEADER -> 1 + seed % 15;
                    case HEADER_ONLY -> 16;
                    case ONE_ENTRY_SHORT -> (int) needed - 8;
                };
                NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping(offered);
                Outcome o = t.buildLam(mdl, length, lam);
                String call = o.call() + " for " + span + " page(s) (" + needed + " bytes needed)";
                if (o.succeeded()) {
                    throw Violations.of("LAM-3", call, "a failure (STATUS_BUFFER_TOO_SMALL): the buffer cannot hold the mapping",
                            o.describe() + " with AdapterPageCount " + u32(lam.adapterPageCount()));
                }
                Refusals.discardIfRefused(o.status());
                if (!NtStatus.STATUS_BUFFER_TOO_SMALL.equals(o.status())) {
                    Violations.advisory("LAM-3", call, NtStatus.STATUS_BUFFER_TOO_SMALL.toString(), o.describe());
                    return;
                }
                long told = Integer.toUnsignedLong(lam.lamSize());
                if (told < needed) {
                    throw Violations.of("LAM-3", call, "*pLAMSize at least " + needed + " bytes (16 + 8 x " + span + ") after STATUS_BUFFER_TOO_SMALL",
                            "*pLAMSize = " + told);
                }
                NdkLogicalAddressMapping retry = new NdkLogicalAddressMapping(lam.lamSize());
                Outcome o2 = t.buildLam(mdl, length, retry);
                Refusals.discardIfRefused(o2.status());
                if (!o2.succeeded()) {
                    throw Violations.of("LAM-3", o2.call(), "STATUS_SUCCESS when retried with the size NdkBuildLam asked for (" + told + " bytes)",
                            o2.describe());
                }
            }
        });
    }

    // ------------------------------------------------------------------ LAM-4

    @Provide
    Arbitrary<RegPlan> validChains() {
        return RegisterPlans.valid(Limits.current()).filter(p -> p.length() != 0 && p.chainBytes() <= (64L << 12));
    }

    /**
     * LAM-4: a successful NdkBuildLam over a valid chain (one to three MDLs, any offset, Length up to the
     * chain; some chains hold an MDL of ByteCount 0 first, inside or last, which adds no page) reports AdapterPageCount = the pages spanned by (VA, Length), PAGE_SIZE-aligned entries,
     * *pFBO = VA mod PAGE_SIZE and *pLAMSize = 16 + 8 × AdapterPageCount (the bytes written, also when the
     * consumer offered up to 40 bytes more than needed); and the mapping reaches the
     * chain's own frames: an NdkSend from {logical address of chain byte k, privileged token} delivers
     * chain byte k, and a peer write through a fast registration over the LAM lands in chain byte k.
     */
    @Property
    @Tag("LAM-4")
    void aSuccessfulLamDescribesTheChainsPages(@ForAll("validChains") RegPlan plan, @ForAll @IntRange(min = 0, max = 40) int extraBytes) {
        Checks.cover("case", plan.edge(), this::validChains, RegPlan::edge);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                RegScenario sc = RegScenario.prepare(s, plan);
                Mdl chain = sc.chain();
                long length = plan.length();
                int fbo = chain.byteOffset();
                long span = Mdl.spanPages(fbo, length, p);
                // *pLAMSize offered: exactly the bytes needed, or up to 40 more; on success it must say the bytes written
                NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) NdkLogicalAddressMapping.bytesFor(span) + extraBytes);
                Outcome o = t.buildLam(chain, length, lam);
                Refusals.discardIfRefused(o.status());
                if (!o.succeeded()) {
                    throw Violations.of("LAM-7", o.call(), "STATUS_SUCCESS for a valid chain with a large enough buffer", o.describe());
                }
                String problem = describeProblem(lam, span, fbo, p);
                if (problem != null) {
                    throw Violations.of("LAM-4", o.call(), "AdapterPageCount " + span + ", PAGE_SIZE-aligned entries, *pFBO " + u32(fbo)
                            + ", *pLAMSize " + NdkLogicalAddressMapping.bytesFor(span), problem);
                }
                long[] pages = lam.adapterPageArray();
                long k = Long.remainderUnsigned(plan.salt(), length);
                int n = (int) Math.min(16, Math.min(length - k, p - (fbo + k) % p));
                long logical = pages[(int) ((fbo + k) / p)] + (fbo + k) % p;
                int priv = t.privilegedToken(s.target().pd());
                Registered sink = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                byte[] chainBytes = sc.buffer().read(fbo + k, n);
                WorkRequest recv = t.receive(t.peer(), new NdkSge[]{sink.sge(0, n)}, NdkOperationType.RECEIVE);
                WrOutcome send = t.complete(t.send(t.target(), new NdkSge[]{new NdkSge(logical, n, priv)}, 0));
                if (!send.succeeded()) {
                    throw Violations.of("LAM-4", send.call() + " (logical address of chain byte " + u64(k) + ")",
                            "STATUS_SUCCESS: the LAM's addresses reach the chain's frames", send.describe());
                }
                WrOutcome ro = t.complete(recv);
                byte[] got = sink.buffer().read(0, n);
                if (!ro.succeeded() || !Arrays.equals(got, chainBytes)) {
                    throw Violations.of("LAM-4", send.call() + " (logical address of chain byte " + u64(k) + ")",
                            "chain byte " + u64(k) + "'s bytes " + Hex.bytes(chainBytes) + " at the peer", "the receive " + ro.describe()
                                    + ", the peer holds " + Hex.differing(chainBytes, got, k, "chain byte"));
                }
                sink.buffer().expectWrite(0, got);
                if (span <= Integer.toUnsignedLong(s.info().frmrPageCount())) {
                    NdkMr mr = s.fastRegisterMr((int) span, true);
                    long base = t.freshVa() + fbo;
                    int flags = NdkOpFlags.ALLOW_REMOTE_WRITE | NdkOpFlags.ALLOW_REMOTE_READ;
                    WrOutcome fr = s.fastRegister(s.target().qp(), mr, (int) span, pages, fbo, length, base, flags);
                    if (!fr.succeeded()) {
                        throw Violations.of("MR-FR-8", fr.call(), "STATUS_SUCCESS for a valid fast registration over a LAM", fr.describe());
                    }
                    byte[] data = SessionTools.complement(sc.buffer().expected(fbo + k, n));
                    Access w = s.peerWrite(base + k, s.remoteToken(mr), data);
                    byte[] landed = sc.buffer().read(fbo + k, n);
                    if (!w.succeeded() || !Arrays.equals(landed, data)) {
                        throw Violations.of("LAM-4", w.describe() + " through a fast registration over the LAM",
                                "the bytes " + Hex.bytes(data) + " in chain byte " + u64(k) + "'s frame", w.outcome().describe()
                                        + ", the frame holds " + Hex.differing(data, landed, k, "chain byte"));
                    }
                    sc.buffer().expectWrite(fbo + k, data);
                }
            }
        });
    }

    static String describeProblem(NdkLogicalAddressMapping lam, long span, int fbo, int p) {
        long count = Integer.toUnsignedLong(lam.adapterPageCount());
        long[] pages = lam.adapterPageArray();
        if (count != span || pages == null || pages.length < count) {
            return "AdapterPageCount " + count + (pages == null ? ", no page array" : ", " + pages.length + " entries");
        }
        if (lam.fbo() != fbo) {
            return "*pFBO " + u32(lam.fbo());
        }
        if (Integer.toUnsignedLong(lam.lamSize()) != NdkLogicalAddressMapping.bytesFor(span)) {
            return "*pLAMSize " + Integer.toUnsignedLong(lam.lamSize());
        }
        for (int i = 0; i < count; i++) {
            if ((pages[i] & (p - 1)) != 0) {
                return "AdapterPageArray[" + i + "] = " + u64(pages[i]) + " is not PAGE_SIZE-aligned";
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ LAM-7

    /** The kinds of NdkBuildLam request of LAM-7. */
    enum Kind {
        /** Valid, buffer large enough: must succeed. */
        VALID,
        /** Valid, buffer one entry short. */
        SMALL_BUFFER,
        /** A chain with a virtual gap inside Length. */
        GAP,
        /** Length 0. */
        ZERO_LENGTH,
        /** VA + Length past 2^64. */
        WRAPS,
        /** Length above the chain's bytes. */
        PAST_CHAIN
    }

    /**
     * LAM-7: whatever the request (valid, buffer one entry short, a gap in the chain, Length 0, a region
     * wrapping past 2^64, Length past the chain), NdkBuildLam returns STATUS_SUCCESS, STATUS_PENDING or an
     * error code and completes with STATUS_SUCCESS or an error (the session checks the table and the
     * callback accounting); a valid request with a large enough buffer ends in success.
     */
    @CoverageClasses(6)
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("LAM-7")
    void buildLamEndsInAListedKindOfResult(@ForAll Kind kind, @ForAll @IntRange(min = 1, max = 8) int pages,
                                           @ForAll @IntRange(min = 0, max = 1 << 20) int seed) {
        SectionChecks.cover("kind", kind.name(), Arrays.stream(Kind.values()).map(Enum::name).toList());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int off = seed % p;
                HostBuffer b = s.allocate(pages + 2);
                long va = kind == Kind.WRAPS ? -((long) pages * p) + off - p : t.freshVa() + off;
                long bytes = (long) pages * p - off;
                Mdl mdl = b.mdl(va, 0, (int) bytes);
                long length = switch (kind) {
                    case ZERO_LENGTH -> 0;
                    case PAST_CHAIN -> bytes + 1 + seed % p;
                    case WRAPS -> bytes;
                    default -> bytes;
                };
                if (kind == Kind.WRAPS) {
                    mdl = b.mdl(-((long) p) + off, 0, (int) Math.min(bytes, 0xFFFF_FFFFL));
                    length = bytes;
                }
                if (kind == Kind.GAP) {
                    int first = p - off;
                    mdl = b.mdl(va, 0, first);
                    mdl.setNext(b.mdl(va + first + p, 1, p));
                    length = first + p;
                }
                long span = Mdl.spanPages((int) (mdl.virtualAddress() & (p - 1)), Math.max(length, 1), p);
                long needed = NdkLogicalAddressMapping.bytesFor(span);
                NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) Math.min(0xFFFF_FFFFL,
                        kind == Kind.SMALL_BUFFER ? needed - 8 : needed));
                Outcome o = t.buildLam(mdl, length, lam);
                if (kind == Kind.VALID && !o.succeeded() && !Refusals.isAllowedRefusal(o.status())) {
                    throw Violations.of("LAM-7", o.call(), "STATUS_SUCCESS for a valid chain with a large enough buffer", o.describe());
                }
            }
        });
    }

    // ------------------------------------------------------------------ LAM-REL-1

    /** Everything of one MDL that NdkReleaseLam must leave as it was. */
    private record MdlState(Mdl mdl, long startVa, int byteOffset, int byteCount, long[] pfns, Mdl next, int modifications, List<byte[]> frames) {
        static MdlState of(NdkSession s, Mdl m) {
            List<byte[]> frames = new ArrayList<>();
            for (long pfn : m.pfns()) {
                frames.add(s.memory().snapshot(pfn));
            }
            return new MdlState(m, m.startVa(), m.byteOffset(), m.byteCount(), m.pfnsCopy(), m.next(), m.modificationCount(), frames);
        }

        String differs(NdkSession s) {
            MdlState now = of(s, mdl);
            if (now.startVa != startVa || now.byteOffset != byteOffset || now.byteCount != byteCount || !Arrays.equals(now.pfns, pfns)) {
                return "its StartVa, ByteOffset, ByteCount or page frames changed: " + mdl;
            }
            if (now.next != next) {
                return "its Next changed from " + next + " to " + now.next;
            }
            if (now.modifications != modifications) {
                return "its Next was written " + (now.modifications - modifications) + " time(s)";
            }
            for (int i = 0; i < frames.size(); i++) {
                if (!Arrays.equals(frames.get(i), now.frames.get(i))) {
                    return "the bytes of its page frame " + Hex.u64(pfns[i]) + " changed";
                }
            }
            return null;
        }
    }

    /**
     * LAM-REL-1: after NdkBuildLam and NdkReleaseLam every MDL of the chain (one to three MDLs) is as it was
     * before NdkBuildLam: StartVa, ByteOffset, ByteCount, page frames, Next (never even rewritten: the
     * modification count is unchanged) and the bytes of its frames.
     */
    @Property
    @Tag("LAM-REL-1")
    void releaseLeavesTheMdlAsItWas(@ForAll("validChains") RegPlan plan) {
        Checks.cover("case", plan.edge(), this::validChains, RegPlan::edge);
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                RegScenario sc = RegScenario.prepare(s, plan);
                List<MdlState> before = new ArrayList<>();
                for (Mdl m = sc.chain(); m != null; m = m.next()) {
                    before.add(MdlState.of(s, m));
                }
                long span = Mdl.spanPages(sc.chain().byteOffset(), plan.length(), s.pageSize());
                NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping((int) NdkLogicalAddressMapping.bytesFor(span));
                Outcome o = t.buildLam(sc.chain(), plan.length(), lam);
                Refusals.discardIfRefused(o.status());
                if (!o.succeeded()) {
                    throw Violations.of("LAM-7", o.call(), "STATUS_SUCCESS for a valid chain with a large enough buffer", o.describe());
                }
                t.releaseLam(lam);
                for (int i = 0; i < before.size(); i++) {
                    String d = before.get(i).differs(s);
                    if (d != null) {
                        throw Violations.of("LAM-REL-1", o.call() + ", then NdkReleaseLam()", "MDL " + i + " of the chain exactly as before NdkBuildLam", d);
                    }
                }
            }
        });
    }
}
