package org.ndktck.bench;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
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
 * An RDMA read of 64 bytes with 10 and with 100,000 live MRs on the adapter (goal: the two within
 * 1.5x of each other, so the token lookup does not grow with the number of live registrations).
 *
 * <p>Setup registers {@code liveMrs} normal MRs on the remote side, one page each (remote read), plus one
 * local sink MR (local write). The object budget is raised with the reference provider's {@code maxObjects}
 * setting (default 65,536 objects) to {@code liveMrs + 16}.
 *
 * <p>Each operation is one NdkRead of 64 bytes from one remote MR into the local sink, processed inline, and
 * one NdkGetCqResults that removes its CQ entry and checks it is STATUS_SUCCESS. {@code target} chooses which
 * remote MR: {@code same} reads always the first one (measures the algorithm: lookup cost against table
 * size), {@code rotating} walks through all live MRs in turn (adds the cache misses of touching a different
 * registration each time, which grow with the working set on any hardware).
 *
 * <p>Units: nanoseconds per operation.
 */
@State(Scope.Thread)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RemoteReadBenchmark {
    private static final int READ_BYTES = 64;

    /** Live MRs registered on the adapter besides the local sink. */
    @Param({"10", "100000"})
    public int liveMrs;

    /** Which remote MR each read targets: {@code same} or {@code rotating}. */
    @Param({"same", "rotating"})
    public String target;

    private Loopback loopback;
    private int[] tokens;
    private long[] addresses;
    private NdkSge[] sink;
    private final NdkResult[] results = new NdkResult[1];
    private boolean rotating;
    private int next;

    /** Opens the adapter with a raised object budget and registers the MRs. */
    @Setup(Level.Trial)
    public void setUp() {
        loopback = new Loopback("reference", Map.of("maxObjects", Integer.toString(liveMrs + 16)));
        rotating = switch (target) {
            case "same" -> false;
            case "rotating" -> true;
            default -> throw new IllegalArgumentException("target must be same or rotating: " + target);
        };
        int pageSize = loopback.pageSize;
        tokens = new int[liveMrs];
        addresses = new long[liveMrs];
        Mdl chain = loopback.chain(liveMrs, 1, 0);
        Mdl m = chain;
        for (int i = 0; i < liveMrs; i++) {
            Mdl next = m.next();
            Mdl single = Mdl.of(pageSize, m.virtualAddress(), m.byteCount(), m.pfns());
            NdkMr mr = loopback.createMr(false);
            Loopback.ok("NdkRegisterMr", mr.register(single, pageSize, NdkMrFlags.ALLOW_REMOTE_READ, Loopback.NEVER,
                    null));
            tokens[i] = mr.getRemoteToken();
            addresses[i] = single.virtualAddress() + 128;
            m = next;
        }
        Mdl sinkMdl = loopback.chain(1, 1, (long) liveMrs * pageSize + (1L << 32));
        NdkMr sinkMr = loopback.createMr(false);
        Loopback.ok("NdkRegisterMr", sinkMr.register(sinkMdl, pageSize, NdkMrFlags.ALLOW_LOCAL_WRITE, Loopback.NEVER,
                null));
        sink = new NdkSge[] {new NdkSge(sinkMdl.virtualAddress(), READ_BYTES, sinkMr.getLocalToken())};
        read();
        // settle the heap the setup built (100,000 registrations), so no collection cycle it started runs
        // during the first measured iterations
        System.gc();
    }

    /** Closes the adapter. */
    @TearDown(Level.Trial)
    public void tearDown() {
        loopback.close();
    }

    /**
     * One NdkRead of 64 bytes and the removal of its CQ entry.
     *
     * @return the CQ entry's status code (consumed by JMH)
     */
    @Benchmark
    public int read() {
        int i = 0;
        if (rotating) {
            i = next;
            next = i + 1 == tokens.length ? 0 : i + 1;
        }
        Loopback.ok("NdkRead", loopback.local.read("read", sink, addresses[i], tokens[i], 0));
        if (loopback.cq.getCqResults(results) != 1) {
            throw new IllegalStateException("NdkRead left no CQ entry");
        }
        NtStatus status = results[0].status();
        Loopback.ok("NdkRead completion", status);
        return status.code();
    }
}
