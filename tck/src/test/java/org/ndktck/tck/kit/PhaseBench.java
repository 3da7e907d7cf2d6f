package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.generators.FrCase;
import org.ndktck.tck.generators.FrPlan;
import org.ndktck.tck.harness.FrScenario;
import org.ndktck.tck.harness.Invoker;
import org.ndktck.tck.harness.NdkSession;

class PhaseBench {
    static long[] t = new long[8];

    @Test
    void phases() {
        FrPlan plan = new FrPlan(FrCase.BVA_INCONGRUENT, "x", 2, true, 2, 2, 5, 4096, 0x100000L * 4096 + 6, 0x38, -1, 0, 0);
        for (int round = 0; round < 3; round++) {
            java.util.Arrays.fill(t, 0);
            int n = 2000;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Invoker.forCurrentThread().batch("try", () -> {
                    long a = System.nanoTime();
                    NdkSession s = NdkSession.open();
                    long b = System.nanoTime();
                    s.qps();
                    long c = System.nanoTime();
                    FrScenario sc = FrScenario.prepare(s, plan);
                    long d = System.nanoTime();
                    sc.post();
                    long e = System.nanoTime();
                    sc.assertGrantsNothing("X", "y");
                    long f = System.nanoTime();
                    s.close();
                    long g = System.nanoTime();
                    t[0] += b - a; t[1] += c - b; t[2] += d - c; t[3] += e - d; t[4] += f - e; t[5] += g - f;
                    return null;
                });
            }
            long total = System.nanoTime() - start;
            System.out.printf("per try: total %.1f us | open %.1f qps %.1f prepare %.1f post %.1f access %.1f close %.1f%n",
                    total / 1e3 / n, t[0] / 1e3 / n, t[1] / 1e3 / n, t[2] / 1e3 / n, t[3] / 1e3 / n, t[4] / 1e3 / n, t[5] / 1e3 / n);
        }
    }
}
