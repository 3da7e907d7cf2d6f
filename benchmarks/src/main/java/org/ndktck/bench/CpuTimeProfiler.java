package org.ndktck.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the CPU time of the benchmark threads per operation ({@code cpu.time/op},
 * nanoseconds): the CPU time JMH's worker threads (named {@code ...-jmh-worker-N}) used during an iteration,
 * divided by the operations measured in it.
 *
 * <p>Why: on a shared machine whose load exceeds its cores, the wall-clock time per operation that JMH
 * reports includes the time the benchmark thread waited for a CPU. The worker threads' own CPU time does not
 * (cache and memory-bandwidth contention from other processes still show). Garbage collection and JIT work
 * run on other threads and are not counted; allocation itself (in the thread's TLAB) is. Use with
 * {@code -prof org.ndktck.bench.CpuTimeProfiler}; {@link Summary} prints both figures.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> before = new HashMap<>();

    @Override
    public String getDescription() {
        return "CPU time of the benchmark threads per operation (ns/op), steadier than wall time on a loaded machine";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before.clear();
        before.putAll(workerCpu());
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long cpu = 0;
        for (Map.Entry<Long, Long> e : workerCpu().entrySet()) {
            cpu += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        long ops = result.getMetadata().getMeasuredOps();
        double perOp = ops == 0 || cpu <= 0 ? Double.NaN : (double) cpu / ops;
        return List.of(new ScalarResult("cpu.time/op", perOp, "ns/op", AggregationPolicy.AVG));
    }

    /** @return thread ID to CPU time (ns) of every live JMH worker thread */
    private Map<Long, Long> workerCpu() {
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("-jmh-worker-")) {
                long t = threads.getThreadCpuTime(info.getThreadId());
                if (t >= 0) {
                    cpu.put(info.getThreadId(), t);
                }
            }
        }
        return cpu;
    }
}
