package org.ndktck.spec.rules;

/**
 * The "Page audit" section of {@code spec/RULES.md}: per audited page how many normative statements it
 * holds and how many the catalog covers, then each page's statements with the rules that hold them or the reason
 * why none does. Called by {@link RulesMarkdown}; a pure function of the audit.
 */
final class PageAuditMarkdown {
    private PageAuditMarkdown() {
    }

    /**
     * Appends the section.
     *
     * @param md    the document so far
     * @param audit a non-empty audit
     */
    static void render(StringBuilder md, PageAudit audit) {
        md.append("## Page audit\n\n");
        md.append("Every in-scope NDKPI page, read sentence by sentence: each statement that binds the provider or the ")
                .append("consumer, in the kit's words, with the catalog rules that hold it or the reason why none does. ")
                .append("The data is `spec/src/main/resources/org/ndktck/spec/rules/audit.yaml`; `PageAuditTest` checks ")
                .append("it against the catalog. **Kit rules** cite the page for a question it leaves open.\n\n");
        md.append("| Page | Documents | Statements | Covered | Without a rule |\n|---|---|---|---|---|\n");
        for (AuditedPage p : audit.pages()) {
            long covered = p.coveredCount();
            md.append("| [").append(RulesMarkdown.text(p.page())).append("](#").append(RulesMarkdown.slug(heading(p)))
                    .append(") | ").append(RulesMarkdown.text(p.title()).replace("|", "\\|")).append(" | ")
                    .append(p.statements().size()).append(" | ").append(covered).append(" | ")
                    .append(p.statements().size() - covered).append(" |\n");
        }
        md.append("| **All pages** | | ").append(audit.statementCount()).append(" | ").append(audit.coveredCount())
                .append(" | ").append(audit.statementCount() - audit.coveredCount()).append(" |\n\n");
        for (AuditedPage p : audit.pages()) {
            md.append("### ").append(RulesMarkdown.text(heading(p))).append("\n\n");
            md.append("`").append(p.path()).append("`: ").append(p.statements().size()).append(" statements, ")
                    .append(p.coveredCount()).append(" covered. Read from ").append(RulesMarkdown.text(String.valueOf(p.readFrom())))
                    .append(", text last changed ").append(String.valueOf(p.lastChanged())).append(".\n\n");
            int n = 1;
            for (AuditStatement st : p.statements()) {
                md.append(n++).append(". ").append(RulesMarkdown.text(st.says())).append(" *(").append(st.binds()).append(")* → ");
                if (st.covered()) {
                    md.append(String.join(", ", st.rules().stream().map(id -> "[" + id + "](#" + RulesMarkdown.slug(id) + ")").toList()));
                } else {
                    md.append("no rule: ").append(RulesMarkdown.text(st.reason()));
                }
                md.append('\n');
            }
            md.append('\n');
            if (!p.kitRules().isEmpty()) {
                md.append("Kit rules: ").append(String.join(", ", p.kitRules().stream()
                        .map(id -> "[" + id + "](#" + RulesMarkdown.slug(id) + ")").toList())).append(".\n\n");
            }
        }
    }

    /** The page's heading, e.g. "NdkFastRegister (D:fast_register)". */
    static String heading(AuditedPage p) {
        return p.title() + " (" + p.page() + ")";
    }
}
