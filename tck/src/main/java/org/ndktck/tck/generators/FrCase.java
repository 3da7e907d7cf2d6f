package org.ndktck.tck.generators;

/**
 * What a generated NdkFastRegister request breaks: nothing ({@link #VALID}), or exactly one rule.
 */
public enum FrCase {
    /** A request every rule allows. */
    VALID(null),
    /** Length over AdapterPageCount × PAGE_SIZE − FBO. */
    LENGTH_OVER("MR-FR-3"),
    /** BaseVirtualAddress not congruent to FBO modulo PAGE_SIZE. */
    BVA_INCONGRUENT("MR-FR-4"),
    /** Remote access flags on an MR initialized with RemoteAccess = FALSE. */
    REMOTE_ON_LOCAL_MR("MR-FR-6"),
    /** Length 0. */
    ZERO_LENGTH("MR-FR-14"),
    /** BaseVirtualAddress + Length past 2^64. */
    WRAPS("MR-FR-15"),
    /** FBO ≥ PAGE_SIZE. */
    FBO_TOO_BIG("MR-FR-16"),
    /** One page address not PAGE_SIZE-aligned. */
    PAGE_MISALIGNED("MR-FR-17"),
    /** AdapterPageCount above the count given to NdkInitializeFastRegisterMr. */
    PAGES_OVER_INIT("MR-FR-18"),
    /** The undefined NDK_OP_FLAG bit 0x20 without 0x10. */
    UNDEFINED_FLAG("MR-FR-19");

    private final String rule;

    FrCase(String rule) {
        this.rule = rule;
    }

    /** @return the rule this case breaks, or null for {@link #VALID} */
    public String rule() {
        return rule;
    }
}
