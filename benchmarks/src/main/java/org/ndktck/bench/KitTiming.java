package org.ndktck.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.ndktck.tck.runner.NdkTckCommand;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A measurement program, not a test: runs {@code ndk-tck run} in this JVM, {@code --repeat N}
 * times (the first runs warm the JIT up), and prints for each run its wall time, the process CPU time, the
 * tries and the cost of a try, then one line per property (status, tries, milliseconds, microseconds per try,
 * and for a failed property what its first failure was), then the rules that failed. It replaces the
 * print-only tools that lived in the kit's test tree (the standard-run timing, the one-rule profiling aid and
 * the scratch runs against faults). Every argument other than {@code --repeat N} goes to {@code run}; the
 * report goes to a temporary directory unless {@code --report-dir} is given. Run it with
 * {@code benchmarks/run.sh kit-timing [--repeat N] [RUN OPTIONS]} (BENCHMARKS.md, "Kit timing").
 */
public final class KitTiming {
    private KitTiming() {
    }

    /**
     * @param args {@code [--repeat N]} and any {@code ndk-tck run} options
     * @throws IOException when the report cannot be read
     */
    public static void main(String[] args) throws IOException {
        int repeat = 1;
        List<String> run = new ArrayList<>(List.of("run", "--quiet"));
        boolean reportDir = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--repeat") && i + 1 < args.length) {
                repeat = Integer.parseInt(args[++i]);
            } else {
                reportDir |= args[i].equals("--report-dir");
                run.add(args[i]);
            }
        }
        Path dir = null;
        if (!reportDir) {
            dir = Files.createTempDirectory("ndk-kit-timing");
            run.add("--report-dir");
            run.add(dir.toString());
        } else {
            dir = Path.of(run.get(run.indexOf("--report-dir") + 1));
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int code = 0;
        for (int n = 1; n <= repeat; n++) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            code = NdkTckCommand.execute(run.toArray(String[]::new), new PrintStream(sink, true, StandardCharsets.UTF_8), System.err);
            long wall = (System.nanoTime() - t0) / 1_000_000;
            long cpu = (os.getProcessCpuTime() - cpu0) / 1_000_000;
            Path report = dir.resolve("report.json");
            if (!Files.exists(report)) {
                System.out.print(sink.toString(StandardCharsets.UTF_8));
                System.out.println("run " + n + ": no report.json (exit " + code + ")");
                break;
            }
            print(n, new ObjectMapper().readTree(report.toFile()), wall, cpu, code);
        }
        System.exit(code);
    }

    private static void print(int n, JsonNode doc, long wall, long cpu, int code) {
        long tries = 0;
        for (JsonNode p : doc.get("properties")) {
            tries += p.path("tries").asLong();
        }
        System.out.printf(Locale.ROOT, "run %d: provider %s, seed %s, %d properties, %d tries, wall %d ms (runner %d ms), "
                        + "process CPU %d ms, %.0f us wall per try, exit %d%n", n, doc.path("provider").path("name").asText(),
                doc.path("seedText").asText(), doc.get("properties").size(), tries, wall, doc.path("durationMillis").asLong(),
                cpu, wall * 1000.0 / Math.max(1, tries), code);
        for (JsonNode p : doc.get("properties")) {
            long t = p.path("tries").asLong();
            long ms = p.path("durationMillis").asLong();
            System.out.printf(Locale.ROOT, "  %-80s %-10s tries=%5d %7d ms %8.0f us/try%s%n", p.path("property").asText(),
                    p.path("status").asText(), t, ms, ms * 1000.0 / Math.max(1, t),
                    p.path("firstFailure").isTextual() ? "  first failure: " + p.get("firstFailure").asText() : "");
        }
        List<String> failed = new ArrayList<>();
        for (JsonNode r : doc.get("rules")) {
            if (r.path("verdict").asText().equals("FAIL") || r.path("verdict").asText().equals("ADVISORY")) {
                failed.add(r.path("id").asText() + " " + r.path("verdict").asText());
            }
        }
        System.out.println("  rules that failed: " + (failed.isEmpty() ? "none" : String.join(", ", failed)));
    }
}
