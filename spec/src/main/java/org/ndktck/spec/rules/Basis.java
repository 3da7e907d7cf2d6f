package org.ndktck.spec.rules;

/** Where a rule's force comes from. */
public enum Basis {
    /** A page says it in normative words. */
    STATED,
    /** A return-code table lists it. */
    RETURN_CODE_TABLE,
    /** It follows from stated semantics without an explicit sentence. */
    IMPLIED,
    /** The kit's reading where the pages are silent or ambiguous (see the ambiguity register). */
    KIT_INTERPRETATION,
    /** A constant or layout from the headers. */
    HEADER
}
