package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.ChecksReached;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;

import static org.ndktck.tck.properties.Checks.accepted;
import static org.ndktck.tck.harness.Hex.u32;

/**
 * Calls the consumer must not make, made on purpose (rule SEC-1). The pages leave the
 * provider's answer open: refusing is what the reference does, accepting is recorded as an ADVISORY finding
 * under the consumer rule that was broken (MR-FR-1, MR-DEREG-1, SGE-1). What no answer may do is let a token
 * reach memory or rights its registration never granted: that FAILs SEC-1.
 */
@NdkKit
public class ConsumerMisuseProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;

    /**
     * SEC-1 (with MR-FR-1 and MR-DEREG-1 broken on purpose): an MR is fast-registered over buffer A (remote read
     * and write) and its remote token T read; then, without an NdkInvalidate, optionally an NdkDeregisterMr of the
     * fast-register MR (MR-DEREG-1), and a second NdkFastRegister of the same MR over buffer B, at A's
     * BaseVirtualAddress or elsewhere. Refusing either call is fine. When the second one completes with success,
     * the peer reads and writes with T at the second registration's addresses: reaching B's bytes (the read
     * returns them, or the write changes them) fails SEC-1 when the second registration reports another remote token
     * (T is then a token the consumer was never given for B); when it reports T again, T is B's own token and reaching
     * B is what it grants. No other byte may change (the session's memory check).
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SEC-1")
    void aFastRegistrationReplacedWithoutInvalidationKeepsTheOldTokenOut(@ForAll @IntRange(min = 1, max = 4) int pages,
                                                                      @ForAll @IntRange(min = 0, max = 4095) int fboSeed,
                                                                      @ForAll @IntRange(min = 8, max = 64) int nSeed,
                                                                      @ForAll @IntRange(min = 0, max = 1 << 20) int seed,
                                                                      @ForAll boolean sameBase, @ForAll boolean deregisterFirst) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                int fbo = fboSeed % p;
                FastRegion a = t.fastRegistered(pages, fbo, RW, true);
                int oldToken = a.token();
                if (deregisterFirst) {
                    Outcome d = s.deregister(a.mr());
                    if (d.succeeded()) {
                        accepted("MR-DEREG-1", d.call(), "NdkDeregisterMr of a fast-register MR");
                    }
                }
                HostBuffer b = s.allocate(pages);
                Mdl mdl = b.mdl(t.freshVa() + fbo, 0, (int) a.length());
                Lam lam = s.buildLam(mdl, a.length());
                long base = sameBase ? a.base() : t.freshVa() + (1L << 20) + fbo;
                WrOutcome again = s.fastRegister(s.target().qp(), a.mr(), pages, lam.pages(), fbo, a.length(), base, RW);
                Refusals.discardIfRefused(again.status());
                if (!again.succeeded()) {
                    ChecksReached.notReached("SEC-1", "the provider refused the second NdkFastRegister of an MR never invalidated"
                            + " (allowed), so no old token could be probed");
                    s.drain(s.target());
                    return;
                }
                int newToken = s.remoteToken(a.mr());
                accepted("MR-FR-1", again.call(), "NdkFastRegister of an MR whose fast registration was never invalidated");
                String context = again.call() + " (accepted) replaced the registration whose remote token " + u32(oldToken)
                        + " the peer holds" + (deregisterFirst ? ", after an NdkDeregisterMr of the fast-register MR" : "")
                        + "; the new registration reports remote token " + u32(newToken);
                Region bOld = new Region(b, fbo, base, a.length(), oldToken);
                Region aRegion = a.region();
                int n = Math.min(nSeed, (int) Math.min(a.length(), s.maxAccess()));
                long k = seed % (a.length() - n + 1);
                byte[] bBytes = Probes.actualAt(bOld, k, n);
                byte[] aBytes = Probes.actualAt(aRegion, k, n);
                Access rd = Probes.readInside(s, bOld, k, n);
                // a second registration that reports the old token value again is reached by it as by its own token:
                // the consumer holds that value for the new registration (as after NdkInvalidate and a new fast
                // registration that keeps the token, MR-TOK-4), so only a token the new registration does not report
                // reaching its bytes exposes memory
                boolean sameToken = newToken == oldToken;
                if (!sameToken && rd.succeeded() && Arrays.equals(rd.data(), bBytes) && !(sameBase && Arrays.equals(rd.data(), aBytes))) {
                    throw Violations.of("SEC-1", rd.describe() + " with the old token " + u32(oldToken) + "; " + context,
                            "an error (or the old registration's bytes): the old token grants nothing of the registration that "
                                    + "replaced it", "it read the new registration's bytes " + Hex.bytes(rd.data()));
                }
                byte[] data = SessionTools.complement(bBytes);
                Access w = s.peerWrite(base + k, oldToken, data);
                if (w.succeeded()) {
                    if (!sameToken && Arrays.equals(Probes.actualAt(bOld, k, n), data)) {
                        throw Violations.of("SEC-1", w.describe() + " with the old token " + u32(oldToken) + "; " + context,
                                "an error (or a write into the old registration's pages): the old token grants nothing of the "
                                        + "registration that replaced it", "it wrote " + Hex.bytes(data) + " into the new registration's pages");
                    }
                    if (sameToken && Arrays.equals(Probes.actualAt(bOld, k, n), data)) {
                        b.expectWrite(bOld.bufferOffset() + k, data); // B's own token wrote B
                    }
                    if (sameBase && Arrays.equals(Probes.actualAt(aRegion, k, n), data)) {
                        // the provider kept the old registration in effect: writing it is what its token granted
                        a.buffer().expectWrite(aRegion.bufferOffset() + k, data);
                    }
                }
                s.checkMemory("SEC-1", () -> "peer accesses with the old token " + u32(oldToken) + "; " + context);
                s.drain(s.target());
            }
        });
    }

    /**
     * SEC-1 (with SGE-1 broken on purpose): the target posts an NdkSend from, or an NdkReceive into, an SGE that
     * names the target PD's privileged token at an address inside a normal registration of the target (local read
     * and write) while no LAM is live. Refusing it (inline or with an error completion) is what the rules ask; an
     * accepted send or receive that moves the registration's bytes fails SEC-1: the privileged token reaches only
     * what LAMs map, never a registration's memory.
     */
    @Property(edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SEC-1")
    void thePrivilegedTokenReachesNoRegistrationsMemory(@ForAll @IntRange(min = 1, max = 3) int pages,
                                                        @ForAll @IntRange(min = 1, max = 256) int nSeed,
                                                        @ForAll @IntRange(min = 0, max = 1 << 20) int seed,
                                                        @ForAll boolean receive) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                long length = (long) pages * p;
                Registered r = t.registered(s.target(), pages, 0, length,
                        NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_LOCAL_READ);
                Registered other = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_LOCAL_READ);
                int priv = t.privilegedToken(s.target().pd());
                int n = Math.min(nSeed, p / 2);
                long k = seed % (length - n + 1);
                NdkSge misuse = new NdkSge(r.va() + k, n, priv);
                String what = "an SGE with the privileged token " + u32(priv) + " at " + Hex.u64(misuse.address())
                        + ", inside a normal registration (local token " + u32(r.localToken()) + ") and inside no LAM";
                if (receive) {
                    byte[] data = SessionTools.complement(r.buffer().expected(r.bufferOffset() + k, n));
                    other.buffer().put(0, data);
                    other.buffer().expectWrite(0, data);
                    WorkRequest recv = t.receive(t.target(), new NdkSge[]{misuse}, NdkOperationType.RECEIVE);
                    // a receive refused inline leaves nothing for the peer's send to meet: no send then
                    WrOutcome so = NtStatus.STATUS_SUCCESS.equals(recv.returned())
                            ? t.complete(t.send(t.peer(), new NdkSge[]{other.sge(0, n)}, 0)) : null;
                    WrOutcome ro = so == null ? null : t.complete(recv);
                    if (ro != null && ro.succeeded()) {
                        accepted("SGE-1", ro.call(), what);
                        if (Arrays.equals(r.buffer().read(r.bufferOffset() + k, n), data)) {
                            throw Violations.of("SEC-1", ro.call() + " into " + what + " (the peer's send " + so.describe() + ")",
                                    "an error: the privileged token reaches no registration's memory",
                                    "it completed with success and wrote the sent bytes " + Hex.bytes(data) + " into the registration");
                        }
                    }
                } else {
                    byte[] held = r.buffer().read(r.bufferOffset() + k, n);
                    WorkRequest recv = t.receive(t.peer(), new NdkSge[]{other.sge(0, n)}, NdkOperationType.RECEIVE);
                    WrOutcome so = t.complete(t.send(t.target(), new NdkSge[]{misuse}, 0));
                    if (so.succeeded()) {
                        accepted("SGE-1", so.call(), what);
                        WrOutcome ro = t.complete(recv);
                        byte[] got = other.buffer().read(0, n);
                        if (ro.succeeded() && Arrays.equals(got, held)) {
                            throw Violations.of("SEC-1", so.call() + " from " + what,
                                    "an error: the privileged token reaches no registration's memory",
                                    "it completed with success and the peer received the registration's bytes " + Hex.bytes(got));
                        }
                        other.buffer().acceptActual(0, n);
                    }
                }
                s.checkMemory("SEC-1", () -> "a send or receive with " + what);
                s.drain(s.target());
                s.drain(s.peer());
            }
        });
    }
}
