package org.ndktck.reference;

/**
 * The inline part of posting NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate or NdkReceive, as the checks of
 * {@link Pieces#POST} see it. Tokens, bounds and access are checked when the request is processed
 * ({@link Pieces#REMOTE_ACCESS}, {@link Pieces#LOCAL_ACCESS}) and fail through the CQ.
 *
 * @param adapter        the adapter
 * @param type           the request
 * @param qpConnected    true when the QP is connected
 * @param sgeCount       number of SGEs
 * @param maxSge         the QP's MaxInitiatorRequestSge (MaxReceiveRequestSge for a receive; unsigned)
 * @param totalBytes     sum of the SGE lengths (unsigned; cannot overflow for fewer than 2^32 SGEs)
 * @param inlineDataSize the QP's InlineDataSize (unsigned)
 * @param flags          NDK_OP_FLAG_* bits (0 for a receive)
 */
public record PostRequest(AdapterView adapter, WorkRequestType type, boolean qpConnected, int sgeCount, int maxSge,
                          long totalBytes, int inlineDataSize, int flags) {
}
