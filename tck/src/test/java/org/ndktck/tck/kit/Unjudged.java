package org.ndktck.tck.kit;

import java.util.Map;

/**
 * The documented reasons a correct provider's rule may pass no check in the kit's own proofs
 * ({@link KitRun.Result#assertJudged}): each names a rule and the start of the reason its property gives when the
 * adapter does not reach the check. Any other rule with no check run fails the proof.
 */
public final class Unjudged {
    private Unjudged() {
    }

    /**
     * GEN-CB-5 judges only when the adapter runs out of MRs within 32 NdkCreateMr calls; the reference's default object
     * limit (maxObjects 65536) lies far beyond ({@code --set maxObjects=16} reaches it: {@code ChecksRunProofTest}).
     */
    public static final Map.Entry<String, String> OBJECT_LIMIT_NOT_REACHED =
            Map.entry("GEN-CB-5", "the adapter did not run out of MRs within 32 NdkCreateMr calls");

    /**
     * GEN-LIFE-1 judges only a registration that completes through its completion; with every call completing inline
     * (the reference's completion=inline, its default) there is none.
     */
    public static final Map.Entry<String, String> EVERY_CALL_INLINE =
            Map.entry("GEN-LIFE-1", "NdkRegisterMr and NdkInitializeFastRegisterMr completed inline");

    /** A provider with the reference's default limits and completion=inline. */
    public static final Map<String, String> INLINE_DEFAULTS = Map.ofEntries(OBJECT_LIMIT_NOT_REACHED, EVERY_CALL_INLINE);

    /** A provider with the reference's default limits and completions that may pend. */
    public static final Map<String, String> DEFAULT_LIMITS = Map.ofEntries(OBJECT_LIMIT_NOT_REACHED);
}
