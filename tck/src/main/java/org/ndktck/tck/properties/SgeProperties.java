package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * Properties of NDK_SGE (catalog section "NDK_SGE"). SGE-1 and SGE-4 bind the kit and are obeyed by it,
 * except in the SGE-2 property, which breaks SGE-1 on purpose.
 */
@NdkKit
public class SgeProperties {

    /** How the SGE of the SGE-2 property is wrong. */
    enum Bad {
        /** Starts inside the region and ends past it (VA = end − 8, 16 bytes). */
        PAST_END,
        /** Starts 8 bytes before the region, 16 bytes. */
        BEFORE_START,
        /** Address 2^64 − 8, 16 bytes: the range wraps past 2^64. */
        WRAPS,
        /** A token of a region registered on another PD (the address inside that region). */
        FOREIGN_PD,
        /** The token of a deregistered region (the address inside it). */
        DEREGISTERED,
        /** A token no registration of the kit holds. */
        MADE_UP
    }

    /** The request the bad SGE is used in. */
    enum Use {
        /** Source of NdkSend. */
        SEND,
        /** Source of NdkWrite. */
        WRITE,
        /** Sink of NdkReceive. */
        RECEIVE,
        /** Sink of NdkRead. */
        READ
    }

    /**
     * The target region of SGE-2: registered over {@code pages} pages from byte offset {@code offset} of
     * the first page, Length {@code length}.
     */
    record Shape(int pages, int offset, long length) {
    }

