package org.ndktck.spec.rules;

/** How strongly a rule binds (RFC 2119 words as the NDKPI pages use them, plus FACT and UNSPECIFIED). */
public enum Strength {
    /** An absolute requirement. */
    MUST,
    /** An absolute prohibition. */
    MUST_NOT,
    /** Recommended: a breach is an ADVISORY finding, not a failure (unless {@code --strict}). */
    SHOULD,
    /** Not recommended: a breach is an ADVISORY finding. */
    SHOULD_NOT,
    /** Permitted: the kit must accept either behaviour. */
    MAY,
    /** A documented fact (a constant, a layout): checked where the kit can, never a behaviour rule. */
    FACT,
    /** The pages leave the behaviour open: informational only. */
    UNSPECIFIED;

    /** @return true for MUST and MUST_NOT: a breach fails the run */
    public boolean isMandatory() {
        return this == MUST || this == MUST_NOT;
    }

    /** @return true for SHOULD and SHOULD_NOT: a breach is ADVISORY */
    public boolean isRecommendation() {
        return this == SHOULD || this == SHOULD_NOT;
    }

    /** @return the words as the pages write them, e.g. {@code MUST NOT} */
    public String words() {
        return name().replace('_', ' ');
    }
}
