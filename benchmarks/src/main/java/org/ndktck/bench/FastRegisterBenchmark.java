package org.ndktck.bench;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOpFlags;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * NdkFastRegister of N pages against its floor (goal: within 3x of the floor at every N).
 *
 * <p>{@link #fastRegisterThenInvalidate} posts NdkFastRegister of all N pages of one LAM (FBO 0, Length
 * N × PAGE_SIZE, remote read and local write, SILENT_SUCCESS) and then NdkInvalidate of the same MR
 * (SILENT_SUCCESS), so every operation starts from the same state and the adapter's state does not grow.
 * The adapter is inline: both requests are processed before the calls return.
 *
 * <p>{@link #floor} is what any provider must at least do: read the consumer's AdapterPageArray once and check
 * that each entry is PAGE_SIZE-aligned (MR-FR-17), stopping at the first misaligned entry.
 *
 * <p>Units: microseconds per operation (one fast registration plus one invalidation, or one floor pass).
 */
@State(Scope.Thread)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FastRegisterBenchmark {
    private static final int FLAGS = NdkOpFlags.SILENT_SUCCESS | NdkOpFlags.ALLOW_REMOTE_READ
            | NdkOpFlags.ALLOW_LOCAL_WRITE;
    /** BaseVirtualAddress of every fast registration: page-aligned, so congruent to FBO 0 (MR-FR-4). */
    private static final long BASE_VA = 0x0000_7000_0000_0000L;

    /** AdapterPageCount: 2^10 to 2^20 pages. */
    @Param({"1024", "4096", "16384", "65536", "262144", "1048576"})
    public int pages;

    private Loopback loopback;
    private NdkMr mr;
    private long[] pageArray;
    private long length;
    private long mask;

    /** Opens the adapter, maps N pages with NdkBuildLam and initializes one fast-register MR for N pages. */
    @Setup(Level.Trial)
    public void setUp() {
        loopback = new Loopback("reference", Map.of());
        pageArray = loopback.lamPages(pages);
        length = (long) pages * loopback.pageSize;
        mask = loopback.pageSize - 1L;
        mr = loopback.createMr(true);
        Loopback.ok("NdkInitializeFastRegisterMr", mr.initializeFastRegister(pages, true, Loopback.NEVER, null));
        fastRegisterThenInvalidate();
    }

    /** Checks that no CQ entry appeared (both requests carry SILENT_SUCCESS and must have succeeded). */
    @TearDown(Level.Iteration)
    public void checkCq() {
        int entries = loopback.drainCq();
        if (entries != 0) {
            throw new IllegalStateException(entries + " CQ entries after silent, successful requests");
        }
    }

    /** Closes the adapter. */
    @TearDown(Level.Trial)
    public void tearDown() {
        loopback.close();
    }

    /**
     * One NdkFastRegister of N pages and one NdkInvalidate.
     *
     * @return the MR's remote token after the fast registration (consumed by JMH)
     */
    @Benchmark
    public int fastRegisterThenInvalidate() {
        Loopback.ok("NdkFastRegister", loopback.local.fastRegister("fr", mr, pages, pageArray, 0, length, BASE_VA,
                FLAGS));
        int token = mr.getRemoteToken();
        Loopback.ok("NdkInvalidate", loopback.local.invalidate("inv", mr, NdkOpFlags.SILENT_SUCCESS));
        return token;
    }

    /**
     * The floor: one pass over the same page array checking PAGE_SIZE alignment of every entry.
     *
     * @return true when every entry is aligned (consumed by JMH)
     */
    @Benchmark
    public boolean floor() {
        long[] a = pageArray;
        long m = mask;
        for (int i = 0; i < a.length; i++) {
            if ((a[i] & m) != 0) {
                return false;
            }
        }
        return true;
    }
}
