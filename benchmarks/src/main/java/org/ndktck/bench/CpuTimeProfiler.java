package org.ndktck.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the benchmark JVM's CPU time per operation ({@code cpu.time/op}, nanoseconds):
 * the process CPU time used during an iteration (every thread of the fork: the benchmark thread, plus GC and
 * JIT work it causes) divided by the operations measured in it.
 *
 * <p>Why: on a shared machine whose load exceeds its cores, the wall-clock time per operation that JMH
 * reports includes the time the benchmark thread waited for a CPU; CPU time does not, so ratios of CPU
 * times are much steadier there (cache and memory-bandwidth contention still show). Use with
 * {@code -prof org.ndktck.bench.CpuTimeProfiler}; {@link Summary} prints both figures.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long cpuBefore;

    @Override
    public String getDescription() {
        return "process CPU time per operation (ns/op), steadier than wall time on a loaded machine";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuBefore = os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long ops = result.getMetadata().getMeasuredOps();
        double perOp = ops == 0 ? Double.NaN : (double) cpu / ops;
        return List.of(new ScalarResult("cpu.time/op", perOp, "ns/op", AggregationPolicy.AVG));
    }
}
