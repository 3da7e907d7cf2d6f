package org.ndktck.spec.rules;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rule catalog: the single source of truth for rule IDs (design section 4). It is read from the
 * YAML resource {@value #RESOURCE}; {@code spec/RULES.md} is rendered from it.
 */
public final class RuleCatalog {
    /** Classpath location of the catalog file. */
    public static final String RESOURCE = "/org/ndktck/spec/rules/catalog.yaml";

    /** The file's shape. */
    record CatalogFile(List<Rule> rules, List<Ambiguity> ambiguities) {
    }

    private static volatile RuleCatalog standard;

    private final List<Rule> rules;
    private final List<Ambiguity> ambiguities;
    private final Map<String, Rule> byId = new LinkedHashMap<>();

    private RuleCatalog(List<Rule> rules, List<Ambiguity> ambiguities) {
        this.rules = List.copyOf(rules);
        this.ambiguities = ambiguities == null ? List.of() : List.copyOf(ambiguities);
        for (Rule r : this.rules) {
            byId.putIfAbsent(r.id(), r);
        }
    }

    /**
     * @return the catalog shipped in this jar (loaded once)
     * @throws UncheckedIOException when the resource is missing or malformed
     */
    public static RuleCatalog standard() {
        RuleCatalog c = standard;
        if (c == null) {
            try (InputStream in = RuleCatalog.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new UncheckedIOException(new IOException("missing " + RESOURCE));
                }
                c = read(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            standard = c;
        }
        return c;
    }

    /**
     * A catalog built in memory (tests, tools). The lists are copied; no validation is done (see
     * {@link RuleCatalogValidator}).
     *
     * @param rules       the rules, in catalog order
     * @param ambiguities the ambiguity register (null means none)
     * @return the catalog
     */
    public static RuleCatalog of(List<Rule> rules, List<Ambiguity> ambiguities) {
        return new RuleCatalog(rules, ambiguities);
    }

    /**
     * @param in YAML in the catalog's shape
     * @return the catalog
     * @throws IOException when it cannot be parsed
     */
    public static RuleCatalog read(InputStream in) throws IOException {
        ObjectMapper mapper = new ObjectMapper(new YAMLFactory())
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
        CatalogFile file = mapper.readValue(in, CatalogFile.class);
        return new RuleCatalog(file.rules(), file.ambiguities());
    }

    /** @return every rule in catalog order */
    public List<Rule> rules() {
        return rules;
    }

    /** @return the ambiguity register */
    public List<Ambiguity> ambiguities() {
        return ambiguities;
    }

    /**
     * @param id a rule ID
     * @return the rule, if the catalog has it
     */
    public Optional<Rule> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /**
     * @param id an ambiguity ID such as AMB-1
     * @return the entry, if present
     */
    public Optional<Ambiguity> findAmbiguity(String id) {
        return ambiguities.stream().filter(a -> a.id().equals(id)).findFirst();
    }

    /**
     * The rules that cite an ambiguity entry.
     *
     * @param ambiguityId an ambiguity ID such as {@code AMB-18}
     * @return the rules whose {@link Rule#ambiguities()} name it, in catalog order (empty when none do)
     */
    public List<Rule> rulesCiting(String ambiguityId) {
        return rules.stream().filter(r -> r.ambiguities().contains(ambiguityId)).toList();
    }

    /**
     * The catalog IDs closest to an ID the catalog does not have, for a "did you mean" message
     * ({@code ./ndk-tck explain MR-FR4}).
     *
     * <p>IDs are compared case-insensitively by Levenshtein edit distance; ties go to the ID sharing the
     * longer common prefix with {@code unknownId}, then to catalog order. The result is never empty for a
     * non-empty catalog and a positive {@code max}, however far the IDs are.
     *
     * @param unknownId the ID as the user typed it; null or blank gives the first IDs of the catalog
     * @param max       the most IDs to return; 0 or less gives an empty list
     * @return up to {@code max} IDs, closest first
     */
    public List<String> closestIds(String unknownId, int max) {
        if (max <= 0) {
            return List.of();
        }
        String wanted = unknownId == null ? "" : unknownId.trim().toUpperCase(Locale.ROOT);
        record Scored(String id, int distance, int prefix, int order) {
        }
        List<Scored> scored = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            String id = rules.get(i).id();
            String upper = id.toUpperCase(Locale.ROOT);
            scored.add(new Scored(id, editDistance(wanted, upper), commonPrefix(wanted, upper), i));
        }
        scored.sort(Comparator.comparingInt(Scored::distance)
                .thenComparing(Comparator.comparingInt(Scored::prefix).reversed())
                .thenComparingInt(Scored::order));
        return scored.stream().limit(max).map(Scored::id).toList();
    }

    /**
     * The rules a user selects with {@code --rules}: a comma-separated list of IDs and globs.
     *
     * <p>Each entry is an exact ID or a glob in which {@code *} stands for any run of characters and
     * {@code ?} for one character ({@code MR-FR-*} selects MR-FR-1 to MR-FR-19 but not MR-FRI-1;
     * {@code MR-*} selects every MR rule). Matching ignores case and the blanks around entries; empty
     * entries (a trailing comma) are skipped.
     *
     * @param patternCsv entries separated by commas, e.g. {@code MR-FR-4,GEN-CB-*}
     * @return the selected rules in catalog order, each once
     * @throws IllegalArgumentException when the list has no entry, or when an entry matches no rule; the
     *     message names that entry (and, for an exact ID, the closest IDs)
     */
    public List<Rule> matching(String patternCsv) {
        if (patternCsv == null || patternCsv.isBlank()) {
            throw new IllegalArgumentException("no rule pattern given (expected IDs or globs such as MR-FR-*, separated by commas)");
        }
        Set<String> selected = new LinkedHashSet<>();
        boolean any = false;
        for (String raw : patternCsv.split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            any = true;
            Pattern glob = globToRegex(entry);
            List<String> hits = rules.stream().map(Rule::id).filter(id -> glob.matcher(id).matches()).toList();
            if (hits.isEmpty()) {
                String hint = entry.contains("*") || entry.contains("?")
                        ? ""
                        : " (closest: " + String.join(", ", closestIds(entry, 3)) + ")";
                throw new IllegalArgumentException("rule pattern '" + entry + "' matches no rule of the catalog" + hint);
            }
            selected.addAll(hits);
        }
        if (!any) {
            throw new IllegalArgumentException("no rule pattern given in '" + patternCsv + "'");
        }
        return rules.stream().filter(r -> selected.contains(r.id())).toList();
    }

    private static Pattern globToRegex(String glob) {
        StringBuilder re = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    re.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                re.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            re.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
    }

    private static int commonPrefix(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    /** Levenshtein distance (insertions, deletions, substitutions each cost 1). */
    static int editDistance(String a, String b) {
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
