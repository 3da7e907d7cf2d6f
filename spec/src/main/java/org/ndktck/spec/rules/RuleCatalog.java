package org.ndktck.spec.rules;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
}
