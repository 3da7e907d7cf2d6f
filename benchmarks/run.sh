#!/usr/bin/env bash
# Builds the benchmarks jar (Maven profile 'benchmarks') and runs it. See BENCHMARKS.md.
#
#   benchmarks/run.sh [JMH ARGS...]   JMH (all benchmarks, or those matching a regex) with the CPU-time profiler,
#                                     then the summary tables;
#                                     JMH results go to benchmarks/target/jmh-result.json
#   benchmarks/run.sh memory          bytes the reference provider keeps per registered page
#   benchmarks/run.sh summary FILE    the summary tables of a JMH JSON result file
#   benchmarks/run.sh kit-timing [--repeat N] [RUN OPTIONS]
#                                     the kit's own run (ndk-tck run RUN OPTIONS) timed: wall and CPU time, and
#                                     per property tries, time, cost of a try and first failure
#
# Examples: benchmarks/run.sh                                  (full run, the annotations' settings)
#           benchmarks/run.sh -f 1 -wi 1 -i 2 -w 1s -r 1s      (short run)
#           benchmarks/run.sh RemoteRead -p liveMrs=100000     (one benchmark, one parameter value)
# Set NDK_BENCH_SKIP_BUILD=1 to reuse an existing jar.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jar=benchmarks/target/benchmarks.jar
if [[ "${NDK_BENCH_SKIP_BUILD:-0}" != 1 || ! -f "$jar" ]]; then
  mvn -q -B -Pbenchmarks -pl benchmarks -am package -DskipTests
fi
case "${1:-}" in
  memory)
    shift
    exec java -Xms3g -Xmx3g -XX:+UseSerialGC -cp "$jar" org.ndktck.bench.MemoryFootprint "$@" ;;
  summary)
    shift
    exec java -cp "$jar" org.ndktck.bench.Summary "$@" ;;
  kit-timing)
    shift
    exec java -cp "$jar" org.ndktck.bench.KitTiming "$@" ;;
esac
out=benchmarks/target/jmh-result.json
rm -f "$out"
java -jar "$jar" -rf json -rff "$out" -prof org.ndktck.bench.CpuTimeProfiler "$@"
if [[ -s "$out" ]]; then
  java -cp "$jar" org.ndktck.bench.Summary "$out" || true
fi
