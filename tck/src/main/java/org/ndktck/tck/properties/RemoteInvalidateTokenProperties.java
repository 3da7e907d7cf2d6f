package org.ndktck.tck.properties;

import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * COV-3: an NdkSendAndInvalidate whose token names no live fast registration of the receiving QP's PD
 * invalidates nothing. The target keeps fast registrations A and B and an NdkRegisterMr region M live (and
 * fast registration C, invalidated with NdkInvalidate before), the peer an NdkRegisterMr region P and a fast
 * registration Q on its own PD. On a separate connected pair of QPs (so an error state the bad token may cause does not reach the probes)
 * the peer sends NdkSendAndInvalidate with a bad token into a posted receive; whatever their completion
 * statuses, A, B, M and P must then still take an access with their tokens and move the right bytes.
 */
@NdkKit
public class RemoteInvalidateTokenProperties {

    /** The bad token of the SendAndInvalidate. */
    enum BadToken {
        /** A token no registration of the adapter holds. */
        NEVER_ISSUED,
        /** The remote token of P, a registration of the peer's PD (not the receiving QP's). */
        ANOTHER_PD,
        /**
         * The remote token of Q, a live fast registration of the peer's PD: a fast registration, so a provider that
         * checks only "is it fast-registered?" and not the receiving QP's PD invalidates it.
         */
        ANOTHER_PD_FAST,
        /** The local token of A or of M, where it differs from that registration's remote token. */
        LOCAL_TOKEN,
        /** C's token, invalidated with NdkInvalidate before. */
        ALREADY_INVALIDATED
    }

