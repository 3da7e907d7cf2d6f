package org.ndktck.reference;

/**
 * An NdkInitializeFastRegisterMr call as the checks of {@link Pieces#INITIALIZE_FAST_REGISTER} see it.
 *
 * @param adapter          the adapter
 * @param mr               the MR
 * @param adapterPageCount AdapterPageCount (ULONG in an int, unsigned)
 * @param remoteAccess     RemoteAccess
 */
public record InitializeFastRegisterRequest(AdapterView adapter, MrView mr, int adapterPageCount,
                                            boolean remoteAccess) {
}
