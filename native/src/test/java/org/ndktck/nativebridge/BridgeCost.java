package org.ndktck.nativebridge;

import java.util.HashMap;
import java.util.Map;

import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFactory;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.Providers;

/**
 * Measures what the bridge costs per call (BENCHMARKS.md, "Providers written in C"): the same SPI calls against
 * the reference provider (Java, in-process) and against the sample C provider through the bridge, in one JVM,
 * inline completions. Not a test; run with the test classpath:
 * {@code java -cp native/target/test-classes:native/target/classes:cli/target/ndk-tck.jar org.ndktck.nativebridge.BridgeCost}.
 * Prints nanoseconds per call of NdkGetLocalTokenFromMr (the bridge alone: one downcall, no arguments in memory)
 * and of NdkRegisterMr + NdkDeregisterMr of one page (an MDL copied to native memory, a handle, two downcalls).
 * Arguments: the library, the rounds, then any KEY=VALUE settings of the provider {@code native} (for example
 * {@code isolation=process hostDir=DIR}: the same calls through the relay and the host process, so the figure
 * is the bridge's and the process route's cost per call together).
 */
public final class BridgeCost {
    private BridgeCost() {
    }

    public static void main(String[] args) {
        String library = args.length > 0 ? args[0] : "native/target/native/libndk_sample.so";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        Map<String, String> settings = new HashMap<>(Map.of("library", library));
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("BridgeCost: a setting is KEY=VALUE, not '" + args[i] + "'");
                System.exit(2);
            }
            settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        for (int pass = 0; pass < 2; pass++) {
            measure("reference", Map.of(), rounds, pass == 1);
            measure("native", settings, rounds, pass == 1);
        }
    }

    private static void measure(String name, Map<String, String> settings, int rounds, boolean print) {
        NdkProvider p = Providers.find(name, BridgeCost.class.getClassLoader()).orElseThrow();
        NdkAdapterFactory f = p.configure(settings);
        HostMemory memory = new HostMemory(f.pageSize());
        NdkAdapter a = f.openAdapter(memory);
        NdkPd pd = a.createPd((c, s, o) -> { }, null).object();
        CreateResult<NdkMr> cr = pd.createMr(false, (c, s, o) -> { }, null);
        NdkMr mr = cr.object();
        long pfn = memory.allocate(1);
        Mdl mdl = Mdl.of(f.pageSize(), 0x10000000L, f.pageSize(), new long[]{pfn});
        long sink = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            sink += mr.getLocalToken();
        }
        long t1 = System.nanoTime();
        int regRounds = rounds / 10;
        for (int i = 0; i < regRounds; i++) {
            if (mr.register(mdl, f.pageSize(), 1, (c, s) -> { }, null).code() != 0
                    || mr.deregister((c, s) -> { }, null).code() != 0) {
                throw new IllegalStateException("register/deregister failed");
            }
        }
        long t2 = System.nanoTime();
        mr.close(c -> { }, null);
        pd.close(c -> { }, null);
        a.close();
        if (print) {
            System.out.printf("%-9s NdkGetLocalTokenFromMr %8.1f ns/call   NdkRegisterMr+NdkDeregisterMr %8.1f ns/pair   (%d)%n",
                    name, (t1 - t0) / (double) rounds, (t2 - t1) / (double) regRounds, sink & 1);
        }
    }
}
