package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.harness.Access;
import org.ndktck.tck.harness.FastRegion;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.Arrays;

import static org.ndktck.tck.harness.Hex.u32;

/**
 * MR-FR-20 (the NDK_FN_FAST_REGISTER page; from the page audit): a fast registration with remote access is reachable by
 * every connected peer that holds its token, not only through the QP that posted the fast registration.
 */
@NdkKit
public class FastRegisterReachProperties {
    private static final int RW = NdkOpFlags.ALLOW_REMOTE_READ | NdkOpFlags.ALLOW_REMOTE_WRITE;

    /**
     * MR-FR-20: a region fast-registered with ALLOW_REMOTE_READ | ALLOW_REMOTE_WRITE on the session's target QP
     * is written ({@code n} bytes at region offset k) and read back by the peer side of a second connected pair
     * whose target side is a QP of the region's PD. Both accesses must succeed, the bytes must land at byte k
     * of the region and the read must return them; the session's own peer then reads them too.
     */
    @Property(tries = 50, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("MR-FR-20")
    void anotherConnectionReachesTheRegion(@ForAll @IntRange(min = 1, max = 4) int pages,
                                           @ForAll @IntRange(min = 0, max = 4095) int fboSeed,
                                           @ForAll @IntRange(min = 0, max = 1 << 20) int seed,
                                           @ForAll @IntRange(min = 1, max = 64) int n) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                int p = s.pageSize();
                int fbo = fboSeed % p;
                FastRegion r = t.fastRegistered(pages, fbo, RW, true);
                Region region = r.region();
                int len = (int) Math.min(n, r.length());
                long k = seed % (r.length() - len + 1);
                Registered src = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_READ);
                Registered sink = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
                QpRef[] pair = t.connectedPair(0);
                byte[] data = Probes.actualAt(src.region(), 0, len);
                String how = " through a second connection (not the QP that posted the fast registration, token " + u32(r.token()) + ")";
                WorkRequest w = t.write(pair[1], new NdkSge[]{src.sge(0, len)}, r.base() + k, r.token(), 0);
                WrOutcome wo = t.complete(w);
                if (!wo.succeeded()) {
                    throw Violations.of("MR-FR-20", wo.call() + how, "STATUS_SUCCESS: any connected peer holding the token may write", wo.describe());
                }
                region.buffer().expectWrite(region.bufferOffset() + k, data);
                s.checkMemory("MR-FR-20", wo.call() + how);
                WorkRequest rd = t.read(pair[1], new NdkSge[]{sink.sge(0, len)}, r.base() + k, r.token(), 0);
                WrOutcome ro = t.complete(rd);
                byte[] got = ro.succeeded() ? Probes.actualAt(sink.region(), 0, len) : new byte[0];
                sink.buffer().acceptActual(0, len);
                if (!ro.succeeded() || !Arrays.equals(got, data)) {
                    throw Violations.of("MR-FR-20", ro.call() + how, "STATUS_SUCCESS and the bytes written " + Hex.bytes(data),
                            ro.describe() + (ro.succeeded() ? ", read " + Hex.bytes(got) : ""));
                }
                Access again = Probes.readInside(s, region, k, len);
                if (!again.succeeded() || !Arrays.equals(again.data(), data)) {
                    throw Violations.of("MR-FR-9", again.describe(), "the session's peer reads the bytes the other connection wrote "
                            + Hex.bytes(data), again.outcome().describe());
                }
            }
        });
    }
}
