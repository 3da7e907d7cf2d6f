package org.ndktck.tck.sections;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;

/** Developer scratch timing (runs only with -Dscratch.timing). */
class ScratchTimingTest {
    @Test
    void timing() {
        if (System.getProperty("scratch.timing") == null) {
            return;
        }
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                try (NdkSession s = NdkSession.open()) {
                }
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                try (NdkSession s = NdkSession.open()) {
                    s.qps();
                }
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                try (NdkSession s = NdkSession.open(); SessionTools t = SessionTools.of(s)) {
                    s.qps();
                    t.registered(s.target(), 1, 0, 4096, 7);
                }
            }
            long t3 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                try (NdkSession s = NdkSession.open(); SessionTools t = SessionTools.of(s)) {
                    s.qps();
                    s.invoker().batch("x", () -> {
                    SessionTools.Registered r = t.registered(s.target(), 1, 0, 4096, 7);
                    s.peerRead(r.va(), r.remoteToken(), 16);
                    return null; });
                }
            }
            long t4 = System.nanoTime();
            System.out.printf("open+close %.3f ms, +qps %.3f ms, +register %.3f ms, +peerRead %.3f ms%n",
                    (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, (t4 - t3) / 1e9);
        }
    }
}
