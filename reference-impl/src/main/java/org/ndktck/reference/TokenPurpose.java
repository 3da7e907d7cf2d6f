package org.ndktck.reference;

/** Why the model asks its {@link TokenAllocator} for a token. */
public enum TokenPurpose {
    /** NdkRegisterMr completed: the registration's token. */
    REGISTER,
    /** NdkInitializeFastRegisterMr completed: the MR's token before its first fast registration. */
    INITIALIZE_FAST_REGISTER,
    /** NdkFastRegister was posted: the new registration's token. */
    FAST_REGISTER,
    /** A PD was created: its privileged token. */
    PRIVILEGED
}
