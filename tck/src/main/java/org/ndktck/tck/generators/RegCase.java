package org.ndktck.tck.generators;

/**
 * What a generated NdkRegisterMr request breaks: nothing ({@link #VALID}), or exactly one rule.
 */
public enum RegCase {
    /** A request every rule allows (a chain may break after Length). */
    VALID(null),
    /** The chain is not virtually contiguous inside [VA, VA + Length). */
    BROKEN_CHAIN("MR-REG-2"),
    /** Length 0. */
    ZERO_LENGTH("MR-REG-11"),
    /** VA + Length past 2^64. */
    WRAPS("MR-REG-12"),
    /** Length above the chain's total ByteCount. */
    OVER_CHAIN("MR-REG-13"),
    /** Undefined NDK_MR_FLAG bits (0x4 without 0x1, or bits above 0xF) and no remote write. */
    UNDEFINED_FLAGS("MR-REG-14");

    private final String rule;

    RegCase(String rule) {
        this.rule = rule;
    }

    /** @return the rule this case breaks, or null for {@link #VALID} */
    public String rule() {
        return rule;
    }
}