    @Provide
    Arbitrary<Shape> shapes() {
        int p = Limits.current().pageSize();
        Arbitrary<Shape> random = Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.integers().between(8, p - 32),
                Arbitraries.doubles().between(0, 1)).as((pages, off, f) -> {
                    long max = (long) pages * p - off;
                    long len = 16 + (long) (f * (max - 16));
                    return new Shape(pages, off, len);
                });
        return random.edgeCases(c -> c.add(new Shape(1, 8, p - 8), new Shape(1, 8, p - 16), new Shape(2, p - 8, p + 8)));
    }

    /** One SGE-2 case: what is wrong with the SGE, where it is used, the region, and a seed for offsets. */
    record BadSge(Bad bad, Use use, Shape shape, int seed) {
    }

    @Provide
    Arbitrary<BadSge> badSges() {
        int p = Limits.current().pageSize();
        Arbitrary<BadSge> random = Combinators.combine(Arbitraries.of(Bad.class), Arbitraries.of(Use.class), shapes(),
                Arbitraries.integers().between(0, 1 << 20)).as(BadSge::new);
        java.util.List<BadSge> edges = new java.util.ArrayList<>();
        Shape[] shapes = {new Shape(1, 8, p - 8), new Shape(2, p - 8, p + 8), new Shape(1, 8, p - 16)};
        int i = 0;
        for (Bad b : Bad.values()) {
            for (Use u : Use.values()) {
                edges.add(new BadSge(b, u, shapes[i++ % shapes.length], 0));
            }
        }
        return random.edgeCases(e -> e.filter(x -> false).add(edges.toArray(new BadSge[0])));
    }

    /**
     * SGE-2 (MUST, kit interpretation): an SGE that reaches outside the region its token names (past the end,
     * before the start, wrapping past 2^64), or carries a token of another PD, of a deregistered region or a
     * made-up one, makes the Send, Write, Receive or Read fail (inline or with an error completion; any
     * error), and no byte is read into or written out of memory the token does not cover: every painted
     * buffer (the target's, the peer's) is unchanged and no guard frame is touched. A region that ends on a
     * page boundary puts the guard frame right after the past-the-end SGE.
     */
    @CoverageClasses(6)
    @Property
    @Tag("SGE-2")
    void anSgeOutsideItsTokensRegionFailsWithoutTouchingMemory(@ForAll("badSges") BadSge c) {
        Bad bad = c.bad();
        Use use = c.use();
        Shape shape = c.shape();
        int seed = c.seed();
        SectionChecks.cover("bad SGE", bad.name(), Arrays.stream(Bad.values()).map(Enum::name).toList());
        SectionChecks.cover("use", use.name(), Arrays.stream(Use.values()).map(Enum::name).toList());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int flags = NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag();
                Registered region = t.registered(s.target(), shape.pages(), shape.offset(), shape.length(), flags);
                Registered peer = t.registered(s.peer(), 1, 0, p,
                        NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_REMOTE_READ);
                NdkSge sge = switch (bad) {
                    case PAST_END -> new NdkSge(region.va() + region.length() - 8, 16, region.localToken());
                    case BEFORE_START -> new NdkSge(region.va() - 8, 16, region.localToken());
                    case WRAPS -> new NdkSge(-8L, 16, region.localToken());
                    case FOREIGN_PD -> {
                        Registered other = t.registered(s.peer(), 1, 0, p, flags);
                        yield other.sge(seed % (p - 16), 16);
                    }
                    case DEREGISTERED -> {
                        Registered gone = t.registered(s.target(), 1, 0, p, flags);
                        Outcome o = s.deregister(gone.mr());
                        Refusals.discardIfRefused(o.status()); // MR-DEREG-2 "other status codes": a shortage judges nothing
                        if (!o.succeeded()) {
                            throw Violations.of("MR-DEREG-2", o.call(), "STATUS_SUCCESS", o.describe());
                        }
                        yield gone.sge(seed % (p - 16), 16);
                    }
                    case MADE_UP -> new NdkSge(region.va(), 16, madeUp(region.localToken(), peer.localToken(), seed));
                };
                String what = "an SGE " + bad + " (" + sge + ") of the region [" + Hex.u64(region.va()) + ", +" + Hex.u64(region.length())
                        + ") with local token " + u32(region.localToken());
                WrOutcome o = switch (use) {
                    case WRITE -> t.complete(t.write(t.target(), new NdkSge[]{sge}, peer.va(), peer.remoteToken(), 0));
                    case READ -> t.complete(t.read(t.target(), new NdkSge[]{sge}, peer.va(), peer.remoteToken(), 0));
                    case SEND -> {
                        t.receive(t.peer(), new NdkSge[]{peer.sge(0, 64)}, NdkOperationType.RECEIVE);
                        yield t.complete(t.send(t.target(), new NdkSge[]{sge}, 0));
                    }
                    case RECEIVE -> {
                        WorkRequest recv = t.receive(t.target(), new NdkSge[]{sge}, NdkOperationType.RECEIVE);
                        WrOutcome send = t.complete(t.send(t.peer(), new NdkSge[]{peer.sge(0, 16)}, 0));
                        if (!send.succeeded() && recv.entry() == null && NtStatus.STATUS_SUCCESS.equals(recv.returned())) {
                            s.drain(s.target());
                        }
                        yield send.succeeded() || recv.entry() != null || !NtStatus.STATUS_SUCCESS.equals(recv.returned())
                                ? t.complete(recv) : new WrOutcome(recv::detail, recv.returned(), NtStatus.STATUS_PENDING, null);
                    }
                };
                if (o.succeeded()) {
                    throw Violations.of("SGE-2", o.call() + " with " + what, "an error (inline or as the completion status)", o.describe());
                }
                s.checkMemory("SGE-2", o.call() + " with " + what);
            }
        });
    }

    private static int madeUp(int a, int b, int seed) {
        int v = 0x5EED_0000 ^ seed * 0x9E3779B1;
        while (v == a || v == b || v == 0) {
            v = v * 31 + 7;
        }
        return v;
    }

    /** The SGE token of an SGE-3 try. */
    enum InlineToken {
        /** 0xFFFFFFFF. */
        ALL_ONES,
        /** 0. */
        ZERO,
        /** The source region's own local token (valid: ignoring it must not break it either). */
        OWN,
        /**
         * The local token of another live registration of the same PD, which does not hold the source bytes: the
         * provider must find them by address, not in the region the token names.
         */
        OTHER
    }

    /**
     * SGE-3: an NdkSend, or an NdkWrite, with NDK_OP_FLAG_INLINE (on QPs created with an InlineDataSize) whose
     * SGE token is 0xFFFFFFFF, 0, the source region's own token or the token of another registration of the same
     * PD (one that does not hold the source bytes) succeeds, and the peer's receive buffer (or
     * the peer region written) holds the source bytes, in order. The source lies in memory registered on the
     * target's PD (the SPI moves bytes through page frames only). Half the tries put the bytes across a page
     * boundary of the source and of the peer's buffer, and, where the QP takes two SGEs, half split the source
     * into two SGEs (so the inline bytes are gathered and scattered in several pieces); the receive buffer is
     * often longer than the message, and its bytes past the message stay unchanged. The try is rejected when
     * the adapter offers no inline data. The NdkWrite page does not list NDK_OP_FLAG_INLINE among its flags, so an
     * inline NdkWrite may be refused (inline, or with an error entry); nothing outside its target bytes may change,
     * and the try then judges the same bytes and token through an inline NdkSend on a fresh pair. A write refused for a
     * bogus token while the same write with the source's own token succeeds breaks SGE-3.
     */
    @Property(tries = 200, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SGE-3")
    void inlineRequestsIgnoreTheSgeToken(@ForAll InlineToken tokenKind, @ForAll boolean write, @ForAll @IntRange(min = 1, max = 256) int nSeed,
                                         @ForAll @IntRange(min = 0, max = 1 << 20) int seed, @ForAll boolean straddle,
                                         @ForAll boolean twoSges) {
        NdkSession.inTry(s -> {
            int inline = (int) Math.min(256, Integer.toUnsignedLong(s.info().maxInlineDataSize()));
            net.jqwik.api.Assume.that(inline > 0);
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int n = 1 + (nSeed - 1) % inline;
                QpRef[] pair = t.connectedPair(inline);
                Registered src = t.registered(s.target(), 2, 0, 2L * p, NdkMrFlags.ALLOW_LOCAL_READ);
                Registered sink = t.registered(s.peer(), 2, 0, 2L * p, write
                        ? NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_WRITE : NdkMrFlags.ALLOW_LOCAL_WRITE);
                boolean cross = straddle && n > 1;
                // k (source) and j (peer buffer): with cross, both ranges start 1 to n - 1 bytes before a page end
                int k = cross ? p - 1 - seed % (n - 1) : seed % (p - n + 1);
                int j = cross ? p - 1 - (seed >>> 8) % (n - 1) : 0;
                boolean split = twoSges && n > 1 && Math.min(2, Integer.toUnsignedLong(s.info().maxInitiatorRequestSge())) >= 2;
                int m = split ? 1 + (seed >>> 4) % (n - 1) : n;
                int token = switch (tokenKind) {
                    case ALL_ONES -> 0xFFFF_FFFF;
                    case ZERO -> 0;
                    case OWN -> src.localToken();
                    case OTHER -> t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ).localToken();
                };
                NdkSge[] sges = split
                        ? new NdkSge[]{new NdkSge(src.va() + k, m, token), new NdkSge(src.va() + k + m, n - m, token)}
                        : new NdkSge[]{new NdkSge(src.va() + k, n, token)};
                byte[] expected = src.buffer().read(k, n);
                WrOutcome ro = null;
                WrOutcome sent = null;
                boolean viaSend = !write;
                if (write) {
                    sent = t.complete(t.write(pair[0], sges, sink.va() + j, sink.remoteToken(), NdkOpFlags.INLINE));
                    if (!sent.succeeded()) {
                        // the NdkWrite page lists SILENT_SUCCESS, READ_FENCE and DEFER only: a provider may refuse INLINE on
                        // a write (inline or through an error entry); the failed write may have reached only its target bytes
                        sink.buffer().acceptActual(j, n);
                        if (tokenKind != InlineToken.OWN) {
                            // the same write with the source's own token, on a fresh pair: if the provider takes that one,
                            // it takes INLINE on writes, and the bogus token is what made it fail
                            NdkSge[] own = Arrays.stream(sges).map(g -> new NdkSge(g.address(), g.length(), src.localToken()))
                                    .toArray(NdkSge[]::new);
                            WrOutcome control = t.complete(t.write(t.connectedPair(inline)[0], own, sink.va() + j, sink.remoteToken(),
                                    NdkOpFlags.INLINE));
                            if (control.succeeded()) {
                                throw Violations.of("SGE-3", sent.call() + " (InlineDataSize " + inline + ")", "STATUS_SUCCESS: an "
                                        + "INLINE request ignores its SGE token (the same write with the source's own token succeeded: "
                                        + control.call() + ")", sent.describe());
                            }
                            sink.buffer().acceptActual(j, n);
                        }
                        s.checkMemory("SGE-3", sent.call() + " (INLINE refused)");
                        viaSend = true; // the same bytes and token through an inline NdkSend, whose page lists INLINE
                    }
                }
                if (viaSend) {
                    QpRef[] via = write ? t.connectedPair(inline) : pair;
                    // the receive buffer is often longer than the message, as receive buffers usually are
                    int extra = (seed >>> 12) % 3 == 0 ? 0 : 1 + (seed >>> 14) % 64;
                    WorkRequest recv = t.receive(via[1], new NdkSge[]{sink.sge(j, n + extra)}, NdkOperationType.RECEIVE);
                    sent = t.complete(t.send(via[0], sges, NdkOpFlags.INLINE));
                    if (sent.succeeded()) {
                        ro = t.complete(recv);
                    }
                }
                if (!sent.succeeded()) {
                    throw Violations.of("SGE-3", sent.call() + " (InlineDataSize " + inline + ")",
                            "STATUS_SUCCESS: an INLINE request ignores its SGE token", sent.describe());
                }
                byte[] got = sink.buffer().read(j, n);
                if ((ro != null && !ro.succeeded()) || !Arrays.equals(got, expected)) {
                    throw Violations.of("SGE-3", sent.call(), "the source bytes " + Hex.bytes(expected) + " at offset " + j
                                    + " of the peer's " + (viaSend ? "receive buffer" : "region"),
                            (ro == null ? "" : "the receive " + ro.describe() + ", ") + "the buffer holds " + Hex.differing(expected, got, j, "buffer byte"));
                }
                sink.buffer().expectWrite(j, expected);
            }
        });
    }
}
