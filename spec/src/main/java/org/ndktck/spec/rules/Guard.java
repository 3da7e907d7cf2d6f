package org.ndktck.spec.rules;

/**
 * Why a rule whose basis is {@link Basis#KIT_INTERPRETATION} still FAILs (catalog field {@code guards}).
 *
 * <p>A FAIL needs a page statement that binds the provider. A rule that rests on the kit's own reading of the
 * pages reports a broken check as ADVISORY, with the note {@code kit interpretation}, unless the catalog marks it
 * with one of these: the behaviour it catches exposes memory, loses data, or breaks a duty a page states in other
 * words, or the rule is one of the founding rules the kit exists to check. Rules of any other basis ignore the
 * field (their FAIL rests on the page already).
 */
public enum Guard {
    /** The behaviour lets a token reach memory the consumer did not register for it (or no longer does). */
    MEMORY_EXPOSURE,
    /** The behaviour loses or corrupts data the consumer was told had moved. */
    DATA_LOSS,
    /** The behaviour breaks a duty a page states, which the rule only words in the kit's terms. */
    STATED_DUTY,
    /**
     * A founding rule of the kit: BaseVirtualAddress = FBO + n x PAGE_SIZE, Length &lt;= pages x PAGE_SIZE - FBO,
     * no zero-based addresses, READ_SINK tolerance.
     */
    FOUNDING
}
