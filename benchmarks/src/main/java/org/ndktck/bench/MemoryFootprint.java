package org.ndktck.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;

/**
 * Measures what the reference provider keeps per registered page (budget: at most 16 bytes per
 * registered page plus a constant per MR), through the SPI only.
 *
 * <p>Method: for each registration kind (NdkFastRegister, NdkRegisterMr) and each size P in {2^12, 2^16}
 * pages, a fresh adapter gets {@value #MRS} MRs; the heap in use after a full GC is read before and after the
 * MRs are created and registered (the consumer's page arrays, MDLs and LAM are made before the first reading,
 * so only what the provider keeps is counted). The per-MR cost is d(P) = delta / MRs; the cost per page is
 * the slope (d(2^16) − d(2^12)) / (2^16 − 2^12) and the constant per MR is d(2^12) − 2^12 × slope. The MR
 * objects' own cost (created, not registered) is part of the constant.
 *
 * <p>Run: {@code java -Xmx2g -XX:+UseSerialGC -cp benchmarks/target/benchmarks.jar org.ndktck.bench.MemoryFootprint}
 * (or {@code benchmarks/run.sh memory}). Prints one line per measurement and a verdict; exits 1 when the
 * cost per page exceeds 16 bytes.
 */
public final class MemoryFootprint {
    /** MRs registered per measurement. */
    static final int MRS = 64;
    /** Registered pages per MR: small and large, for the linear fit. */
    static final int[] SIZES = {1 << 12, 1 << 16};
    /** The budget: bytes per registered page. */
    static final double BUDGET_BYTES_PER_PAGE = 16.0;

    private MemoryFootprint() {
    }

    /**
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.printf(Locale.ROOT, "JVM %s, max heap %d MiB, GC %s%n", System.getProperty("java.vm.version"),
                Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getGarbageCollectorMXBeans().get(0).getName());
        boolean withinBudget = true;
        for (String kind : new String[] {"NdkFastRegister", "NdkRegisterMr"}) {
            double[] perMr = new double[SIZES.length];
            for (int s = 0; s < SIZES.length; s++) {
                perMr[s] = measure(kind, SIZES[s]);
                System.out.printf(Locale.ROOT, "%-15s %7d pages/MR x %d MRs: %,12.0f bytes per MR (%.2f bytes/page incl. constant)%n",
                        kind, SIZES[s], MRS, perMr[s], perMr[s] / SIZES[s]);
            }
            double slope = (perMr[1] - perMr[0]) / (SIZES[1] - SIZES[0]);
            double constant = perMr[0] - SIZES[0] * slope;
            boolean ok = slope <= BUDGET_BYTES_PER_PAGE;
            withinBudget &= ok;
            System.out.printf(Locale.ROOT, "%-15s slope %.2f bytes per registered page, constant %.0f bytes per MR: %s%n",
                    kind, slope, constant, ok ? "within 16 bytes/page" : "OVER 16 bytes/page");
        }
        System.exit(withinBudget ? 0 : 1);
    }

    /** @return the heap the provider keeps per MR for {@code pages}-page registrations of {@code kind}, in bytes */
    static double measure(String kind, int pages) {
        try (Loopback loopback = new Loopback("reference", Map.of("maxObjects", Integer.toString(MRS + 16)))) {
            long length = (long) pages * loopback.pageSize;
            List<NdkMr> mrs = new ArrayList<>(MRS);
            long before;
            long after;
            if (kind.equals("NdkFastRegister")) {
                long[] pageArray = loopback.lamPages(pages);
                before = usedAfterGc();
                for (int i = 0; i < MRS; i++) {
                    NdkMr mr = loopback.createMr(true);
                    Loopback.ok("NdkInitializeFastRegisterMr",
                            mr.initializeFastRegister(pages, true, Loopback.NEVER, null));
                    Loopback.ok("NdkFastRegister", loopback.local.fastRegister("fr", mr, pages, pageArray, 0, length,
                            0x7000_0000_0000L + (long) i * (1L << 32),
                            NdkOpFlags.SILENT_SUCCESS | NdkOpFlags.ALLOW_REMOTE_READ));
                    mrs.add(mr);
                }
                after = usedAfterGc();
                keep(pageArray);
            } else {
                Mdl mdl = loopback.chain(pages, pages, 0);
                before = usedAfterGc();
                for (int i = 0; i < MRS; i++) {
                    NdkMr mr = loopback.createMr(false);
                    Loopback.ok("NdkRegisterMr", mr.register(mdl, length, NdkMrFlags.ALLOW_REMOTE_READ,
                            Loopback.NEVER, null));
                    mrs.add(mr);
                }
                after = usedAfterGc();
                keep(mdl);
            }
            if (loopback.drainCq() != 0) {
                throw new IllegalStateException("silent requests left CQ entries");
            }
            keep(mrs);
            if (Boolean.getBoolean("ndk.bench.verbose")) {
                System.out.printf(Locale.ROOT, "  %s %d pages: heap before %,d after %,d%n", kind, pages, before, after);
            }
            return (double) (after - before) / MRS;
        }
    }

    private static volatile Object sink;

    /** Keeps {@code o} reachable up to this point. */
    private static void keep(Object o) {
        sink = o;
        sink = null;
    }

    /**
     * Heap bytes live after full collections: the sum over the heap pools of the usage each pool reported right
     * after the last collection ({@code MemoryPoolMXBean.getCollectionUsage}), which excludes what was allocated
     * since. Objects that need reference processing (cleaners, weak references) can take a few collections to
     * go, so it collects until three readings in a row agree within 1 KiB.
     *
     * @return bytes
     */
    static long usedAfterGc() {
        long previous = Long.MIN_VALUE;
        int stable = 0;
        long used = 0;
        for (int i = 0; i < 30 && stable < 3; i++) {
            System.gc();
            used = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                    used += pool.getCollectionUsage().getUsed();
                }
            }
            stable = Math.abs(used - previous) < 1024 ? stable + 1 : 0;
            previous = used;
        }
        return used;
    }
}
