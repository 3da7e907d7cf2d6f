package org.ndktck.tck.runner;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Rule selection by ID or glob ({@code --rules MR-FR-*,GEN-CB-1}) and "did you mean" suggestions.
 * A pattern is a rule ID or a glob where {@code *} matches any run of characters and {@code ?} one
 * character; matching ignores case, as {@link org.ndktck.spec.rules.RuleCatalog#matching} does for the
 * catalog. Used for exclusion entries and for provider-name globs ({@code selftest --faults}).
 */
public final class RulePatterns {
    private RulePatterns() {
    }

    /**
     * @param ids         every known rule ID, in catalog order
     * @param csvPatterns comma-separated IDs or globs; blank means every rule
     * @return the matching IDs, in catalog order
     * @throws UsageException when one pattern matches no rule (the message names the closest IDs)
     */
    public static Set<String> select(List<String> ids, String csvPatterns) {
        if (csvPatterns == null || csvPatterns.isBlank()) {
            return new LinkedHashSet<>(ids);
        }
        Set<String> hit = new LinkedHashSet<>();
        for (String raw : csvPatterns.split(",")) {
            String p = raw.trim();
            if (p.isEmpty()) {
                continue;
            }
            Pattern regex = glob(p);
            boolean any = false;
            for (String id : ids) {
                if (regex.matcher(id).matches()) {
                    hit.add(id);
                    any = true;
                }
            }
            if (!any) {
                List<String> close = closest(ids, p.replace("*", "").replace("?", ""), 3);
                throw new UsageException("unknown rule pattern '" + p + "'"
                        + (close.isEmpty() ? "" : "; closest rule IDs: " + String.join(", ", close)),
                        "./ndk-tck rules lists every rule ID");
            }
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (String id : ids) {
            if (hit.contains(id)) {
                ordered.add(id);
            }
        }
        return ordered;
    }

    /**
     * @param glob an ID or a glob
     * @return a case-insensitive regex matching the whole ID
     */
    public static Pattern glob(String glob) {
        StringBuilder sb = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> sb.append(".*");
                case '?' -> sb.append('.');
                default -> sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(sb.toString(), Pattern.CASE_INSENSITIVE);
    }

    /**
     * @param ids   known IDs
     * @param query what the user typed
     * @param limit how many to return
     * @return the IDs closest to {@code query} by edit distance (ties in catalog order)
     */
    public static List<String> closest(Collection<String> ids, String query, int limit) {
        String q = query.toUpperCase(Locale.ROOT);
        List<String> all = new ArrayList<>(ids);
        List<String> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingInt((String id) -> distance(id.toUpperCase(Locale.ROOT), q))
                .thenComparingInt(all::indexOf));
        return sorted.subList(0, Math.min(limit, sorted.size()));
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
