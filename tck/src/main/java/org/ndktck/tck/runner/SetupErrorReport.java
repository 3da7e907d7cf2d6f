package org.ndktck.tck.runner;

import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.report.ReportWriter;
import org.ndktck.tck.report.RunReport;
import org.ndktck.tck.report.Summaries;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The report of a run that could not start because the provider could not be set up (unknown, not loadable, its
 * constructor or {@code configure} threw, no adapter could be opened or queried): every catalog rule, none of them
 * judged (UNTESTED, or NOT_TESTABLE for a rule the kit cannot check), {@code exitCode} 2 and, first in
 * {@code notes}, {@code setup error: } and the one line the command printed. Written where the run's report would
 * have gone, so a CI job that publishes the report shows why nothing ran.
 */
final class SetupErrorReport {
    /** Prefix of the note that carries the cause. */
    static final String NOTE = "setup error: ";

    private SetupErrorReport() {
    }

    /**
     * Writes the report; a report directory that cannot be written is left alone (the command's own error line
     * still says what is wrong).
     *
     * @param o     the run's options
     * @param seed  the run seed
     * @param error the setup error
     */
    static void write(KitRunner.Options o, long seed, UsageException error) {
        try {
            Files.createDirectories(o.reportDir());
            RuleCatalog catalog = RuleCatalog.standard();
            Set<String> all = new LinkedHashSet<>(catalog.rules().stream().map(Rule::id).toList());
            List<RunReport.RuleReport> rules = Verdicts.compute(catalog, all, Map.of(), Map.of(), List.of(), List.of(),
                    id -> "", r -> Optional.empty());
            String cause = error.getMessage().startsWith(NOTE) ? error.getMessage().substring(NOTE.length()) : error.getMessage();
            List<String> notes = new ArrayList<>();
            notes.add(NOTE + UsageException.oneLine(cause));
            notes.add("no property ran: the provider could not be set up");
            RunReport.Provider prov = new RunReport.Provider(o.provider(), null, null,
                    o.providerJars().stream().map(Path::toString).toList(), o.settings(), o.settings(), Map.of(),
                    UsageException.oneLine(cause));
            RunReport r = new RunReport(RunReport.FORMAT,
                    new RunReport.Kit(KitVersion.get(), catalog.rules().size(), o.kitPackage()), prov, seed,
                    o.seed() != null, o.profile().name().toLowerCase(Locale.ROOT), o.tries(), o.timeoutFactor(),
                    o.strict(), o.rules(), null, List.of(), Instant.now().toString(), 0, 0,
                    Summaries.summarize(rules, 0, 0), List.of(), notes, null, NdkTckCommand.USAGE, rules, List.of());
            ReportWriter.write(r, o.reportDir(), true);
        } catch (Exception | LinkageError e) {
            // the report is a courtesy here: the error line is what the user sees
        }
    }
}
