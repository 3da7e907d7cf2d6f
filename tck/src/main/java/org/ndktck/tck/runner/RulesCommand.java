package org.ndktck.tck.runner;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code ndk-tck rules}: lists the rule catalog, with the kit's properties for each rule. */
@Command(name = "rules", mixinStandardHelpOptions = true, versionProvider = NdkTckCommand.Version.class, sortOptions = false,
        description = {"Lists the rule catalog: ID, strength, how the kit checks it, the number of the kit's properties for it "
                + "and the title, then one line 'property Class#method' for each of those properties.",
                "With --call NAME: only the rules whose properties make that SPI call.",
                "With --json: {\"kitVersion\", \"rules\": [every field of each rule + \"properties\" + \"spiCalls\"], \"ambiguities\": [...]}.", ""})
public final class RulesCommand implements Callable<Integer> {
    @ParentCommand
    NdkTckCommand parent;

    @Option(names = "--json", description = "Print the catalog as JSON.")
    boolean json;

    @Option(names = "--rules", paramLabel = "PATTERN", split = ",", description = "Only rules matching these IDs or globs.")
    List<String> rules;

    @Option(names = "--call", paramLabel = "NAME", description = "Only the rules this SPI call serves: the rules whose "
            + "properties make it (set-up included), as docs/spi-calls.md lists them, e.g. --call NdkCreatePd.")
    String call;

    @Option(names = "--kit-package", hidden = true)
    String kitPackage = System.getProperty("ndk.tck.runner.kitPackage", KitDiscovery.KIT_PACKAGE);

    @Override
    public Integer call() throws JsonProcessingException {
        RuleCatalog catalog = RuleCatalog.standard();
        Set<String> chosen = KitRunner.select(catalog, rules == null ? null : String.join(",", rules));
        Map<String, List<PropertyInfo>> byRule = KitDiscovery.byRule(
                KitDiscovery.discover(kitPackage, RulesCommand.class.getClassLoader(), Map.of()));
        SpiCalls spiCalls = SpiCalls.shipped();
        Set<String> served = null;
        if (call != null) {
            String c = spiCalls.call(call).orElseThrow(() -> new UsageException("no rule's properties make the SPI call '" + call
                    + "'; the calls: " + String.join(", ", spiCalls.calls()), "name one of them, as docs/spi-calls.md spells it"));
            served = Set.copyOf(spiCalls.rulesServed(c));
            call = c;
        }
        Set<String> servedRules = served;
        List<Rule> list = catalog.rules().stream().filter(r -> chosen.contains(r.id()))
                .filter(r -> servedRules == null || servedRules.contains(r.id())).toList();
        if (json) {
            List<Map<String, Object>> out = new ArrayList<>();
            for (Rule r : list) {
                @SuppressWarnings("unchecked")
                Map<String, Object> m = new LinkedHashMap<>(ReportWriter.mapper().convertValue(r, Map.class));
                m.put("properties", byRule.getOrDefault(r.id(), List.of()).stream().map(PropertyInfo::propertyId).toList());
                m.put("spiCalls", spiCalls.of(r.id()));
                out.add(m);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("kitVersion", KitVersion.get());
            doc.put("rules", out);
            doc.put("ambiguities", catalog.ambiguities());
            parent.out.println(ReportWriter.mapper().writeValueAsString(doc));
            return NdkTckCommand.OK;
        }
        if (call != null) {
            parent.out.println(call + " serves " + list.size() + " " + Console.plural(list.size(), "rule", "rules")
                    + ": their properties call it (set-up included), so they cannot pass until it works (docs/spi-calls.md)");
        }
        int w = Math.max(2, list.stream().mapToInt(r -> r.id().length()).max().orElse(2));
        parent.out.printf(Locale.ROOT, "%-" + w + "s  %-11s  %-23s  %5s  %s%n", "ID", "STRENGTH", "CHECK", "PROPS", "TITLE");
        String group = null;
        for (Rule r : list) {
            if (!r.group().equals(group)) {
                group = r.group();
                parent.out.println("# " + group);
            }
            List<PropertyInfo> props = byRule.getOrDefault(r.id(), List.of());
            parent.out.printf(Locale.ROOT, "%-" + w + "s  %-11s  %-23s  %5d  %s%n", r.id(), r.strength().words(), r.check(),
                    props.size(), r.title());
            // the kit's properties for the rule, one per line under it
            props.stream().map(PropertyInfo::propertyId).distinct().forEach(p -> parent.out.println(" ".repeat(w + 2) + "property " + p));
        }
        long needing = list.stream().filter(Rule::needsProperty).count();
        long covered = list.stream().filter(r -> r.needsProperty() && byRule.containsKey(r.id())).count();
        parent.out.println();
        parent.out.println(list.size() + " rules; " + covered + " of " + needing
                + " provider-checked rules have properties; ./ndk-tck explain ID shows one rule whole");
        return NdkTckCommand.OK;
    }
}
