package org.ndktck.spec.rules;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The freedoms the NDKPI pages leave a provider, as the catalog records them: YAML resource
 * {@value #RESOURCE}, next to the rule catalog. Each freedom names the catalog entries it comes from (MAY
 * rules, status tables with resource or "another error" codes, ambiguity readings that accept either
 * behaviour) and the {@code legal:*} providers that use it hard; the kit must give each of them no FAIL.
 * Ambiguities that leave no provider choice are {@link #settled()}; freedoms without a legal provider yet
 * are {@link #uncovered()}, each with why.
 *
 * @param freedoms  the freedoms, in file order
 * @param settled   catalog entries (ambiguity or rule IDs) that leave the provider no choice the kit must tolerate
 * @param uncovered catalog entries that do leave a choice but have no legal provider yet
 */
public record Freedoms(List<Freedom> freedoms, List<Note> settled, List<Note> uncovered) {
    /** Class-path resource of the list. */
    public static final String RESOURCE = "/org/ndktck/spec/rules/freedoms.yaml";

    /** Normalizes null lists. */
    public Freedoms {
        freedoms = freedoms == null ? List.of() : List.copyOf(freedoms);
        settled = settled == null ? List.of() : List.copyOf(settled);
        uncovered = uncovered == null ? List.of() : List.copyOf(uncovered);
    }

    /**
     * One freedom.
     *
     * @param id          {@code FREE-...}
     * @param title       one line
     * @param statement   what a provider may do, in the kit's words
     * @param rules       catalog rule IDs that record it
     * @param ambiguities ambiguity IDs whose chosen reading accepts either behaviour
     * @param providers   the {@code legal:*} providers that use it hard (at least one)
     */
    public record Freedom(String id, String title, String statement, List<String> rules, List<String> ambiguities,
                          List<String> providers) {
        /** Normalizes null lists. */
        public Freedom {
            rules = rules == null ? List.of() : List.copyOf(rules);
            ambiguities = ambiguities == null ? List.of() : List.copyOf(ambiguities);
            providers = providers == null ? List.of() : List.copyOf(providers);
        }
    }

    /**
     * A catalog entry that is settled (no freedom) or uncovered (a freedom without a legal provider yet).
     *
     * @param id  the rule or ambiguity ID
     * @param why the reason
     */
    public record Note(String id, String why) {
    }

    /**
     * @return the list shipped in this jar
     * @throws UncheckedIOException when the resource is missing or malformed
     */
    public static Freedoms standard() {
        try (InputStream in = Freedoms.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("missing " + RESOURCE));
            }
            return new ObjectMapper(new YAMLFactory()).configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                    .readValue(in, Freedoms.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
