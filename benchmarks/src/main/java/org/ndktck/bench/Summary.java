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
 * BENCHMARKS.md: the figures, their ratios, how the cost grows with N, and each goal of issue 9 met or not.
 *
 * <p>Growth exponent: between two sizes N1 &lt; N2 with times t1, t2 it is log(t2/t1) / log(N2/N1): 1 means
 * linear in N, 0 constant. Goals (a missing figure leaves its goal "not measured"):
 * <ul>
 * <li>NdkFastRegister + NdkInvalidate of N pages within 3x of the floor at every N;</li>
 * <li>NdkRegisterMr + NdkDeregisterMr cost per MDL within 2x from 10 to 10,000 MDLs (largest / smallest);</li>
 * <li>a 64-byte NdkRead with 100,000 live MRs within 1.5x of the same with 10 (per {@code target}).</li>
 * </ul>
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.ndktck.bench.Summary FILE.json}. Exit code 0
 * when every measured goal is met, 1 when one is not, 2 on a usage error.
 */
public final class Summary {
    private static final String PKG = "org.ndktck.bench.";

    private Summary() {
    }

    /** One JMH result: benchmark method, parameters, score and error. */
    record Result(String benchmark, Map<String, String> params, double score, double error, String unit) {
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
            results.add(new Result(r.path("benchmark").asText().replace(PKG, ""), params, m.path("score").asDouble(),
                    m.path("scoreError").asDouble(Double.NaN), m.path("scoreUnit").asText()));
        }
        return results;
    }

    private static Result find(List<Result> results, String benchmark, Map<String, String> params) {
        for (Result r : results) {
            if (r.benchmark.equals(benchmark) && r.params.entrySet().containsAll(params.entrySet())) {
                return r;
            }
        }
        return null;
    }

    private static String fig(Result r) {
        return Double.isNaN(r.error) ? String.format(Locale.ROOT, "%.3f", r.score)
                : String.format(Locale.ROOT, "%.3f ± %.3f", r.score, r.error);
    }

    private static double growth(double t1, double t2, double n1, double n2) {
        return Math.log(t2 / t1) / Math.log(n2 / n1);
    }

    static boolean fastRegister(List<Result> results, StringBuilder out) {
        String fr = "FastRegisterBenchmark.fastRegisterThenInvalidate";
        String floor = "FastRegisterBenchmark.floor";
        out.append("\n### NdkFastRegister of N pages (+ NdkInvalidate) against the floor\n\n")
                .append("| N pages | FR + invalidate (us/op) | floor (us/op) | ratio | FR ns/page | floor ns/page | FR growth exponent |\n")
                .append("|---:|---:|---:|---:|---:|---:|---:|\n");
        boolean ok = true;
        boolean any = false;
        double worst = 0;
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
            double ratio = a.score / b.score;
            worst = Math.max(worst, ratio);
            ok &= ratio <= 3.0;
            double pages = 1 << k;
            String exp = prevN == 0 ? "" : String.format(Locale.ROOT, "%.2f", growth(prevT, a.score, prevN, pages));
            out.append(String.format(Locale.ROOT, "| 2^%d = %s | %s | %s | %.2f | %.2f | %.2f | %s |%n", k, n, fig(a),
                    fig(b), ratio, a.score * 1000 / pages, b.score * 1000 / pages, exp));
            prevN = pages;
            prevT = a.score;
        }
        out.append(any ? String.format(Locale.ROOT, "%nGoal (within 3x of the floor at every N): %s (worst ratio %.2f)%n",
                ok ? "MET" : "NOT MET", worst) : "\nGoal (within 3x of the floor): not measured\n");
        return ok;
    }

    static boolean registerMr(List<Result> results, StringBuilder out) {
        String reg = "RegisterMrBenchmark.registerThenDeregister";
        out.append("\n### NdkRegisterMr (+ NdkDeregisterMr) of an MDL chain, cost per MDL\n\n")
                .append("| MDLs | ns/op | ns/MDL | ns/MDL ÷ ns/MDL at 10 | growth exponent |\n")
                .append("|---:|---:|---:|---:|---:|\n");
        double at10 = Double.NaN;
        double min = Double.MAX_VALUE;
        double max = 0;
        double prevN = 0;
        double prevT = 0;
        for (int mdls : new int[] {1, 10, 100, 1000, 10000}) {
            Result r = find(results, reg, Map.of("mdls", Integer.toString(mdls)));
            if (r == null) {
                continue;
            }
            double perMdl = r.score / mdls;
            if (mdls == 10) {
                at10 = perMdl;
            }
            if (mdls >= 10) {
                min = Math.min(min, perMdl);
                max = Math.max(max, perMdl);
            }
            String exp = prevN == 0 ? "" : String.format(Locale.ROOT, "%.2f", growth(prevT, r.score, prevN, mdls));
            out.append(String.format(Locale.ROOT, "| %d | %s | %.2f | %s | %s |%n", mdls, fig(r), perMdl,
                    Double.isNaN(at10) ? "" : String.format(Locale.ROOT, "%.2f", perMdl / at10), exp));
            prevN = mdls;
            prevT = r.score;
        }
        if (max == 0) {
            out.append("\nGoal (cost per MDL within 2x from 10 to 10,000): not measured\n");
            return true;
        }
        boolean ok = max / min <= 2.0;
        out.append(String.format(Locale.ROOT,
                "%nGoal (cost per MDL within 2x from 10 to 10,000): %s (largest / smallest ns/MDL = %.2f)%n",
                ok ? "MET" : "NOT MET", max / min));
        return ok;
    }

    static boolean remoteRead(List<Result> results, StringBuilder out) {
        String read = "RemoteReadBenchmark.read";
        out.append("\n### NdkRead of 64 bytes with 10 and with 100,000 live MRs\n\n")
                .append("| target | 10 live MRs (ns/op) | 100,000 live MRs (ns/op) | ratio | goal (≤ 1.5x) |\n")
                .append("|---|---:|---:|---:|---|\n");
        boolean ok = true;
        boolean any = false;
        for (String target : new String[] {"same", "rotating"}) {
            Result few = find(results, read, Map.of("liveMrs", "10", "target", target));
            Result many = find(results, read, Map.of("liveMrs", "100000", "target", target));
            if (few == null || many == null) {
                continue;
            }
            any = true;
            double ratio = many.score / few.score;
            boolean met = ratio <= 1.5;
            ok &= met;
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %s |%n", target, fig(few), fig(many), ratio,
                    met ? "MET" : "NOT MET"));
        }
        if (!any) {
            out.append("\nGoal (within 1.5x): not measured\n");
        }
        return ok;
    }
}
