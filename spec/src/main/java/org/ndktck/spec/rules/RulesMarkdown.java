package org.ndktck.spec.rules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Renders the rule catalog as {@code spec/RULES.md} (design section 4): a summary, a table of contents,
 * then every rule grouped by its {@link Rule#group() section} in catalog order, then the ambiguity register.
 *
 * <p>The output is a pure function of the catalog (no dates, no machine names), so a test can compare the
 * committed file with {@link #render(RuleCatalog)} byte for byte; lines end with {@code \n}. The committed
 * file is regenerated with {@link #REGENERATE_COMMAND}, or with {@link #main(String[])} given a path.
 */
public final class RulesMarkdown {
    /** The one-liner, run from the repository root, that rewrites {@code spec/RULES.md} from the catalog. */
    public static final String REGENERATE_COMMAND =
            "mvn -q -B -pl spec test -Dtest=RulesMarkdownTest -Dndk.rules.regenerate=true";

    /** Where the rendered file lives, relative to the repository root. */
    public static final String DEFAULT_PATH = "spec/RULES.md";

    private RulesMarkdown() {
    }

    /**
     * Writes the rendering of the standard catalog to a file.
     *
     * @param args optional: the output path (default {@value #DEFAULT_PATH}, relative to the working directory)
     * @throws IOException when the file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : DEFAULT_PATH);
        Files.writeString(out, render(RuleCatalog.standard()), StandardCharsets.UTF_8);
        System.out.println("wrote " + out.toAbsolutePath());
    }

    /**
     * Renders a catalog as Markdown, with the standard page audit ({@link PageAudit#standard()}).
     *
     * @param catalog the catalog
     * @return the whole document, ending with one newline
     */
    public static String render(RuleCatalog catalog) {
        return render(catalog, PageAudit.standard());
    }

    /**
     * Renders a catalog and a page audit as Markdown; an empty audit renders no audit section.
     *
     * @param catalog the catalog
     * @param audit   the page audit
     * @return the whole document, ending with one newline
     */
    public static String render(RuleCatalog catalog, PageAudit audit) {
        StringBuilder md = new StringBuilder();
        Map<String, List<Rule>> groups = catalog.rules().stream()
                .collect(Collectors.groupingBy(Rule::group, LinkedHashMap::new, Collectors.toList()));

        md.append("# NDK memory-region rules\n\n");
        md.append("<!-- GENERATED FILE, DO NOT EDIT: rendered from ")
                .append("spec/src/main/resources/org/ndktck/spec/rules/catalog.yaml")
                .append(" by org.ndktck.spec.rules.RulesMarkdown. -->\n\n");
        md.append("This file is generated from the rule catalog, the single source of truth for rule IDs; ")
                .append("`RulesMarkdownTest` fails when the two differ. Edit the catalog, then regenerate ")
                .append("from the repository root:\n\n");
        md.append("    ").append(REGENERATE_COMMAND).append("\n\n");
        md.append("Statements are the kit's own paraphrases of the NDKPI pages. Sources use the notation of the ")
                .append("rules digest: `D:<name>` is the NDKPI reference page of `NDK_FN_<NAME>` (struct and enum ")
                .append("pages by file name), `N:<file>` a page of the NDKPI programming guide, `S` the ")
                .append("NDK_ADAPTER_INFO page, `H` ndkpi.h, `HI` ndkinfo.h, `L` the current online rendering.\n\n");

        md.append("## Summary\n\n");
        md.append("- ").append(catalog.rules().size()).append(" rules in ").append(groups.size())
                .append(" sections, and ").append(catalog.ambiguities().size()).append(" ambiguity entries.\n");
        md.append("- By check: ").append(counts(catalog.rules(), Check.class, Rule::check)).append(".\n");
        md.append("- By strength: ").append(counts(catalog.rules(), Strength.class, Rule::strength)).append(".\n");
        md.append("- By basis: ").append(counts(catalog.rules(), Basis.class, Rule::basis)).append(".\n");
        md.append("- By binds: ").append(counts(catalog.rules(), Binds.class, Rule::binds)).append(".\n\n");
        md.append("Reading an entry: **Strength** MUST and MUST NOT fail the run when broken, SHOULD and ")
                .append("SHOULD NOT give an ADVISORY finding, MAY, FACT and UNSPECIFIED are never a failure. ")
                .append("**Check** PROVIDER_PROPERTY rules are tested by kit properties; CONSUMER_OBLIGATION ")
                .append("rules are obeyed by the kit; NOT_BLACK_BOX_TESTABLE and INFORMATIONAL rules are ")
                .append("reported, not tested. **Requires** names the adapter capabilities without which the ")
                .append("rule is NOT_APPLICABLE.\n\n");

        md.append("## Contents\n\n");
        md.append("| Section | Entries |\n|---|---|\n");
        for (Map.Entry<String, List<Rule>> g : groups.entrySet()) {
            md.append("| [").append(cell(g.getKey())).append("](#").append(slug(g.getKey())).append(") | ")
                    .append(g.getValue().size()).append(" |\n");
        }
        md.append("| [Ambiguity register](#ambiguity-register) | ").append(catalog.ambiguities().size())
                .append(" |\n");
        if (!audit.pages().isEmpty()) {
            md.append("| [Page audit](#page-audit) | ").append(audit.pages().size()).append(" |\n");
        }
        md.append('\n');

        for (Map.Entry<String, List<Rule>> g : groups.entrySet()) {
            renderGroup(md, g.getKey(), g.getValue());
        }

        md.append("## Ambiguity register\n\n");
        md.append("Where the pages can be read two ways, both readings, their sources and the reading the kit ")
                .append("applies.\n\n");
        for (Ambiguity a : catalog.ambiguities()) {
            renderAmbiguity(md, a, catalog.rulesCiting(a.id()));
        }
        if (!audit.pages().isEmpty()) {
            PageAuditMarkdown.render(md, audit);
        }
        // exactly one trailing newline
        while (md.length() > 1 && md.charAt(md.length() - 1) == '\n' && md.charAt(md.length() - 2) == '\n') {
            md.setLength(md.length() - 1);
        }
        return md.toString();
    }

    private static void renderGroup(StringBuilder md, String group, List<Rule> rules) {
        md.append("## ").append(text(group)).append("\n\n");
        md.append("| ID | Title | Strength | Binds | Check |\n|---|---|---|---|---|\n");
        for (Rule r : rules) {
            md.append("| [").append(r.id()).append("](#").append(slug(r.id())).append(") | ")
                    .append(cell(r.title())).append(" | ").append(r.strength().words()).append(" | ")
                    .append(r.binds()).append(" | ").append(r.check()).append(" |\n");
        }
        md.append('\n');
        for (Rule r : rules) {
            renderRule(md, r);
        }
    }

    private static void renderRule(StringBuilder md, Rule r) {
        md.append("### ").append(r.id()).append("\n\n");
        md.append("**").append(text(r.title())).append("**\n\n");
        md.append("- **Function:** ").append(text(r.function())).append('\n');
        md.append("- **Strength:** ").append(r.strength().words())
                .append(" · **Binds:** ").append(r.binds())
                .append(" · **Basis:** ").append(r.basis())
                .append(" · **Check:** ").append(r.check()).append('\n');
        if (r.basis() == Basis.KIT_INTERPRETATION) {
            md.append("- **A broken check is:** ").append(r.failIsAdvisory() ? "ADVISORY (kit interpretation)"
                    : "FAIL (guards " + r.guards() + ")").append('\n');
        }
        md.append("- **Statement:** ").append(text(r.statement())).append('\n');
        md.append("- **How checked:** ").append(text(r.howChecked())).append('\n');
        md.append("- **Allowed statuses:** ")
                .append(r.allowedStatuses().isEmpty() ? "none listed" : String.join(", ", r.allowedStatuses().stream()
                        .map(RulesMarkdown::text).toList()))
                .append('\n');
        md.append("- **Source:** ").append(text(r.source())).append('\n');
        md.append("- **Ambiguities:** ")
                .append(r.ambiguities().isEmpty() ? "none" : String.join(", ", r.ambiguities().stream()
                        .map(a -> "[" + a + "](#" + slug(a) + ")").toList()))
                .append('\n');
        md.append("- **Requires:** ")
                .append(r.requires().isEmpty() ? "nothing (always applicable)" : String.join(", ", r.requires().stream()
                        .map(q -> "`" + q + "`").toList()))
                .append("\n\n");
    }

    private static void renderAmbiguity(StringBuilder md, Ambiguity a, List<Rule> citing) {
        md.append("### ").append(a.id()).append("\n\n");
        md.append("**").append(text(a.title())).append("**\n\n");
        md.append("- **Reading A:** ").append(text(a.readingA())).append('\n');
        md.append("- **Reading B:** ").append(text(a.readingB())).append('\n');
        md.append("- **Sources:** ").append(text(String.join("; ", a.sources()))).append('\n');
        md.append("- **Chosen:** ").append(text(a.chosen())).append('\n');
        md.append("- **Cited by:** ")
                .append(citing.isEmpty() ? "no rule" : String.join(", ", citing.stream()
                        .map(r -> "[" + r.id() + "](#" + slug(r.id()) + ")").toList()))
                .append("\n\n");
    }

    private static <E extends Enum<E>> String counts(List<Rule> rules, Class<E> type, Function<Rule, E> key) {
        Map<E, Long> n = new EnumMap<>(type);
        for (Rule r : rules) {
            n.merge(key.apply(r), 1L, Long::sum);
        }
        List<String> parts = new ArrayList<>();
        n.forEach((k, v) -> parts.add(k.name() + " " + v));
        return String.join(", ", parts);
    }

    /**
     * A GitHub heading anchor: lower case, blanks to hyphens, everything but letters, digits, hyphens and
     * underscores dropped.
     */
    static String slug(String heading) {
        StringBuilder s = new StringBuilder();
        for (char c : heading.toLowerCase(Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                s.append(c);
            } else if (c == ' ') {
                s.append('-');
            }
        }
        return s.toString();
    }

    /** Text in a table cell: as {@link #text(String)}, with pipes escaped. */
    private static String cell(String s) {
        return text(s).replace("|", "\\|");
    }

    /**
     * Running text: whitespace collapsed to single blanks (the catalog folds long lines), {@code *} and
     * {@code <} escaped, and an underscore escaped where it touches a non-word character (so
     * {@code _IRQL_requires_max_} does not turn into emphasis, while STATUS_SUCCESS stays readable).
     */
    static String text(String s) {
        String t = s.strip().replaceAll("\\s+", " ");
        StringBuilder out = new StringBuilder(t.length() + 8);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            switch (c) {
                case '*' -> out.append("\\*");
                case '<' -> out.append("&lt;");
                case '_' -> {
                    boolean wordBefore = i > 0 && Character.isLetterOrDigit(t.charAt(i - 1));
                    boolean wordAfter = i + 1 < t.length() && Character.isLetterOrDigit(t.charAt(i + 1));
                    out.append(wordBefore && wordAfter ? "_" : "\\_");
                }
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
