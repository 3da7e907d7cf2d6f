package org.ndktck.reference;

/**
 * What a {@link RuleCheck} may know about an MR named in a request.
 *
 * @param fastRegister         true for an MR created with FastRegister=TRUE
 * @param state                its state
 * @param remoteAccess         the RemoteAccess argument of its last successful NdkInitializeFastRegisterMr
 * @param initializedPageCount the AdapterPageCount of its last successful NdkInitializeFastRegisterMr
 *                             (ULONG in an int, unsigned; 0 when never initialized)
 * @param samePd               true when the MR belongs to the PD of the QP (or of the call) that names it
 */
public record MrView(boolean fastRegister, MrState state, boolean remoteAccess, int initializedPageCount,
                     boolean samePd) {
    /** @return true when the MR is initialized for fast registration and has no fast registration in effect */
    public boolean readyForFastRegister() {
        return fastRegister && (state == MrState.INITIALIZED || state == MrState.INVALIDATED);
    }
}
