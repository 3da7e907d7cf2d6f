package org.ndktck.tck.model;

/**
 * Where an MR of the model is in its life (NdkCreateMr, NdkRegisterMr, NdkDeregisterMr,
 * NdkInitializeFastRegisterMr, NdkFastRegister, NdkInvalidate, NdkSendAndInvalidate at the peer, NdkCloseMr).
 * Which calls a consumer may make in each phase is {@link MrCall#allowedIn}.
 */
public enum MrPhase {
    /** Created, never registered or initialized. */
    NEW,
    /** Registered with NdkRegisterMr. */
    REGISTERED,
    /** Deregistered; registering it again is not specified (MR-DEREG-4), so the model never does. */
    DEREGISTERED,
    /** Initialized for fast registration (NdkInitializeFastRegisterMr succeeded); never initialized again (AMB-12). */
    INITIALIZED,
    /** Fast-registered. */
    FAST_REGISTERED,
    /** Fast-registered, then invalidated (locally or remotely): it may be fast-registered again (INV-4). */
    INVALIDATED,
    /**
     * A call was refused with an allowed status (STATUS_INSUFFICIENT_RESOURCES, or "other status codes" of
     * NdkDeregisterMr, FREE-DEREGISTER-REFUSED) and left its registration unknown: no call picks it again and no
     * access to it is judged; only a close ends it.
     */
    UNSETTLED,
    /** Closed: the MR is gone, any registration it had ended with it. */
    CLOSED
}
