package org.ndktck.tck.docs;

import org.junit.jupiter.api.Test;
import org.ndktck.faults.NdkCall;
import org.ndktck.spec.rules.Check;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.kit.KitRun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * docs/spi-calls.md, which SPI calls each rule's properties make (issue 14, point 8), is generated from the code: the
 * kit's properties run against the reference provider wrapped by {@link SpiCallRecorder} (inline completions, a fixed
 * seed and tries), and every SPI call is recorded under the rules of the property that made it. The test fails when
 * the file differs from what the kit does now. Regenerate it from the repository root with
 * {@code mvn -q -B -pl tck test -Dtest=SpiCallsDocTest -Dndk.spicalls.regenerate=true}.
 */
class SpiCallsDocTest {
    static final String REGENERATE = "mvn -q -B -pl tck test -Dtest=SpiCallsDocTest -Dndk.spicalls.regenerate=true";

    @Test
    void docsSpiCallsMdIsWhatTheKitsPropertiesCall() throws IOException {
        SpiCallRecorder.reset();
        KitRun.Result r = KitRun.against(SpiCallRecorder.class.getName()).set("completion", "inline")
                .param("ndk.tck.seed", "1").tries(8).run();
        Map<String, Set<NdkCall>> calls = SpiCallRecorder.calls();
        Map<String, Set<String>> properties = new TreeMap<>();
        for (RunLedger.PropertyRecord p : r.properties()) {
            for (String rule : p.ruleIds()) {
                properties.computeIfAbsent(rule, k -> new TreeSet<>()).add(p.property());
            }
        }
        String text = render(RuleCatalog.standard(), calls, properties);
        assertThat(calls).as("calls recorded").isNotEmpty();
        Path file = Path.of("..", "docs", "spi-calls.md");
        if (Boolean.getBoolean("ndk.spicalls.regenerate")) {
            Files.writeString(file, text, StandardCharsets.UTF_8);
            System.out.println("regenerated " + file.toAbsolutePath().normalize());
            return;
        }
        if (!Files.exists(file)) {
            fail("docs/spi-calls.md is missing. Generate it from the repository root with:%n  %s", REGENERATE);
        }
        if (!Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
            fail("docs/spi-calls.md is out of date with the kit's properties. Regenerate it from the repository root with:%n  %s",
                    REGENERATE);
        }
    }

    static String render(RuleCatalog catalog, Map<String, Set<NdkCall>> calls, Map<String, Set<String>> properties) {
        StringBuilder b = new StringBuilder();
        b.append("# Which SPI calls each rule's properties make\n\n")
                .append("Generated from the code by `SpiCallsDocTest` (tck module); do not edit. The kit's properties run against the\n")
                .append("reference provider (inline completions, seed 1, 8 tries a property) and every SPI call is recorded under the\n")
                .append("rules of the property that made it, session set-up and teardown included. A provider that does not implement a\n")
                .append("call yet FAILs or leaves untested the rules listed with it. Regenerate with\n`").append(REGENERATE).append("`.\n\n");
        Map<NdkCall, Integer> uses = new LinkedHashMap<>();
        for (NdkCall c : NdkCall.values()) {
            int n = 0;
            for (Rule rule : catalog.rules()) {
                if (calls.getOrDefault(rule.id(), Set.of()).contains(c)) {
                    n++;
                }
            }
            uses.put(c, n);
        }
        List<NdkCall> order = new ArrayList<>(uses.keySet());
        order.sort(Comparator.comparingInt((NdkCall c) -> -uses.get(c)).thenComparing(Enum::ordinal));
        b.append("## What to write first\n\nEach SPI call, with the number of rules whose properties call it:\n\n| SPI call | rules |\n|---|---|\n");
        for (NdkCall c : order) {
            b.append("| ").append(c.ndkName()).append(" | ").append(uses.get(c)).append(" |\n");
        }
        b.append("\n## Per rule\n\n| rule | properties | SPI calls |\n|---|---|---|\n");
        for (Rule rule : catalog.rules()) {
            if (rule.check() != Check.PROVIDER_PROPERTY) {
                continue;
            }
            Set<NdkCall> cs = calls.getOrDefault(rule.id(), Set.of());
            Set<NdkCall> sorted = cs.isEmpty() ? Set.of() : EnumSet.copyOf(cs);
            String props = String.join(", ", properties.getOrDefault(rule.id(), Set.of()));
            b.append("| ").append(rule.id()).append(" | ").append(props.isEmpty() ? "(none ran)" : props).append(" | ")
                    .append(sorted.isEmpty() ? "(none recorded: its properties did not run against the reference's defaults)"
                            : sorted.stream().map(NdkCall::ndkName).collect(Collectors.joining(", ")))
                    .append(" |\n");
        }
        return b.toString();
    }
}
