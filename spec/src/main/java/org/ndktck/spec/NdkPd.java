package org.ndktck.spec;

/**
 * NDK_PD and its dispatch table: NdkCreateMr, NdkCreateQp, NdkGetPrivilegedMemoryRegionToken and
 * NdkClosePd. Conventions as in {@link NdkAdapter}.
 */
public interface NdkPd extends NdkObject {

    /**
     * NdkCreateMr (MR-CREATE-1, MR-CREATE-2, GEN-CB-3, GEN-CB-4).
     *
     * @param fastRegister  true: an MR for NdkInitializeFastRegisterMr and NdkFastRegister only;
     *                      false: an MR for NdkRegisterMr only
     * @param completion    called once if the result is PENDING
     * @param createContext handed back to {@code completion}
     * @return SUCCESS with the MR, PENDING (the MR arrives through {@code completion}),
     *     STATUS_INSUFFICIENT_RESOURCES, or another error
     */
    CreateResult<NdkMr> createMr(boolean fastRegister, CreateCompletion<NdkMr> completion, Object createContext);

    /**
     * NdkCreateQp.
     *
     * @param receiveCq              CQ for receive completions
     * @param initiatorCq            CQ for initiator completions (FR, invalidate, read, write, send)
     * @param qpContext              echoed in every NDK_RESULT of this QP (CQ-2)
     * @param receiveQueueDepth      ULONG, unsigned
     * @param initiatorQueueDepth    ULONG, unsigned
     * @param maxReceiveRequestSge   ULONG, unsigned
     * @param maxInitiatorRequestSge ULONG, unsigned
     * @param inlineDataSize         bytes, ULONG, unsigned
     * @param completion             called once if the result is PENDING
     * @param createContext          handed back to {@code completion}
     * @return SUCCESS with the QP, PENDING, or an error
     */
    CreateResult<NdkQp> createQp(NdkCq receiveCq, NdkCq initiatorCq, Object qpContext,
                                 int receiveQueueDepth, int initiatorQueueDepth,
                                 int maxReceiveRequestSge, int maxInitiatorRequestSge, int inlineDataSize,
                                 CreateCompletion<NdkQp> completion, Object createContext);

    /**
     * NdkGetPrivilegedMemoryRegionToken (PRIV-1, PRIV-2): a token that lets SGEs use LAM logical
     * addresses with local read and write access, and never grants remote access. Cannot fail.
     *
     * @return the UINT32 token in an int
     */
    int getPrivilegedMemoryRegionToken();

    /**
     * NdkClosePd. With live MRs or QPs the close pends until they are closed (CL-6).
     *
     * @param completion   called once if the result is PENDING; the PD's last callback
     * @param closeContext handed back to {@code completion}
     * @return STATUS_SUCCESS or STATUS_PENDING (CL-2)
     */
    NtStatus close(CloseCompletion completion, Object closeContext);
}
