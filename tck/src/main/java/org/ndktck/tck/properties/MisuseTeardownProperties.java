package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.tck.harness.ChecksReached;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WrOutcome;

import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * The take-down calls of the wrong family, made on purpose (rule SEC-1): NdkInvalidate of an MR
 * registered with NdkRegisterMr (INV-1 broken) and NdkDeregisterMr of a fast-registered MR (MR-DEREG-1 broken).
 * Refusing either is what the reference does; accepting one is ADVISORY under the consumer rule
 * ({@link ConsumerMisuseProperties#accepted}). A provider that reports such a call successful has told the consumer
 * the registration's access is gone: a remote token that still reaches the memory afterwards grants more than its
 * (now taken-down) registration does, and FAILs SEC-1.
 */
@NdkKit
public class MisuseTeardownProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;

    /**
     * SEC-1 (INV-1 broken on purpose): a normal registration of 1 to 3 pages (remote read, remote read and write, or
     * local access only) is invalidated with NdkInvalidate on the target QP. Refused (inline or in its entry): the
     * try ends. Completed with success: the peer reads and writes {@code n} bytes at offset k with the region's
     * remote token, and both must fail with no byte changed (the session's memory check).
     *
     * @param pages    pages of the registration
     * @param flagsSel which access the registration grants
     * @param nSeed    bytes of each probe (capped by the region and the peer's largest access)
     * @param seed     picks k
     */
    @Property(tries = 30, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SEC-1")
    void anInvalidatedNormalRegistrationGrantsNothing(@ForAll @IntRange(min = 1, max = 3) int pages,
                                                     @ForAll @IntRange(min = 0, max = 2) int flagsSel,
                                                     @ForAll @IntRange(min = 1, max = 64) int nSeed,
                                                     @ForAll @IntRange(min = 0, max = 1 << 20) int seed) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int flags = switch (flagsSel) {
                    case 0 -> NdkMrFlags.ALLOW_REMOTE_READ;
                    case 1 -> NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE;
                    default -> NdkMrFlags.ALLOW_LOCAL_WRITE;
                };
                long length = (long) pages * p;
                Registered r = t.registered(s.target(), pages, 0, length, flags);
                WrOutcome inv = s.invalidate(r.mr(), 0);
                if (!inv.succeeded()) {
                    ChecksReached.notReached("SEC-1", "the provider refused NdkInvalidate of a normal registration (allowed), so"
                            + " there was no invalidated registration to probe");
                    return;
                }
                Checks.accepted("INV-1", inv.call(), "NdkInvalidate of an MR registered with NdkRegisterMr");
                String context = inv.call() + " of a normal registration (" + NdkMrFlags.describe(flags) + ", remote token "
                        + u32(r.remoteToken()) + ") completed with success";
                probeDead(s, r.region(), nSeed, seed, context);
            }
        });
    }

    /**
     * SEC-1 (MR-DEREG-1 broken on purpose): a fast registration of 1 to 4 pages (remote read and write) is taken
     * down with NdkDeregisterMr instead of NdkInvalidate. Refused: the try ends (the session's tear-down closes the
     * MR). Completed with success: the peer reads and writes with the registration's remote token, and both must
     * fail with no byte changed.
     *
     * @param pages   pages of the registration
     * @param fboSeed FBO (modulo PAGE_SIZE)
     * @param nSeed   bytes of each probe
     * @param seed    picks the probe's offset
     */
    @Property(tries = 30, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("SEC-1")
    void aDeregisteredFastRegistrationGrantsNothing(@ForAll @IntRange(min = 1, max = 4) int pages,
                                                    @ForAll @IntRange(min = 0, max = 4095) int fboSeed,
                                                    @ForAll @IntRange(min = 1, max = 64) int nSeed,
                                                    @ForAll @IntRange(min = 0, max = 1 << 20) int seed) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                int p = s.pageSize();
                FastRegion a = t.fastRegistered(pages, fboSeed % p, RW, true);
                Outcome d = s.deregister(a.mr());
                if (!d.succeeded()) {
                    ChecksReached.notReached("SEC-1", "the provider refused NdkDeregisterMr of a fast-register MR (allowed), so"
                            + " there was no deregistered registration to probe");
                    return;
                }
                Checks.accepted("MR-DEREG-1", d.call(), "NdkDeregisterMr of a fast-register MR");
                String context = d.call() + " of a fast-registered MR (remote token " + u32(a.token()) + ") completed with success";
                probeDead(s, a.region(), nSeed, seed, context);
            }
        });
    }

    /**
     * The peer reads and then writes {@code n} bytes at region offset k with the region's remote token; a read that
     * returns the region's bytes, or a write that changes them, fails SEC-1, and no byte may change.
     */
    private static void probeDead(NdkSession s, Region r, int nSeed, int seed, String context) {
        int n = Math.min(nSeed, (int) Math.min(r.length(), s.maxAccess()));
        long k = Integer.toUnsignedLong(seed) % (r.length() - n + 1);
        byte[] held = Probes.actualAt(r, k, n);
        Access rd = Probes.readInside(s, r, k, n);
        if (rd.succeeded() && Arrays.equals(rd.data(), held)) {
            throw Violations.of("SEC-1", rd.describe() + " with the remote token " + u32(r.remoteToken()) + " after " + context,
                    "an error: the provider reported the registration taken down, so its token reaches nothing",
                    "it read the registration's bytes " + Hex.bytes(rd.data()));
        }
        byte[] data = SessionTools.complement(held);
        Access w = s.peerWrite(r.base() + k, r.remoteToken(), data);
        if (w.succeeded() && Arrays.equals(Probes.actualAt(r, k, n), data)) {
            throw Violations.of("SEC-1", w.describe() + " with the remote token " + u32(r.remoteToken()) + " after " + context,
                    "an error: the provider reported the registration taken down, so its token reaches nothing",
                    "it wrote " + Hex.bytes(data) + " into the registration's memory");
        }
        s.checkMemory("SEC-1", () -> "peer accesses with the remote token " + u32(r.remoteToken()) + " after " + context);
    }
}
