package org.ndktck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Turns a JMH JSON result file ({@code -rf json}) of these benchmarks into the Markdown tables of
 * BENCHMARKS.md: the figures, their ratios, how the cost grows with N, and each speed and scale goal met or not.
 *
 * <p>Two figures per benchmark: JMH's wall-clock time per operation, and, when the run used
 * {@code -prof org.ndktck.bench.CpuTimeProfiler}, the benchmark thread's CPU time per operation (steadier on a
 * loaded machine). Each goal is judged on each figure separately. Growth exponent between sizes N1 &lt; N2 with times
 * t1, t2: log(t2/t1) / log(N2/N1) (1 means linear in N, 0 constant), from CPU time when present.
 *
 * <p>Goals: NdkFastRegister + NdkInvalidate of N pages within 3x of the floor at every N; NdkRegisterMr +
 * NdkDeregisterMr cost per MDL within 2x from 10 to 10,000 MDLs (largest / smallest); a 64-byte NdkRead with
 * 100,000 live MRs within 1.5x of the same with 10 (per {@code target}). A missing figure leaves its goal
 * "not measured".
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.ndktck.bench.Summary FILE.json}. Exit code 0
 * when every measured goal is met (on every figure), 1 when one is not, 2 on a usage error.
 */
public final class Summary {
    private static final String PKG = "org.ndktck.bench.";
    private static final String CPU = "cpu.time/op";

    private Summary() {
    }

    /**
     * One JMH result.
     *
     * @param benchmark class.method without the package
     * @param params    JMH parameters
     * @param wallNs    primary score in nanoseconds per operation
     * @param errorNs   its 99.9% error in nanoseconds (NaN when JMH gave none)
     * @param cpuNs     CPU time per operation in nanoseconds, NaN without the CPU profiler
     */
    record Result(String benchmark, Map<String, String> params, double wallNs, double errorNs, double cpuNs) {
    }

