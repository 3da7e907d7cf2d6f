package org.ndktck.reference;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The key of one named, replaceable piece of the reference model: a {@link RuleCheck} or a data-path
 * decision such as {@link RegionBounds}. Each piece has an ID (a rule ID of the catalog such as
 * {@code MR-FR-4}, a rule ID with an aspect such as {@code SGE-2/bounds}, or a lower-case name for a
 * data-path decision such as {@code bounds}), the interface its implementations have, and the reference
 * implementation. All pieces are listed in {@link Pieces}.
 *
 * @param <T> the piece's interface, e.g. {@code RuleCheck<FastRegisterRequest>} or {@link RegionBounds}
 */
public final class Piece<T> {
    /** Gives every piece a distinct small index, so a policy can find an implementation in an array. */
    private static final AtomicInteger NEXT_INDEX = new AtomicInteger();

    private final int index = NEXT_INDEX.getAndIncrement();
    private final String id;
    private final Class<?> type;
    private final T standard;
    private final String description;

    Piece(String id, Class<?> type, T standard, String description) {
        this.id = Objects.requireNonNull(id, "id");
        this.type = Objects.requireNonNull(type, "type");
        this.standard = Objects.requireNonNull(standard, "standard");
        this.description = Objects.requireNonNull(description, "description");
        if (!type.isInstance(standard)) {
            throw new IllegalArgumentException(id + ": standard implementation is not a " + type.getSimpleName());
        }
    }

    /** @return a small index, distinct for every piece ever made (for {@link ReferencePolicy}'s lookup table) */
    int index() {
        return index;
    }

    /** @return the piece's ID, unique in {@link Pieces#ALL} */
    public String id() {
        return id;
    }

    /** @return the interface every implementation of this piece implements */
    public Class<?> type() {
        return type;
    }

    /** @return the reference provider's implementation */
    public T standard() {
        return standard;
    }

    /** @return one line: what the piece decides, and the rule it carries */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return id + " (" + type.getSimpleName() + "): " + description;
    }
}
