package org.ndktck.spec;

/**
 * NDK_QP and NDK_QP_DISPATCH: the work requests the memory-region rules use. Every request is posted on
 * the initiator queue (or the receive queue for {@link #receive}); a SUCCESS return means a CQ entry
 * follows unless SILENT_SUCCESS was set and the request succeeded; an error return means no CQ entry
 * ever (DEF-2). Calls on one queue must not overlap (WRP-1). Conventions as in {@link NdkAdapter}.
 */
public interface NdkQp extends NdkObject {

    /**
     * NdkFastRegister (MR-FR-1 to MR-FR-13).
     *
     * @param requestContext     echoed in the CQ entry
     * @param mr                 an MR initialized for fast registration
     * @param adapterPageCount   entries of {@code adapterPageArray} to use (ULONG in an int, unsigned)
     * @param adapterPageArray   adapter logical addresses of PAGE_SIZE pages, from NdkBuildLam; unsigned 64-bit
     * @param fbo                FirstByteOffset into the first page, in bytes (ULONG in an int, unsigned)
     * @param length             region size in bytes (SIZE_T in a long, unsigned)
     * @param baseVirtualAddress the region's remote base, equal to FBO + n × PAGE_SIZE (PVOID in a long, unsigned)
     * @param flags              NDK_OP_FLAG_* bits ({@link NdkOpFlags})
     * @return SUCCESS (a CQ entry follows), STATUS_ACCESS_VIOLATION, STATUS_CONNECTION_INVALID, or another error
     */
    NtStatus fastRegister(Object requestContext, NdkMr mr, int adapterPageCount, long[] adapterPageArray,
                          int fbo, long length, long baseVirtualAddress, int flags);

    /**
     * NdkInvalidate (INV-1 to INV-4): removes the fast registration of {@code mr}.
     *
     * @param requestContext echoed in the CQ entry
     * @param mr             a fast-registered MR (never one registered with NdkRegisterMr)
     * @param flags          SILENT_SUCCESS, READ_FENCE, DEFER
     * @return SUCCESS, STATUS_CONNECTION_INVALID, or another error
     */
    NtStatus invalidate(Object requestContext, NdkMr mr, int flags);

    /**
     * NdkRead: reads remote memory of the connected peer into the local SGEs (RW-1 to RW-7).
     *
     * @param requestContext echoed in the CQ entry
     * @param sgl            local sinks
     * @param remoteAddress  absolute remote address (PVOID in a long, unsigned)
     * @param remoteToken    the peer MR's remote token
     * @param flags          NDK_OP_FLAG_* bits
     * @return SUCCESS, STATUS_CONNECTION_INVALID, STATUS_REMOTE_RESOURCES, or another error
     */
    NtStatus read(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags);

    /**
     * NdkWrite: writes the local SGEs into remote memory of the connected peer. With NDK_OP_FLAG_INLINE the
     * source bytes are read by address, as for {@link #send} (TR-2).
     *
     * @param requestContext echoed in the CQ entry
     * @param sgl            local sources
     * @param remoteAddress  absolute remote address (PVOID in a long, unsigned)
     * @param remoteToken    the peer MR's remote token
     * @param flags          NDK_OP_FLAG_* bits
     * @return SUCCESS, STATUS_CONNECTION_INVALID, or another error
     */
    NtStatus write(Object requestContext, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags);

    /**
     * NdkSend: sends the local SGEs to the peer's next posted receive.
     *
     * <p>Transport behaviour the kit relies on (rules TR-1, TR-2): when the peer has no receive posted, the send
     * waits (no CQ entry, no error) until the peer posts one, which then takes its bytes, or until this QP is
     * flushed or closed, when it completes with STATUS_CANCELLED (or STATUS_SUCCESS if it had finished); the kit
     * posts such sends only in the properties of FL-1 and CL-5 (AMB-31: a transport that fails them instead
     * fails TR-1). With NDK_OP_FLAG_INLINE the bytes are those at the SGE addresses, found by address in the page
     * frames of memory registered on this QP's PD (or mapped by a LAM) on the same adapter; the token is ignored
     * (SGE-3) and the kit leaves the bytes unchanged until the request completes.
     *
     * @param requestContext echoed in the CQ entry
     * @param sgl            local sources (token ignored with INLINE, SGE-3)
     * @param flags          NDK_OP_FLAG_* bits
     * @return SUCCESS, STATUS_CONNECTION_INVALID, or another error
     */
    NtStatus send(Object requestContext, NdkSge[] sgl, int flags);

    /**
     * NdkSendAndInvalidate: a send that also invalidates {@code remoteToken} at the peer (INV-5).
     *
     * @param requestContext echoed in the CQ entry
     * @param sgl            local sources
     * @param remoteToken    the peer's fast-registered token to invalidate
     * @param flags          NDK_OP_FLAG_* bits
     * @return SUCCESS, STATUS_CONNECTION_INVALID, or another error
     */
    NtStatus sendAndInvalidate(Object requestContext, NdkSge[] sgl, int remoteToken, int flags);

    /**
     * NdkReceive: posts local sinks on the receive queue.
     *
     * @param requestContext echoed in the CQ entry
     * @param sgl            local sinks
     * @return SUCCESS or an error
     */
    NtStatus receive(Object requestContext, NdkSge[] sgl);

    /**
     * NdkFlush: starts cancelling every pending request of both queues; they complete with STATUS_CANCELLED
     * (FL-1). Returns at once.
     */
    void flush();

    /**
     * NdkCloseQp: flushes what is outstanding (CL-5).
     *
     * @param completion   called once if the result is PENDING
     * @param closeContext handed back to {@code completion}
     * @return STATUS_SUCCESS or STATUS_PENDING (CL-2)
     */
    NtStatus close(CloseCompletion completion, Object closeContext);
}
