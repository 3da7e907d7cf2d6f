package org.ndktck.spec.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks the page audit against the catalog. One message per problem:
 * <ul>
 *   <li>each page is named once, in the catalog's source notation ({@value #PAGE}), with a title and a path,
 *       says where its text was read ({@code readFrom}) and when that text last changed ({@code lastChanged},
 *       YYYY-MM-DD or {@code unknown}), and holds at least one statement;</li>
 *   <li>each statement says something, names whom it binds, and has either rule IDs or a reason (not both,
 *       not neither);</li>
 *   <li>every rule ID the audit names (statements and {@code kitRules}) is a catalog rule;</li>
 *   <li>every page a catalog rule gives as its source ({@code D:}, {@code N:} or {@code S}) is audited, and
 *       the rule appears in that page's statements or kit rules.</li>
 * </ul>
 */
public final class PageAuditValidator {
    /** The form of a page name: {@code D:<name>}, {@code N:<file>} or {@code S}. */
    public static final String PAGE = "^(?:[DN]:\\S+|S)$";

    private static final Pattern PAGE_PATTERN = Pattern.compile(PAGE);

    private PageAuditValidator() {
    }

    /**
     * @param audit   the page audit
     * @param catalog the rule catalog it maps to
     * @return a human-readable message per problem, in file order; empty when the two agree
     */
    public static List<String> problems(PageAudit audit, RuleCatalog catalog) {
        List<String> out = new ArrayList<>();
        Set<String> pages = new HashSet<>();
        for (AuditedPage p : audit.pages()) {
            String where = "page " + p.page();
            if (p.page() == null || !PAGE_PATTERN.matcher(p.page()).matches()) {
                out.add(where + ": not in source notation (D:<name>, N:<file> or S)");
            } else if (!pages.add(p.page())) {
                out.add(where + ": audited twice");
            }
            if (blank(p.title())) {
                out.add(where + ": no title");
            }
            if (blank(p.path())) {
                out.add(where + ": no path");
            }
            if (blank(p.readFrom())) {
                out.add(where + ": no readFrom (the mirror and commit its text was read from)");
            }
            if (blank(p.lastChanged()) || !p.lastChanged().matches("\\d{4}-\\d{2}-\\d{2}|unknown")) {
                out.add(where + ": lastChanged must be the date of the page's last text change (YYYY-MM-DD) or unknown");
            }
            if (p.statements().isEmpty()) {
                out.add(where + ": no statement");
            }
            for (int i = 0; i < p.statements().size(); i++) {
                AuditStatement st = p.statements().get(i);
                String at = where + " statement " + (i + 1);
                if (blank(st.says())) {
                    out.add(at + ": says nothing");
                }
                if (st.binds() == null) {
                    out.add(at + ": binds is not set");
                }
                if (st.rules().isEmpty() && blank(st.reason())) {
                    out.add(at + ": neither rule IDs nor a reason why none");
                }
                if (!st.rules().isEmpty() && !blank(st.reason())) {
                    out.add(at + ": both rule IDs and a reason");
                }
                for (String id : st.rules()) {
                    if (catalog.find(id).isEmpty()) {
                        out.add(at + ": names " + id + ", which is not a catalog rule");
                    }
                }
            }
            for (String id : p.kitRules()) {
                if (catalog.find(id).isEmpty()) {
                    out.add(where + " kitRules: names " + id + ", which is not a catalog rule");
                }
            }
        }
        for (Rule r : catalog.rules()) {
            for (String page : sourcePages(r.source())) {
                var audited = audit.find(page);
                if (audited.isEmpty()) {
                    out.add("rule " + r.id() + ": its source " + page + " is not audited");
                } else if (!mentions(audited.get(), r.id())) {
                    out.add("rule " + r.id() + ": cites " + page + " but no statement of that page (nor its kitRules) names it");
                }
            }
        }
        return out;
    }

    /**
     * The audited pages a rule's source names: each {@code ;}-separated part that starts with {@code D:} or
     * {@code N:}, or is {@code S}, up to the first blank or parenthesis ({@code "D:register_mr (silent on zero
     * Length)"} gives {@code D:register_mr}). Headers (H, HI), the online rendering (L) and other notes are
     * not pages of the audit.
     *
     * @param source a rule's source field
     * @return the page names, in order, each once
     */
    public static Set<String> sourcePages(String source) {
        Set<String> out = new LinkedHashSet<>();
        if (source == null) {
            return out;
        }
        for (String part : source.split(";")) {
            String t = part.strip();
            int cut = t.length();
            for (int i = 0; i < t.length(); i++) {
                char c = t.charAt(i);
                if (c == ' ' || c == '(') {
                    cut = i;
                    break;
                }
            }
            String name = t.substring(0, cut);
            if (name.startsWith("D:") || name.startsWith("N:") || name.equals("S")) {
                out.add(name);
            }
        }
        return out;
    }

    private static boolean mentions(AuditedPage p, String id) {
        return p.kitRules().contains(id) || p.statements().stream().anyMatch(s -> s.rules().contains(id));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
