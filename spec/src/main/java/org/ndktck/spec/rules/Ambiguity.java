package org.ndktck.spec.rules;

import java.util.List;

/**
 * One entry of the ambiguity register: where the pages can be read two ways, both readings, the sources,
 * and the reading the kit chose.
 *
 * @param id       {@code AMB-n}
 * @param title    a short title
 * @param readingA one reading
 * @param readingB the other reading
 * @param sources  the pages involved, in the digest's notation
 * @param chosen   the reading the kit applies, and how
 */
public record Ambiguity(String id, String title, String readingA, String readingB, List<String> sources,
                        String chosen) {
    /** Normalizes a null list. */
    public Ambiguity {
        sources = sources == null ? List.of() : List.copyOf(sources);
    }
}
