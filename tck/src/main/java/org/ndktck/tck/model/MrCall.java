package org.ndktck.tck.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * The calls the model makes on (or about) one MR, with the phases in which a consumer may make each one (the
 * consumer obligations MR-DEREG-1, MR-DEREG-4, MR-FR-1, INV-1, CL-3, AMB-12) and the rule charged when the
 * provider fails a call the model expects to work.
 */
public enum MrCall {
    /** NdkRegisterMr of a normal MR (MR-REG-10 charged when refused with a status its table does not allow). */
    REGISTER("MR-REG-10"),
    /** NdkDeregisterMr of a registered MR. */
    DEREGISTER("MR-DEREG-2"),
    /**
     * NdkRegisterMr of a normal MR that was registered and deregistered: the pages do not say whether an MR may be
     * registered again (MR-DEREG-4), so this call is in the model's declared unspecified mode: a refusal, with any
     * status, is allowed and leaves the MR unsettled; an accepted one is a registration like any other, bound by the
     * NdkRegisterMr page (MR-REG-4, MR-REG-8: exactly its Flags' access over exactly its Length), and the earlier
     * registration's token still reaches nothing (MR-DEREG-3). No refusal is charged, so its rule is MR-DEREG-4.
     */
    REREGISTER("MR-DEREG-4"),
    /** NdkInitializeFastRegisterMr of a new fast-register MR, AdapterPageCount up to FRMRPageCount. */
    INITIALIZE("MR-FRI-2"),
    /** NdkFastRegister of an initialized or invalidated MR with valid parameters. */
    FAST_REGISTER("MR-FRI-2"),
    /** NdkInvalidate of a fast-registered MR. */
    INVALIDATE("INV-3"),
    /** NdkSendAndInvalidate at the peer naming the MR's live remote token. */
    REMOTE_INVALIDATE("INV-5"),
    /** NdkGetLocalTokenFromMr and NdkGetRemoteTokenFromMr of a live registration. */
    READ_TOKENS("MR-TOK-5"),
    /** NdkCloseMr (never fails: CL-2). */
    CLOSE("CL-2");

    private final String refusalRule;

    MrCall(String refusalRule) {
        this.refusalRule = refusalRule;
    }

    /** @return the rule a provider breaks by failing this call where the model expects it to work */
    public String refusalRule() {
        return refusalRule;
    }

    /**
     * @param phase the MR's phase
     * @param fast  whether the MR was created for fast registration
     * @return true when a consumer may make this call on such an MR in that phase
     */
    public boolean allowedIn(MrPhase phase, boolean fast) {
        return phases(fast).contains(phase);
    }

    /**
     * @param fast whether the MR was created for fast registration
     * @return every phase in which a consumer may make this call on such an MR
     */
    public Set<MrPhase> phases(boolean fast) {
        return switch (this) {
            case REGISTER -> fast ? EnumSet.noneOf(MrPhase.class) : EnumSet.of(MrPhase.NEW);
            case DEREGISTER -> fast ? EnumSet.noneOf(MrPhase.class) : EnumSet.of(MrPhase.REGISTERED);
            case REREGISTER -> fast ? EnumSet.noneOf(MrPhase.class) : EnumSet.of(MrPhase.DEREGISTERED);
            case INITIALIZE -> fast ? EnumSet.of(MrPhase.NEW) : EnumSet.noneOf(MrPhase.class);
            case FAST_REGISTER -> fast ? EnumSet.of(MrPhase.INITIALIZED, MrPhase.INVALIDATED) : EnumSet.noneOf(MrPhase.class);
            case INVALIDATE, REMOTE_INVALIDATE -> fast ? EnumSet.of(MrPhase.FAST_REGISTERED) : EnumSet.noneOf(MrPhase.class);
            case READ_TOKENS -> EnumSet.of(fast ? MrPhase.FAST_REGISTERED : MrPhase.REGISTERED);
            case CLOSE -> EnumSet.complementOf(EnumSet.of(MrPhase.CLOSED));
        };
    }
}
