package org.ndktck.tck.runner;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.ndktck.spec.rules.Ambiguity;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code ndk-tck explain ID}: one rule whole, with its ambiguity entries and the kit's properties for it. */
@Command(name = "explain", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class, description = {"Prints one rule of the catalog whole, with its ambiguity notes and the kit's properties for it.", ""},
        footer = {"", "An unknown ID exits 2 and names the closest IDs."})
public final class ExplainCommand implements Callable<Integer> {
    @ParentCommand
    NdkTckCommand parent;

    @Parameters(paramLabel = "ID", description = "A rule ID, e.g. MR-FR-4 (or an ambiguity ID such as AMB-6).")
    String id;

    @Option(names = "--json", description = "Print the rule as JSON.")
    boolean json;

    @Option(names = "--kit-package", hidden = true)
    String kitPackage = System.getProperty("ndk.tck.runner.kitPackage", KitDiscovery.KIT_PACKAGE);

    @Override
    public Integer call() throws JsonProcessingException {
        RuleCatalog catalog = RuleCatalog.standard();
        String want = id.trim();
        Optional<Rule> rule = catalog.find(want).or(() -> catalog.find(want.toUpperCase(Locale.ROOT)));
        PrintStream out = parent.out;
        if (rule.isEmpty()) {
            Optional<Ambiguity> amb = catalog.findAmbiguity(want.toUpperCase(Locale.ROOT));
            if (amb.isPresent()) {
                if (json) {
                    out.println(ReportWriter.mapper().writeValueAsString(amb.get()));
                } else {
                    ambiguity(out, amb.get(), "");
                    List<String> users = catalog.rules().stream().filter(r -> r.ambiguities().contains(amb.get().id()))
                            .map(Rule::id).toList();
                    field(out, "rules", users.isEmpty() ? "(none)" : String.join(", ", users), "");
                }
                return NdkTckCommand.OK;
            }
            throw new UsageException("unknown rule '" + want + "'; closest rule IDs: "
                    + String.join(", ", catalog.closestIds(want, 3)), "./ndk-tck rules lists every rule");
        }
        Rule r = rule.get();
        List<String> props = KitDiscovery.byRule(KitDiscovery.discover(kitPackage, ExplainCommand.class.getClassLoader(), Map.of()))
                .getOrDefault(r.id(), List.of()).stream().map(PropertyInfo::propertyId).toList();
        if (json) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = new LinkedHashMap<>(ReportWriter.mapper().convertValue(r, Map.class));
            m.put("properties", props);
            m.put("ambiguityEntries", r.ambiguities().stream().map(catalog::findAmbiguity).flatMap(Optional::stream).toList());
            out.println(ReportWriter.mapper().writeValueAsString(m));
            return NdkTckCommand.OK;
        }
        out.println(r.id() + "  " + r.strength().words() + "  " + r.title());
        out.println();
        field(out, "function", r.function() + (r.group().equals(r.function()) ? "" : "  (listed under " + r.group() + ")"), "");
        field(out, "binds", r.binds().name(), "");
        field(out, "strength", r.strength().words(), "");
        field(out, "basis", r.basis().name(), "");
        if (r.basis() == org.ndktck.spec.rules.Basis.KIT_INTERPRETATION) {
            field(out, "broken check", r.failIsAdvisory() ? "ADVISORY (kit interpretation)" : "FAIL (guards " + r.guards() + ")", "");
        }
        field(out, "check", r.check().name(), "");
        field(out, "statement", r.statement(), "");
        field(out, "how checked", r.howChecked(), "");
        field(out, "allowed status", r.allowedStatuses().isEmpty() ? "(the pages list none)" : String.join(", ", r.allowedStatuses()), "");
        field(out, "source", r.source(), "");
        field(out, "requires", r.requires().isEmpty() ? "(applies to every adapter)" : String.join(", ", r.requires()), "");
        field(out, "properties", props.isEmpty() ? (r.needsProperty() ? "(none yet: the rule is reported UNTESTED)"
                : "(none: the rule is reported NOT_TESTABLE)") : String.join(", ", props), "");
        if (!r.ambiguities().isEmpty()) {
            out.println();
            out.println("ambiguities:");
            for (String a : r.ambiguities()) {
                Optional<Ambiguity> amb = catalog.findAmbiguity(a);
                if (amb.isPresent()) {
                    ambiguity(out, amb.get(), "  ");
                } else {
                    out.println("  " + a + " (not in the ambiguity register)");
                }
            }
        }
        return NdkTckCommand.OK;
    }

    private static void ambiguity(PrintStream out, Ambiguity a, String indent) {
        out.println(indent + a.id() + "  " + a.title());
        String in = indent + "  ";
        field(out, "reading A", a.readingA(), in);
        field(out, "reading B", a.readingB(), in);
        field(out, "sources", String.join(", ", a.sources()), in);
        field(out, "chosen", a.chosen(), in);
    }

    private static void field(PrintStream out, String name, String value, String indent) {
        String pad = indent + String.format(Locale.ROOT, "%-15s ", name + ":");
        List<String> lines = wrap(value == null ? "" : value, Math.max(40, 100 - pad.length()));
        for (int i = 0; i < lines.size(); i++) {
            out.println((i == 0 ? pad : " ".repeat(pad.length())) + lines.get(i));
        }
    }

    static List<String> wrap(String text, int width) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split("\\s+")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        out.add(line.toString());
        return out;
    }
}
