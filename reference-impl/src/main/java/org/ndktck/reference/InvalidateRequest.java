package org.ndktck.reference;

/**
 * An NdkInvalidate call as the checks of {@link Pieces#INVALIDATE} see it (inline part only; whether the MR
 * still has a fast registration is decided when the request is processed, INV-4, AMB-14).
 *
 * @param adapter     the adapter
 * @param qpConnected true when the QP is connected
 * @param mr          the MR ({@link MrView#samePd()}: same PD as the QP)
 * @param flags       NDK_OP_FLAG_* bits
 */
public record InvalidateRequest(AdapterView adapter, boolean qpConnected, MrView mr, int flags) {
}