    /**
     * @param args the JMH JSON result file
     * @throws IOException when the file cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: Summary JMH-RESULT.json");
            System.exit(2);
        }
        List<Result> results = read(Path.of(args[0]));
        StringBuilder out = new StringBuilder();
        boolean ok = fastRegister(results, out) & registerMr(results, out) & remoteRead(results, out);
        System.out.print(out);
        System.exit(ok ? 0 : 1);
    }

    static List<Result> read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(Files.readString(file));
        List<Result> results = new ArrayList<>();
        for (JsonNode r : root) {
            Map<String, String> params = new TreeMap<>();
            r.path("params").fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
            JsonNode m = r.path("primaryMetric");
            double scale = toNs(m.path("scoreUnit").asText());
            JsonNode cpu = r.path("secondaryMetrics").path(CPU);
            results.add(new Result(r.path("benchmark").asText().replace(PKG, ""), params,
                    m.path("score").asDouble() * scale, m.path("scoreError").asDouble(Double.NaN) * scale,
                    cpu.isMissingNode() ? Double.NaN : cpu.path("score").asDouble(Double.NaN)));
        }
        return results;
    }

    private static double toNs(String unit) {
        return switch (unit) {
            case "s/op" -> 1e9;
            case "ms/op" -> 1e6;
            case "us/op" -> 1e3;
            case "ns/op" -> 1;
            default -> throw new IllegalArgumentException("unexpected JMH unit " + unit + " (use AverageTime)");
        };
    }

    private static Result find(List<Result> results, String benchmark, Map<String, String> params) {
        for (Result r : results) {
            if (r.benchmark.equals(benchmark) && r.params.entrySet().containsAll(params.entrySet())) {
                return r;
            }
        }
        return null;
    }

    private static String num(double v, double divisor) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v / divisor);
    }

    private static String wall(Result r, double divisor) {
        return Double.isNaN(r.errorNs) ? num(r.wallNs, divisor)
                : String.format(Locale.ROOT, "%.2f ± %.2f", r.wallNs / divisor, r.errorNs / divisor);
    }

    private static double growth(double t1, double t2, double n1, double n2) {
        return Math.log(t2 / t1) / Math.log(n2 / n1);
    }

    private static String verdict(boolean measured, boolean met) {
        return !measured ? "not measured" : met ? "MET" : "NOT MET";
    }

    static boolean fastRegister(List<Result> results, StringBuilder out) {
        String fr = "FastRegisterBenchmark.fastRegisterThenInvalidate";
        String floor = "FastRegisterBenchmark.floor";
        out.append("\n### NdkFastRegister of N pages (+ NdkInvalidate) against the floor\n\n")
                .append("| N pages | FR wall (us/op) | floor wall (us/op) | wall ratio | FR CPU (us/op) | floor CPU (us/op)"
                        + " | CPU ratio | FR CPU ns/page | growth exponent |\n")
                .append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        double worstWall = 0;
        double worstCpu = 0;
        boolean any = false;
        boolean anyCpu = false;
        double prevN = 0;
        double prevT = 0;
        for (int k = 10; k <= 20; k += 2) {
            String n = Integer.toString(1 << k);
            Result a = find(results, fr, Map.of("pages", n));
            Result b = find(results, floor, Map.of("pages", n));
            if (a == null || b == null) {
                continue;
            }
            any = true;
            double wallRatio = a.wallNs / b.wallNs;
            double cpuRatio = a.cpuNs / b.cpuNs;
            worstWall = Math.max(worstWall, wallRatio);
            if (!Double.isNaN(cpuRatio)) {
                anyCpu = true;
                worstCpu = Math.max(worstCpu, cpuRatio);
            }
            double pages = 1 << k;
            double t = Double.isNaN(a.cpuNs) ? a.wallNs : a.cpuNs;
            String exp = prevN == 0 ? "" : String.format(Locale.ROOT, "%.2f", growth(prevT, t, prevN, pages));
            out.append(String.format(Locale.ROOT, "| 2^%d = %s | %s | %s | %.2f | %s | %s | %s | %s | %s |%n", k, n,
                    wall(a, 1e3), wall(b, 1e3), wallRatio, num(a.cpuNs, 1e3), num(b.cpuNs, 1e3), num(cpuRatio, 1),
                    num(a.cpuNs, pages), exp));
            prevN = pages;
            prevT = t;
        }
        out.append(String.format(Locale.ROOT,
                "%nGoal (within 3x of the floor at every N): wall time %s (worst ratio %.2f); CPU time %s (worst ratio %.2f)%n",
                verdict(any, worstWall <= 3.0), worstWall, verdict(anyCpu, worstCpu <= 3.0), worstCpu));
        return worstWall <= 3.0 && worstCpu <= 3.0;
    }

    static boolean registerMr(List<Result> results, StringBuilder out) {
        String reg = "RegisterMrBenchmark.registerThenDeregister";
        out.append("\n### NdkRegisterMr (+ NdkDeregisterMr) of an MDL chain, cost per MDL\n\n")
                .append("| MDLs | wall ns/op | wall ns/MDL | CPU ns/op | CPU ns/MDL | CPU ns/MDL ÷ at 10 | growth exponent |\n")
                .append("|---:|---:|---:|---:|---:|---:|---:|\n");
        double cpuAt10 = Double.NaN;
        double[] wallRange = {Double.MAX_VALUE, 0};
        double[] cpuRange = {Double.MAX_VALUE, 0};
        double prevN = 0;
        double prevT = 0;
        for (int mdls : new int[] {1, 10, 100, 1000, 10000}) {
            Result r = find(results, reg, Map.of("mdls", Integer.toString(mdls)));
            if (r == null) {
                continue;
            }
            double cpuPerMdl = r.cpuNs / mdls;
            if (mdls == 10) {
                cpuAt10 = cpuPerMdl;
            }
            if (mdls >= 10) {
                widen(wallRange, r.wallNs / mdls);
                widen(cpuRange, cpuPerMdl);
            }
            double t = Double.isNaN(r.cpuNs) ? r.wallNs : r.cpuNs;
            String exp = prevN == 0 ? "" : String.format(Locale.ROOT, "%.2f", growth(prevT, t, prevN, mdls));
            out.append(String.format(Locale.ROOT, "| %d | %s | %.2f | %s | %s | %s | %s |%n", mdls, wall(r, 1),
                    r.wallNs / mdls, num(r.cpuNs, 1), num(cpuPerMdl, 1), num(cpuPerMdl / cpuAt10, 1), exp));
            prevN = mdls;
            prevT = t;
        }
        double wallSpread = wallRange[1] / wallRange[0];
        double cpuSpread = cpuRange[1] / cpuRange[0];
        boolean wallMeasured = wallRange[1] > 0;
        boolean cpuMeasured = cpuRange[1] > 0 && !Double.isNaN(cpuSpread);
        out.append(String.format(Locale.ROOT,
                "%nGoal (cost per MDL within 2x from 10 to 10,000; largest / smallest): wall time %s (%.2f); CPU time %s (%.2f)%n",
                verdict(wallMeasured, wallSpread <= 2.0), wallSpread, verdict(cpuMeasured, cpuSpread <= 2.0), cpuSpread));
        return (!wallMeasured || wallSpread <= 2.0) && (!cpuMeasured || cpuSpread <= 2.0);
    }

    private static void widen(double[] range, double v) {
        if (!Double.isNaN(v)) {
            range[0] = Math.min(range[0], v);
            range[1] = Math.max(range[1], v);
        }
    }

    static boolean remoteRead(List<Result> results, StringBuilder out) {
        String read = "RemoteReadBenchmark.read";
        out.append("\n### NdkRead of 64 bytes with 10 and with 100,000 live MRs\n\n")
                .append("| target | wall, 10 MRs (ns/op) | wall, 100,000 MRs (ns/op) | wall ratio | CPU, 10 MRs (ns/op)"
                        + " | CPU, 100,000 MRs (ns/op) | CPU ratio | goal (≤ 1.5x) wall / CPU |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---|\n");
        boolean ok = true;
        boolean any = false;
        for (String target : new String[] {"same", "rotating"}) {
            Result few = find(results, read, Map.of("liveMrs", "10", "target", target));
            Result many = find(results, read, Map.of("liveMrs", "100000", "target", target));
            if (few == null || many == null) {
                continue;
            }
            any = true;
            double wallRatio = many.wallNs / few.wallNs;
            double cpuRatio = many.cpuNs / few.cpuNs;
            boolean cpuMeasured = !Double.isNaN(cpuRatio);
            ok &= wallRatio <= 1.5 && (!cpuMeasured || cpuRatio <= 1.5);
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %s | %s | %s | %s / %s |%n", target,
                    wall(few, 1), wall(many, 1), wallRatio, num(few.cpuNs, 1), num(many.cpuNs, 1), num(cpuRatio, 1),
                    verdict(true, wallRatio <= 1.5), verdict(cpuMeasured, cpuRatio <= 1.5)));
        }
        if (!any) {
            out.append("\nGoal (within 1.5x): not measured\n");
        }
        return ok;
    }
}
