package org.ndktck.tck.runner;

import org.ndktck.tck.report.ReportMerger;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ndk-tck merge DIR...}: combines the reports of shards into one. */
@Command(name = "merge", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class, sortOptions = false,
        description = {"Combines the report.json of the shards of one run (--shard I/N, same provider, settings and seed) "
                + "into one report (JSON, HTML, JUnit XML) with the verdicts of the unsharded run.", ""},
        footer = {"", "Example (CI matrix):", "  ./ndk-tck run --profile deep --seed 7 --shard 1/2 --report-dir r1",
                "  ./ndk-tck run --profile deep --seed 7 --shard 2/2 --report-dir r2",
                "  ./ndk-tck merge r1 r2 --report-dir merged",
                "Exit codes: 0 no rule failed, 1 a rule failed, 2 usage error (unreadable or mismatched reports)."})
public final class MergeCommand implements Callable<Integer> {
    @ParentCommand
    NdkTckCommand parent;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "Report directories (or report.json files) of the shards.")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--report-dir", paramLabel = "DIR", defaultValue = "target/ndk-tck-report",
            description = "Where the merged report goes.")
    Path reportDir;

    @Option(names = "--strict", description = "Make ADVISORY fail (default: if any shard ran with --strict).")
    boolean strict;

    @Option(names = "--quiet", description = "Print only failures and the summary.")
    boolean quiet;

    @Option(names = {"--verbose", "--all"}, description = "List every rule in the table, NOT_TESTABLE and UNTESTED ones too "
            + "(by default they are counted in one line each).")
    boolean verbose;

    @Override
    public Integer call() {
        List<RunReport> reports = new ArrayList<>();
        for (Path d : dirs) {
            Path f = Files.isDirectory(d) ? d.resolve(ReportWriter.JSON) : d;
            if (!Files.isReadable(f)) {
                throw new UsageException("cannot read " + f + ": no such report", "pass the --report-dir of each shard");
            }
            try {
                reports.add(ReportWriter.read(f));
            } catch (IOException | RuntimeException e) {
                throw new UsageException("cannot read " + f + ": not an ndk-tck report.json ("
                        + UsageException.oneLine(e.getMessage()) + ")", "pass the --report-dir of each shard");
            }
        }
        RunReport merged;
        try {
            merged = ReportMerger.merge(reports, strict ? Boolean.TRUE : null);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), "merge the shards of one run only (same provider, settings, seed)");
        }
        try {
            ReportWriter.write(merged, reportDir, true);
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot write the report to " + reportDir + ": " + e.getMessage(), "choose a writable --report-dir");
        }
        if (!quiet) {
            parent.out.println("merged " + reports.size() + " reports"
                    + (merged.mergedShards().isEmpty() ? "" : " (shards " + merged.mergedShards() + ")")
                    + " of provider " + merged.provider().name() + ", seed " + merged.seed());
            parent.out.println();
        }
        Console.results(parent.out, merged, reportDir, quiet, verbose);
        return merged.exitCode();
    }
}
