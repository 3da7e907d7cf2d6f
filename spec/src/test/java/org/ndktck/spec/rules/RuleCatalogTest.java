package org.ndktck.spec.rules;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped catalog is complete and well formed (design section 4). The lists below ARE the
 * specification of this test: the 113 rule IDs of digest sections 1 to 16 and the IDs of our own from
 * docs/ARCHITECTURE.md.
 */
class RuleCatalogTest {

    /** Every rule ID of digest sections 1 to 16 (113 IDs). */
    static final List<String> DIGEST_IDS = List.of(
            "GEN-IRQL-1", "GEN-CB-1", "GEN-CB-2", "GEN-CB-3", "GEN-CB-4", "GEN-CB-5", "GEN-LIFE-1", "GEN-LIFE-2",
            "OBJ-1", "OBJ-2", "OBJ-3", "OBJ-4", "OBJ-5", "OBJ-6",
            "MR-CREATE-1", "MR-CREATE-2",
            "MR-REG-1", "MR-REG-2", "MR-REG-3", "MR-REG-4", "MR-REG-5", "MR-REG-6", "MR-REG-7", "MR-REG-8",
            "MR-REG-9", "MR-REG-10",
            "MR-DEREG-1", "MR-DEREG-2", "MR-DEREG-3", "MR-DEREG-4",
            "MR-FRI-1", "MR-FRI-2", "MR-FRI-3", "MR-FRI-4", "MR-FRI-5", "MR-FRI-6", "MR-FRI-7", "MR-FRI-8",
            "MR-FR-1", "MR-FR-2", "MR-FR-3", "MR-FR-4", "MR-FR-5", "MR-FR-6", "MR-FR-7", "MR-FR-8", "MR-FR-9",
            "MR-FR-10", "MR-FR-11", "MR-FR-12", "MR-FR-13",
            "MR-TOK-1", "MR-TOK-2", "MR-TOK-3", "MR-TOK-4",
            "PRIV-1", "PRIV-2", "PRIV-3",
            "SGE-1", "SGE-2", "SGE-3", "SGE-4",
            "LAM-1", "LAM-2", "LAM-3", "LAM-4", "LAM-5", "LAM-6", "LAM-7", "LAM-8", "LAM-9",
            "LAM-REL-1", "LAM-REL-2",
            "INV-1", "INV-2", "INV-3", "INV-4", "INV-5",
            "WRP-1", "WRP-2", "WRP-3",
            "RW-1", "RW-2", "RW-3", "RW-4", "RW-5", "RW-6", "RW-7", "RW-8",
            "FL-1", "FL-2",
            "CQ-1", "CQ-2", "CQ-3", "CQ-4", "CQ-5",
            "DEF-1", "DEF-2", "DEF-3", "DEF-4", "DEF-5",
            "CL-1", "CL-2", "CL-3", "CL-4", "CL-5", "CL-6", "CL-7", "CL-8",
            "AI-1", "AI-2", "AI-3", "AI-4");

    /** The rule IDs of our own (docs/ARCHITECTURE.md, "Rule IDs of our own"). */
    static final List<String> OWN_IDS = List.of(
            "GEN-TIME-1", "GEN-EXC-1",
            "MR-REG-11", "MR-REG-12", "MR-REG-13", "MR-REG-14",
            "MR-FR-14", "MR-FR-15", "MR-FR-16", "MR-FR-17", "MR-FR-18", "MR-FR-19",
            "MR-TOK-5", "MR-TOK-6", "CL-9", "COV-1", "COV-2", "COV-3", "COV-4", "SEC-1",
            "LIM-1", "LIM-2");

    /** The rules the page audit added (spec/src/main/resources/org/ndktck/spec/rules/audit.yaml). */
    static final List<String> AUDIT_IDS = List.of(
            "MR-FR-20", "LAM-REL-3", "INV-6", "SND-1", "SND-2", "SND-3", "CQ-6", "AI-5", "AI-6", "SGE-5", "SGE-6");

    /**
     * The transport behaviour the kit relies on beyond the MR pages: basis KIT_INTERPRETATION, MUST;
     * TR-1 and TR-4 bind the provider (checked), TR-2 and TR-3 are the kit's own obligations.
     */
    static final List<String> TRANSPORT_IDS = List.of("TR-1", "TR-2", "TR-3", "TR-4");

    /** Security rules (design section 4, AMB-18): MUST with basis KIT_INTERPRETATION. */
    static final List<String> SECURITY_IDS = List.of(
            "MR-REG-8", "MR-FR-12", "SGE-2", "INV-4", "MR-DEREG-3",
            "MR-REG-11", "MR-REG-12", "MR-FR-14", "MR-FR-15");