    /**
     * COV-3: a SendAndInvalidate carrying a token that names nothing it may invalidate leaves every other
     * registration working.
     *
     * @param bad   the bad token's kind
     * @param pages pages of each fast registration (1 to 3)
     * @param n     bytes sent (1 to 64)
     * @param seed  picks the made-up token and which local token
     */
    @CoverageClasses(5)
    @Property(tries = 120, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("COV-3")
    void aSendAndInvalidateWithABadTokenInvalidatesNothingElse(@ForAll BadToken bad, @ForAll @IntRange(min = 1, max = 3) int pages,
            @ForAll @IntRange(min = 1, max = 64) int n, @ForAll int seed) {
        SectionChecks.cover("bad token", bad.name(), Arrays.stream(BadToken.values()).map(Enum::name).toList());
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int rw = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;
                int mrRw = NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE;
                // Q first: the target's fast registrations stay the most recent ones (a provider that invalidates "the
                // latest" instead of the named one must hit a registration of the receiving PD)
                FastRegion q = peerFastRegistered(s, t, pages, rw);
                FastRegion a = t.fastRegistered(pages, 0, rw, true);
                FastRegion b = t.fastRegistered(pages, 0, rw, true);
                FastRegion c = t.fastRegistered(pages, 0, rw, true);
                WrOutcome inv = s.invalidate(c.mr(), 0);
                Assume.that(inv.succeeded());
                Registered m = t.registered(s.target(), 1, 0, p, mrRw);
                Registered other = t.registered(s.peer(), 1, 0, p, mrRw);
                int token = switch (bad) {
                    case NEVER_ISSUED -> madeUp(seed, List.of(a.token(), b.token(), c.token(), m.remoteToken(), other.remoteToken(),
                            a.local(), b.local(), m.localToken(), other.localToken(), q.token(), q.local()));
                    case ANOTHER_PD -> other.remoteToken();
                    case ANOTHER_PD_FAST -> q.token();
                    case LOCAL_TOKEN -> {
                        int[] candidates = a.local() != a.token() ? new int[]{a.local(), m.localToken()} : new int[]{m.localToken()};
                        int lt = candidates[Math.floorMod(seed, candidates.length)];
                        Assume.that(lt != a.token() && lt != b.token() && lt != m.remoteToken() && lt != other.remoteToken());
                        yield lt;
                    }
                    case ALREADY_INVALIDATED -> c.token();
                };
                Assume.that(token != a.token() && token != b.token() && (bad == BadToken.ANOTHER_PD_FAST || token != q.token()));
                QpRef[] pair = t.connectedPair(0);
                Registered sink = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                WorkRequest recv = t.receive(pair[0], new NdkSge[]{sink.sge(0, n)}, NdkOperationType.RECEIVE_AND_INVALIDATE)
                        .acceptEitherReceiveType();
                WorkRequest send = t.sendAndInvalidate(pair[1], new NdkSge[]{src.sge(0, n)}, token, 0);
                WrOutcome so = t.complete(send);
                // a send refused before it left delivers nothing: its receive stays posted until tear-down flushes it
                boolean sendRefusedInline = !org.ndktck.spec.NtStatus.STATUS_SUCCESS.equals(so.returned())
                        && !org.ndktck.spec.NtStatus.STATUS_PENDING.equals(so.returned());
                String ro = sendRefusedInline && recv.entry() == null ? "not completed (the send failed inline)" : t.complete(recv).describe();
                sink.buffer().acceptActual(0, n);
                String after = " after the peer's " + so.call() + " with " + bad + " token " + u32(token) + " (send: " + so.describe()
                        + "; receive: " + ro + ")";
                stillWorks(s, "fast registration A", a.region(), after);
                stillWorks(s, "fast registration B", b.region(), after);
                stillWorks(s, "the NdkRegisterMr region M of the target's PD", m.region(), after);
                // P lives on the peer's PD: the target reaches it with NdkWrite and NdkRead of its own
                byte[] data = SessionTools.complement(other.buffer().expected(0, 8));
                Registered local = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
                local.buffer().put(0, data);
                WrOutcome w = t.complete(t.write(t.target(), new NdkSge[]{local.sge(0, 8)}, other.va(), other.remoteToken(), 0));
                byte[] landed = other.buffer().read(0, 8);
                if (!w.succeeded() || !Arrays.equals(landed, data)) {
                    throw Violations.of("COV-3", w.call() + " into the peer PD's region P with its token " + u32(other.remoteToken()) + after,
                            "STATUS_SUCCESS and " + Hex.bytes(data) + " in P: nothing but the named registration may be invalidated",
                            w.describe() + "; P holds " + Hex.differing(data, landed, 0, "byte of P"));
                }
                other.buffer().expectWrite(0, data);
                // Q too, a fast registration of the peer's PD: the target's NdkWrite with Q's token still lands
                byte[] qData = SessionTools.complement(q.buffer().expected(0, 8));
                local.buffer().put(0, qData);
                WrOutcome qw = t.complete(t.write(t.target(), new NdkSge[]{local.sge(0, 8)}, q.base(), q.token(), 0));
                byte[] qLanded = q.buffer().read(0, 8);
                if (!qw.succeeded() || !Arrays.equals(qLanded, qData)) {
                    throw Violations.of("COV-3", qw.call() + " into the peer PD's fast registration Q with its token " + u32(q.token()) + after,
                            "STATUS_SUCCESS and " + Hex.bytes(qData) + " in Q: a SendAndInvalidate may invalidate only a fast "
                                    + "registration of the receiving QP's PD", qw.describe() + "; Q holds " + Hex.bytes(qLanded));
                }
                q.buffer().expectWrite(0, qData);
                s.checkMemory("COV-3", "accesses of the live registrations" + after);
            }
        });
    }

    /** The peer writes and reads back a few bytes of a region that must still be live. */
    private static void stillWorks(NdkSession s, String name, Region r, String after) {
        int n = (int) Math.min(8, r.length());
        Access w = Probes.writeInside(s, r, 0, n);
        if (!w.succeeded()) {
            throw Violations.of("COV-3", w.describe() + " into " + name + " with its token " + u32(r.remoteToken()) + after,
                    "STATUS_SUCCESS: nothing but the registration the token names may be invalidated", w.outcome().describe());
        }
        Access rd = Probes.readInside(s, r, 0, n);
        byte[] expected = Probes.expectedAt(r, 0, n);
        if (!rd.succeeded() || !Arrays.equals(rd.data(), expected)) {
            throw Violations.of("COV-3", rd.describe() + " of " + name + " with its token " + u32(r.remoteToken()) + after,
                    "STATUS_SUCCESS and " + Hex.bytes(expected), rd.outcome().describe() + (rd.succeeded() ? ", read " + Hex.differing(expected, rd.data(), 0, "region byte") : ""));
        }
    }

    /**
     * A fast registration of {@code pages} pages (FBO 0, the whole pages) on the peer's PD, posted on the peer's
     * QP; a refusal the pages allow discards the try (harness Refusals), any other failure is MR-FRI-2's.
     */
    private static FastRegion peerFastRegistered(NdkSession s, SessionTools t, int pages, int flags) {
        s.qps();
        long length = (long) pages * s.pageSize();
        org.ndktck.tck.harness.HostBuffer b = s.allocate(pages);
        org.ndktck.spec.Mdl mdl = b.mdl(t.freshVa(), 0, (int) length);
        Lam lam = s.buildLam(mdl, length);
        org.ndktck.spec.NdkMr mr = s.createMr(s.peer(), true);
        Outcome init = s.initializeFastRegister(mr, pages, true);
        org.ndktck.tck.harness.Refusals.discardIfRefused(init.status());
        long base = t.freshVa() + (1L << 20);
        WrOutcome o = s.fastRegister(s.peer().qp(), mr, pages, lam.pages(), 0, length, base, flags);
        if (!init.succeeded() || !o.succeeded()) {
            throw Violations.of("MR-FRI-2", init.succeeded() ? o.call() : init.call(),
                    "STATUS_SUCCESS for a valid fast registration on the peer's PD", init.succeeded() ? o.describe() : init.describe());
        }
        return new FastRegion(b, mdl, lam, mr, pages, 0, length, base, flags, s.remoteToken(mr), s.localToken(mr));
    }

    private static int madeUp(int seed, List<Integer> live) {
        int v = 0x7A11_0000 ^ seed * 0x9E3779B1;
        while (v == 0 || live.contains(v)) {
            v = v * 31 + 11;
        }
        return v;
    }
}
