package org.ndktck.spec.rules;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * spec/RULES.md is the rendering of the catalog. Run with {@code -Dndk.rules.regenerate=true} (see
 * {@link RulesMarkdown#REGENERATE_COMMAND}) to rewrite the file instead of failing.
 */
class RulesMarkdownTest {

    private final RuleCatalog catalog = RuleCatalog.standard();

    @Test
    void committedRulesMdMatchesTheCatalog() throws IOException {
        Path file = RuleCatalogTest.specDir().resolve("RULES.md");
        String expected = RulesMarkdown.render(catalog);
        if (Boolean.getBoolean("ndk.rules.regenerate")) {
            Files.writeString(file, expected, StandardCharsets.UTF_8);
            System.out.println("regenerated " + file.toAbsolutePath());
        }
        String actual = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n") : null;
        if (actual == null) {
            fail("spec/RULES.md is missing. Generate it from the repository root with:%n  %s",
                    RulesMarkdown.REGENERATE_COMMAND);
        }
        if (!actual.equals(expected)) {
            fail("spec/RULES.md is out of date with catalog.yaml (%s). Regenerate it from the repository root with:%n  %s",
                    firstDifference(expected, actual), RulesMarkdown.REGENERATE_COMMAND);
        }
    }

    @Test
    void driftIsDetected() {
        String expected = RulesMarkdown.render(catalog);
        String edited = expected.replace("### MR-FR-4\n", "### MR-FR-4 (edited)\n");
        assertThat(edited).isNotEqualTo(expected);
        assertThat(firstDifference(expected, edited)).contains("line").contains("MR-FR-4 (edited)");
    }

    @Test
    void theRenderingIsDeterministicAndEndsWithOneNewline() {
        String a = RulesMarkdown.render(catalog);
        assertThat(RulesMarkdown.render(catalog)).isEqualTo(a);
        assertThat(a).endsWith("\n").doesNotEndWith("\n\n").doesNotContain("\r");
        assertThat(a).contains(RulesMarkdown.REGENERATE_COMMAND);
    }

    @Test
    void everyRuleAndAmbiguityHasItsSection() {
        String md = RulesMarkdown.render(catalog);
        for (Rule r : catalog.rules()) {
            assertThat(md).contains("\n### " + r.id() + "\n").contains("](#" + RulesMarkdown.slug(r.id()) + ")");
        }
        for (Ambiguity a : catalog.ambiguities()) {
            assertThat(md).contains("\n### " + a.id() + "\n");
        }
        for (String group : catalog.rules().stream().map(Rule::group).distinct().toList()) {
            assertThat(md).contains("\n## " + RulesMarkdown.text(group) + "\n");
        }
    }

    @Test
    void aRuleEntryShowsEveryField() {
        Rule r = new Rule("MR-FR-4", "T", "NdkFastRegister", "NdkFastRegister", Binds.BOTH, Strength.MUST_NOT,
                Basis.KIT_INTERPRETATION, Check.PROVIDER_PROPERTY, "The *statement*.", "Checked _so_.",
                List.of("STATUS_ACCESS_VIOLATION"), "D:fast_register", List.of("AMB-1"), List.of("NDK_VERSION:1.2"));
        Ambiguity a = new Ambiguity("AMB-1", "Amb title", "first", "second", List.of("D:fast_register", "H"), "chosen one");
        String md = RulesMarkdown.render(RuleCatalog.of(List.of(r), List.of(a)));
        assertThat(md).contains("## NdkFastRegister\n")
                .contains("| [MR-FR-4](#mr-fr-4) | T | MUST NOT | BOTH | PROVIDER_PROPERTY |")
                .contains("**Strength:** MUST NOT · **Binds:** BOTH · **Basis:** KIT_INTERPRETATION · **Check:** PROVIDER_PROPERTY")
                .contains("**Statement:** The \\*statement\\*.")
                .contains("**How checked:** Checked \\_so\\_.")
                .contains("**Allowed statuses:** STATUS_ACCESS_VIOLATION")
                .contains("**Source:** D:fast_register")
                .contains("**Ambiguities:** [AMB-1](#amb-1)")
                .contains("**Requires:** `NDK_VERSION:1.2`")
                .contains("**Reading A:** first")
                .contains("**Reading B:** second")
                .contains("**Sources:** D:fast_register; H")
                .contains("**Chosen:** chosen one")
                .contains("**Cited by:** [MR-FR-4](#mr-fr-4)");
    }

    @Test
    void textEscapesMarkdownButKeepsConstantNamesReadable() {
        assertThat(RulesMarkdown.text("*pLAMSize and *pFBO")).isEqualTo("\\*pLAMSize and \\*pFBO");
        assertThat(RulesMarkdown.text("H (_IRQL_requires_max_)")).isEqualTo("H (\\_IRQL_requires_max\\_)");
        assertThat(RulesMarkdown.text("STATUS_SUCCESS")).isEqualTo("STATUS_SUCCESS");
        assertThat(RulesMarkdown.text("a <b>\n   c")).isEqualTo("a &lt;b> c");
    }

    @Test
    void slugsFollowGitHubHeadingAnchors() {
        assertThat(RulesMarkdown.slug("MR-FR-4")).isEqualTo("mr-fr-4");
        assertThat(RulesMarkdown.slug("NdkBuildLam and NdkReleaseLam")).isEqualTo("ndkbuildlam-and-ndkreleaselam");
        assertThat(RulesMarkdown.slug("NDK_MR object header")).isEqualTo("ndk_mr-object-header");
    }

    /** @return "line N: expected '...' but was '...'" for the first line that differs */
    static String firstDifference(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String el = i < e.length ? e[i] : "<end of file>";
            String al = i < a.length ? a[i] : "<end of file>";
            if (!el.equals(al)) {
                return "first difference at line " + (i + 1) + ": expected '" + abbreviate(el) + "' but was '"
                        + abbreviate(al) + "'";
            }
        }
        return "no difference";
    }

    private static String abbreviate(String s) {
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}
