package org.ndktck.bench;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
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
 * NdkRegisterMr of an MDL chain of 1 to 10,000 MDLs (goal: the cost per MDL stays flat, within 2x,
 * from 10 to 10,000 MDLs).
 *
 * <p>The chain is virtually contiguous; each MDL describes one page-aligned page (ByteOffset 0, ByteCount
 * PAGE_SIZE), so the region is {@code mdls × PAGE_SIZE} bytes. Each operation is one NdkRegisterMr of the
 * whole chain (local write, remote read) followed by one NdkDeregisterMr, so the MR is reused and no state
 * grows. The time is per operation; the cost per MDL is that time divided by {@code mdls} (BENCHMARKS.md and
 * {@link Summary} do the division).
 *
 * <p>Units: nanoseconds per operation (one registration plus one deregistration).
 */
@State(Scope.Thread)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RegisterMrBenchmark {
    private static final int FLAGS = NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_READ;

    /** MDLs in the chain. */
    @Param({"1", "10", "100", "1000", "10000"})
    public int mdls;

    private Loopback loopback;
    private NdkMr mr;
    private Mdl chain;
    private long length;

    /** Opens the adapter, builds the chain and creates one normal MR. */
    @Setup(Level.Trial)
    public void setUp() {
        loopback = new Loopback("reference", Map.of());
        chain = loopback.chain(mdls, 1, 0);
        length = (long) mdls * loopback.pageSize;
        mr = loopback.createMr(false);
        registerThenDeregister();
    }

    /** Closes the adapter. */
    @TearDown(Level.Trial)
    public void tearDown() {
        loopback.close();
    }

    /**
     * One NdkRegisterMr of the chain and one NdkDeregisterMr.
     *
     * @return the token of the registration (consumed by JMH)
     */
    @Benchmark
    public int registerThenDeregister() {
        Loopback.ok("NdkRegisterMr", mr.register(chain, length, FLAGS, Loopback.NEVER, null));
        int token = mr.getRemoteToken();
        Loopback.ok("NdkDeregisterMr", mr.deregister(Loopback.NEVER, null));
        return token;
    }
}
