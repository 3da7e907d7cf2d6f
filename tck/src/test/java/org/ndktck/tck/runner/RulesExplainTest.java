package org.ndktck.tck.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code rules} and {@code explain}. */
class RulesExplainTest {
    @Test
    void rulesListsTheWholeCatalogWithTheKitsProperties() {
        Cli.Result r = Cli.run("rules", "--kit-package", Cli.PROBES);
        assertThat(r.code()).isZero();
        for (Rule rule : RuleCatalog.standard().rules()) {
            assertThat(r.out()).contains(rule.id()).contains(rule.title());
        }
        assertThat(r.out()).containsPattern("GEN-CB-1\\s+MUST\\s+PROVIDER_PROPERTY\\s+1\\s");
        // the property itself is named under its rule
        assertThat(r.out()).containsPattern("GEN-CB-1 [^\\n]*\\n\\s+property \\w+#\\w+");
        Cli.Result f = Cli.run("rules", "--rules", "MR-*", "--kit-package", Cli.PROBES);
        assertThat(f.out()).contains("MR-CREATE-2").doesNotContain("GEN-CB-1 ");
    }

    @Test
    void providersListsEveryProviderWithItsDescriptionAndFiltersByGlob() {
        Cli.Result all = Cli.run("providers");
        assertThat(all.code()).isZero();
        assertThat(all.out()).contains("reference").contains("fault:MR-FR-4").contains("legal:slow")
                .containsPattern("fault:GEN-CB-1/never\\s+alias of fault:GEN-CB-1/pending-never-completes");
        Cli.Result some = Cli.run("providers", "--names", "fault:GEN-TIME-1*");
        assertThat(some.code()).isZero();
        assertThat(some.out()).contains("fault:GEN-TIME-1/blocks-forever").doesNotContain("fault:MR-FR-4").doesNotContain("reference ");
        assertThat(some.out()).containsPattern("\\d+ of \\d+ providers");
        Cli.Result unknown = Cli.run("run", "--provider", "no-such-provider");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("./ndk-tck providers lists them all");
    }

    @Test
    void rulesJsonCarriesEveryField() throws IOException {
        Cli.Result r = Cli.run("rules", "--json", "--kit-package", Cli.PROBES);
        assertThat(r.code()).isZero();
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(doc.get("rules")).hasSize(RuleCatalog.standard().rules().size());
        JsonNode first = doc.get("rules").get(0);
        for (String f : new String[]{"id", "title", "function", "binds", "strength", "basis", "check", "statement",
                "howChecked", "allowedStatuses", "source", "ambiguities", "requires", "properties"}) {
            assertThat(first.has(f)).as(f).isTrue();
        }
        assertThat(doc.get("ambiguities").size()).isEqualTo(RuleCatalog.standard().ambiguities().size());
    }

    @Test
    void explainPrintsTheRuleWholeWithItsAmbiguityNotes() {
        Rule rule = RuleCatalog.standard().find("GEN-CB-2").orElseThrow();
        Cli.Result r = Cli.run("explain", "gen-cb-2", "--kit-package", Cli.PROBES);
        assertThat(r.code()).isZero();
        String flat = r.out().replaceAll("\\s+", " ");
        assertThat(flat).contains(rule.statement()).contains(rule.howChecked()).contains("MUST NOT")
                .contains("CallbackProbe#noCompletionAfterInlineReturn").contains("AMB-6")
                .contains(RuleCatalog.standard().findAmbiguity("AMB-6").orElseThrow().chosen())
                .contains("reading A:").contains("reading B:");
        Cli.Result amb = Cli.run("explain", "AMB-6");
        assertThat(amb.code()).isZero();
        assertThat(amb.out()).contains("GEN-CB-1");
    }

    @Test
    void explainJson() throws IOException {
        Cli.Result r = Cli.run("explain", "MR-CREATE-2", "--json", "--kit-package", Cli.PROBES);
        JsonNode n = new ObjectMapper().readTree(r.out());
        assertThat(n.get("id").asText()).isEqualTo("MR-CREATE-2");
        assertThat(n.get("properties").get(0).asText()).isEqualTo("CreateMrProbe#createSucceeds");
    }
}