    private final RuleCatalog catalog = RuleCatalog.standard();

    @Test
    void theDigestListHoldsExactly113DistinctIds() {
        assertThat(DIGEST_IDS).hasSize(113).doesNotHaveDuplicates();
        assertThat(OWN_IDS).doesNotHaveDuplicates().doesNotContainAnyElementsOf(DIGEST_IDS);
    }

    @Test
    void theCatalogIsWellFormed() {
        assertThat(RuleCatalogValidator.problems(catalog)).isEmpty();
    }

    @Test
    void everyRuleIdIsWellFormedAndUnique() {
        List<String> ids = catalog.rules().stream().map(Rule::id).toList();
        assertThat(ids).doesNotHaveDuplicates().allMatch(id -> id.matches(RuleCatalogValidator.RULE_ID));
    }

    @Test
    void theCatalogHoldsAtLeast120Rules() {
        assertThat(catalog.rules()).hasSizeGreaterThanOrEqualTo(120);
    }

    @Test
    void everyDigestIdIsPresent() {
        assertThat(catalog.rules().stream().map(Rule::id)).containsAll(DIGEST_IDS);
    }

    @Test
    void everyRuleOfOurOwnIsPresentWithBasisKitInterpretation() {
        assertThat(catalog.rules().stream().map(Rule::id)).containsAll(OWN_IDS);
        for (String id : OWN_IDS) {
            Rule r = catalog.find(id).orElseThrow();
            assertThat(r.basis()).as(id).isEqualTo(Basis.KIT_INTERPRETATION);
            assertThat(r.strength()).as(id).isEqualTo(Strength.MUST);
            assertThat(r.check()).as(id).isEqualTo(Check.PROVIDER_PROPERTY);
        }
    }

    @Test
    void theTransportRulesAreTheKitsReadingsWithTheirBasis() {
        for (String id : TRANSPORT_IDS) {
            Rule r = catalog.find(id).orElseThrow();
            assertThat(r.basis()).as(id).isEqualTo(Basis.KIT_INTERPRETATION);
            assertThat(r.strength()).as(id).isEqualTo(Strength.MUST);
            assertThat(r.group()).as(id).isEqualTo("Transport the kit relies on");
        }
        assertThat(catalog.find("TR-1").orElseThrow().check()).isEqualTo(Check.PROVIDER_PROPERTY);
        assertThat(catalog.find("TR-2").orElseThrow().check()).isEqualTo(Check.CONSUMER_OBLIGATION);
        assertThat(catalog.find("TR-3").orElseThrow().check()).isEqualTo(Check.CONSUMER_OBLIGATION);
        assertThat(catalog.find("TR-4").orElseThrow().check()).isEqualTo(Check.PROVIDER_PROPERTY);
    }

    @Test
    void theCatalogHoldsOnlyDigestIdsAndOurOwn() {
        Set<String> known = new TreeSet<>(DIGEST_IDS);
        known.addAll(OWN_IDS);
        known.addAll(AUDIT_IDS);
        known.addAll(TRANSPORT_IDS);
        assertThat(catalog.rules().stream().map(Rule::id)).allMatch(known::contains);
    }

    @Test
    void everyTextFieldIsFilled() {
        for (Rule r : catalog.rules()) {
            assertThat(Stream.of(r.title(), r.function(), r.group(), r.statement(), r.howChecked(), r.source()))
                    .as(r.id()).allMatch(s -> s != null && !s.isBlank());
            assertThat(r.statement()).as(r.id()).isNotEqualTo(r.title());
            assertThat(r.howChecked()).as(r.id()).isNotEqualTo(r.statement());
        }
    }

