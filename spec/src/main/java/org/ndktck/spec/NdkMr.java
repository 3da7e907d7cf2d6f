package org.ndktck.spec;

/**
 * NDK_MR and NDK_MR_DISPATCH: NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr, the two token
 * getters and NdkCloseMr. Conventions as in {@link NdkAdapter}.
 */
public interface NdkMr extends NdkObject {

    /**
     * NdkRegisterMr (MR-REG-1 to MR-REG-10). The provider uses the MDL's virtual address only as the
     * region's base for remote addresses, and moves data through its page frames (MR-REG-3, MR-REG-4).
     *
     * <p>Chains the kit builds (TR-3): where one MDL ends inside a page and the next starts at the next virtual
     * address, the next MDL's first page frame is the frame the previous MDL's last entry names (one page of
     * the buffer, described twice); the chain is virtually contiguous and is registered as one range, the shared
     * frame mapped once.
     *
     * @param mdl            the first MDL of a locked chain, virtually contiguous over [VA, VA + length)
     * @param length         region size in bytes (SIZE_T in a long, unsigned); at most the chain's bytes
     * @param flags          NDK_MR_FLAG_* bits ({@link NdkMrFlags}), ULONG in an int
     * @param completion     called once if the result is PENDING
     * @param requestContext handed back to {@code completion}
     * @return SUCCESS, PENDING, STATUS_INVALID_PARAMETER, STATUS_INSUFFICIENT_RESOURCES, or another error
     */
    NtStatus register(Mdl mdl, long length, int flags, RequestCompletion completion, Object requestContext);

    /**
     * NdkDeregisterMr (MR-DEREG-1 to MR-DEREG-3): the old tokens grant nothing once it completes.
     *
     * @param completion     called once if the result is PENDING
     * @param requestContext handed back to {@code completion}
     * @return SUCCESS, PENDING, or another error
     */
    NtStatus deregister(RequestCompletion completion, Object requestContext);

    /**
     * NdkInitializeFastRegisterMr (MR-FRI-1 to MR-FRI-8).
     *
     * @param adapterPageCount the most pages a later NdkFastRegister may map (ULONG in an int, unsigned)
     * @param remoteAccess     true when later fast registrations may ask for remote access
     * @param completion       called once if the result is PENDING
     * @param requestContext   handed back to {@code completion}
     * @return SUCCESS, PENDING, STATUS_IMPLEMENTATION_LIMIT, or another error
     */
    NtStatus initializeFastRegister(int adapterPageCount, boolean remoteAccess, RequestCompletion completion,
                                    Object requestContext);

    /**
     * NdkGetLocalTokenFromMr (MR-TOK-2): the token for NDK_SGE.MemoryRegionToken. Valid only once a
     * registration or initialization has completed without error (MR-TOK-3).
     *
     * @return the UINT32 token in an int
     */
    int getLocalToken();

    /**
     * NdkGetRemoteTokenFromMr (MR-TOK-1, MR-FR-9): the token a peer uses for RDMA read and write. After
     * NdkFastRegister returns it is the token of the new registration.
     *
     * @return the UINT32 token in an int
     */
    int getRemoteToken();

    /**
     * NdkCloseMr.
     *
     * @param completion   called once if the result is PENDING; the MR's last callback (CL-4)
     * @param closeContext handed back to {@code completion}
     * @return STATUS_SUCCESS or STATUS_PENDING (CL-2)
     */
    NtStatus close(CloseCompletion completion, Object closeContext);
}
