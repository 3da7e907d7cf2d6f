package org.ndktck.spec.rules;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page audit agrees with the catalog: every statement maps to catalog rules or says why none
 * holds it, every rule the audit names exists, and every rule that cites a page appears in that page's audit.
 */
class PageAuditTest {

    private final PageAudit audit = PageAudit.standard();
    private final RuleCatalog catalog = RuleCatalog.standard();

    /** The pages the audit puts in scope (the conceptual pages and the function and structure pages). */
    static final List<String> IN_SCOPE = List.of(
            "D:create_mr", "D:register_mr", "D:deregister_mr", "D:initialize_fast_register_mr", "D:fast_register",
            "D:get_remote_token_from_mr", "D:get_local_token_from_mr", "D:get_privileged_memory_region_token",
            "D:build_lam", "D:release_lam", "D:request_completion", "D:create_completion", "D:close_completion",
            "D:ns-ndkpi-_ndk_sge.md", "D:ns-ndkpi-_ndk_result.md", "D:ns-ndkpi-_ndk_result_ex.md", "S",
            "D:ns-ndkpi-_ndk_mr.md", "D:ns-ndkpi-_ndk_object_header.md",
            "D:read", "D:write", "D:send", "D:send_and_invalidate", "D:receive", "D:flush", "D:invalidate",
            "N:ndkpi-object-lifetime-requirements.md", "N:ndkpi-deferred-processing-scheme.md",
            "N:ndkpi-work-request-posting-requirements.md", "N:ndkpi-completion-handling-requirements.md");

    @Test
    void theAuditAgreesWithTheCatalog() {
        assertThat(PageAuditValidator.problems(audit, catalog)).isEmpty();
    }

    @Test
    void everyInScopePageIsAudited() {
        assertThat(audit.pages().stream().map(AuditedPage::page)).containsAll(IN_SCOPE);
    }

    @Test
    void theCountsAddUp() {
        long statements = audit.pages().stream().mapToLong(p -> p.statements().size()).sum();
        assertThat(audit.statementCount()).isEqualTo(statements).isGreaterThanOrEqualTo(188);
        assertThat(audit.coveredCount()).isLessThanOrEqualTo(statements).isPositive();
        for (AuditedPage p : audit.pages()) {
            assertThat(p.coveredCount()).as(p.page())
                    .isEqualTo(p.statements().stream().filter(s -> !s.rules().isEmpty()).count());
        }
    }

    @Test
    void issue17sExamplesHaveTheirRules() {
        AuditedPage sai = audit.find("D:send_and_invalidate").orElseThrow();
        assertThat(sai.statements().stream().flatMap(s -> s.rules().stream())).contains("INV-6", "SND-2", "SND-3");
        AuditedPage fr = audit.find("D:fast_register").orElseThrow();
        assertThat(fr.statements().stream().flatMap(s -> s.rules().stream())).contains("MR-FR-20");
    }

    @Test
    void aStatementWithoutRulesOrReasonIsReported() {
        AuditStatement bare = new AuditStatement("Something binding.", Binds.PROVIDER, List.of(), " ");
        AuditStatement both = new AuditStatement("Something else.", Binds.PROVIDER, List.of("OBJ-1"), "and a reason");
        AuditStatement ghost = new AuditStatement("A third.", null, List.of("NO-SUCH-1"), null);
        PageAudit a = PageAudit.of(List.of(new AuditedPage("D:ns-ndkpi-_ndk_mr.md", "NDK_MR", "repo:path",
                List.of(bare, both, ghost), List.of("NOPE-2"))));
        List<String> problems = PageAuditValidator.problems(a, catalog);
        assertThat(problems).anyMatch(p -> p.contains("statement 1") && p.contains("neither rule IDs nor a reason"))
                .anyMatch(p -> p.contains("statement 2") && p.contains("both"))
                .anyMatch(p -> p.contains("statement 3") && p.contains("NO-SUCH-1"))
                .anyMatch(p -> p.contains("statement 3") && p.contains("binds"))
                .anyMatch(p -> p.contains("kitRules") && p.contains("NOPE-2"))
                // OBJ-4 cites D:ns-ndkpi-_ndk_mr.md, which this audit maps to OBJ-1 only
                .anyMatch(p -> p.startsWith("rule OBJ-4:") && p.contains("no statement"))
                // D:register_mr is not audited here at all
                .anyMatch(p -> p.startsWith("rule MR-REG-1:") && p.contains("not audited"));
    }

    @Test
    void badPageNamesAndDuplicatesAreReported() {
        AuditStatement s = new AuditStatement("x", Binds.CONSUMER, List.of("OBJ-1"), null);
        AuditedPage p = new AuditedPage("fast_register", "T", "p", List.of(s), List.of());
        AuditedPage d1 = new AuditedPage("S", "T", "p", List.of(s), List.of());
        AuditedPage d2 = new AuditedPage("S", "", "", List.of(), List.of());
        List<String> problems = PageAuditValidator.problems(PageAudit.of(List.of(p, d1, d2)), RuleCatalog.of(List.of(), List.of()));
        assertThat(problems).contains("page fast_register: not in source notation (D:<name>, N:<file> or S)",
                "page S: audited twice", "page S: no title", "page S: no path", "page S: no statement");
    }

    @Test
    void sourcePagesAreReadFromTheCatalogNotation() {
        assertThat(PageAuditValidator.sourcePages("D:register_mr (silent on zero Length); H; S; HI; L; N:x.md"))
                .containsExactly("D:register_mr", "S", "N:x.md");
        assertThat(PageAuditValidator.sourcePages("H (_IRQL_requires_max_); req.irql of each D page")).isEmpty();
    }

    @Test
    void rulesMdShowsEachPageWithItsCounts() {
        String md = RulesMarkdown.render(catalog, audit);
        assertThat(md).contains("\n## Page audit\n").contains("| [Page audit](#page-audit) | " + audit.pages().size() + " |");
        for (AuditedPage p : audit.pages()) {
            long covered = p.coveredCount();
            assertThat(md).contains(" | " + p.statements().size() + " | " + covered + " | " + (p.statements().size() - covered) + " |\n")
                    .contains("\n### " + RulesMarkdown.text(PageAuditMarkdown.heading(p)) + "\n");
        }
        assertThat(RulesMarkdown.render(catalog, PageAudit.empty())).doesNotContain("## Page audit");
    }
}