    @Test
    void providerPropertiesSayWhatThePropertyDoes() {
        assertThat(catalog.rules().stream().filter(Rule::needsProperty))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.howChecked()).as(r.id()).isNotBlank().hasSizeGreaterThan(40));
    }

    @Test
    void theRegisterHoldsAmb1ToAmb20AndEveryEntryIsCited() {
        List<String> ids = catalog.ambiguities().stream().map(Ambiguity::id).toList();
        assertThat(ids).containsAll(IntStream.rangeClosed(1, 20).mapToObj(i -> "AMB-" + i).toList());
        for (Ambiguity a : catalog.ambiguities()) {
            assertThat(a.readingA()).as(a.id()).isNotEqualTo(a.readingB());
            assertThat(catalog.rulesCiting(a.id())).as("rules citing " + a.id()).isNotEmpty();
        }
    }

    @Test
    void securityRulesAreMustByKitInterpretation() {
        for (String id : SECURITY_IDS) {
            Rule r = catalog.find(id).orElseThrow();
            assertThat(r.strength()).as(id).isEqualTo(Strength.MUST);
            assertThat(r.basis()).as(id).isEqualTo(Basis.KIT_INTERPRETATION);
            assertThat(r.check()).as(id).isEqualTo(Check.PROVIDER_PROPERTY);
        }
    }

    @Test
    void mustFailShouldCodeRulesAreMustAndListTheirCode() {
        assertThat(catalog.find("MR-REG-2").orElseThrow().allowedStatuses()).containsExactly("STATUS_INVALID_PARAMETER");
        assertThat(catalog.find("LAM-2").orElseThrow().allowedStatuses()).containsExactly("STATUS_INVALID_PARAMETER");
        assertThat(catalog.find("MR-FRI-3").orElseThrow().allowedStatuses()).containsExactly("STATUS_IMPLEMENTATION_LIMIT");
        assertThat(catalog.find("MR-FR-6").orElseThrow().allowedStatuses()).containsExactly("STATUS_ACCESS_VIOLATION");
        for (String id : List.of("MR-FR-7", "INV-2", "RW-2")) {
            assertThat(catalog.find(id).orElseThrow().allowedStatuses()).as(id).containsExactly("STATUS_CONNECTION_INVALID");
        }
        for (String id : List.of("MR-REG-2", "LAM-2", "MR-FRI-3", "MR-FR-6", "MR-FR-7", "INV-2", "RW-2")) {
            Rule r = catalog.find(id).orElseThrow();
            assertThat(r.strength()).as(id).isEqualTo(Strength.MUST);
            assertThat(r.howChecked()).as(id).contains("ADVISORY");
        }
    }

    @Test
    void capabilityRulesNameTheirCapabilities() {
        String sinkNotRequired = "ADAPTER_FLAG:RDMA_READ_SINK_NOT_REQUIRED";
        for (String id : List.of("MR-REG-7", "MR-FR-11", "PRIV-3")) {
            assertThat(catalog.find(id).orElseThrow().requires()).as(id).containsExactly(sinkNotRequired);
        }
        assertThat(catalog.find("RW-4").orElseThrow().requires())
                .containsExactlyInAnyOrder("ADAPTER_FLAG:RDMA_READ_LOCAL_INVALIDATE_SUPPORTED", "NDK_VERSION:1.2");
        for (String id : List.of("DEF-1", "DEF-3", "DEF-4")) {
            assertThat(catalog.find(id).orElseThrow().requires()).as(id).containsExactly("NDK_VERSION:1.2");
        }
    }

    @Test
    void consumerSideFastRegisterRulesAreAlsoTestedOnTheProvider() {
        for (String id : List.of("MR-FR-3", "MR-FR-4")) {
            Rule r = catalog.find(id).orElseThrow();
            assertThat(r.binds()).as(id).isEqualTo(Binds.BOTH);
            assertThat(r.check()).as(id).isEqualTo(Check.PROVIDER_PROPERTY);
        }
    }

    @Test
    void irqlLockAndPoolRulesAreNotBlackBoxTestable() {
        for (String id : List.of("GEN-IRQL-1", "OBJ-3", "LAM-6", "WRP-3")) {
            assertThat(catalog.find(id).orElseThrow().check()).as(id).isEqualTo(Check.NOT_BLACK_BOX_TESTABLE);
        }
    }

    /** Every rule ID a docstring of the spec cites must exist, so javadoc and catalog cannot drift apart. */
    @Test
    void everyRuleIdCitedInTheSpecSourcesExists() throws IOException {
        Path src = specDir().resolve("src/main/java");
        Pattern id = Pattern.compile("\\b(?:GEN|OBJ|MR|PRIV|SGE|LAM|INV|WRP|RW|FL|CQ|DEF|CL|AI|SND)(?:-[A-Z]+)*-\\d+\\b");
        Set<String> cited = new TreeSet<>();
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = id.matcher(Files.readString(f));
                while (m.find()) {
                    cited.add(m.group());
                }
            }
        }
        assertThat(cited).isNotEmpty();
        assertThat(cited).allSatisfy(c -> assertThat(catalog.find(c)).as("rule " + c + " cited in spec sources").isPresent());
    }

    /** The spec module's directory: Surefire's basedir, else the working directory (or its spec/ child). */
    static Path specDir() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        if (Files.isDirectory(base.resolve("src/main/resources/org/ndktck/spec/rules"))) {
            return base;
        }
        return base.resolve("spec");
    }
}
