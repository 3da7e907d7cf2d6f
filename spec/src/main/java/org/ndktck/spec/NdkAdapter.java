package org.ndktck.spec;

/**
 * NDK_ADAPTER and its dispatch table, reduced to what the memory-region rules need.
 *
 * <p>Conventions for every call of the SPI (design section 3): a call that returns an NTSTATUS in C
 * returns an {@link NtStatus} (or a {@link CreateResult}); STATUS_PENDING means the matching completion
 * is called exactly once later, any other return means it is never called (GEN-CB-1 to GEN-CB-4).
 * ULONG travels in an int, SIZE_T / PVOID / NDK_LOGICAL_ADDRESS in a long, all read as unsigned.
 * A provider never throws for a numeric argument: bad values give an error NTSTATUS. A null where a
 * parameter is not documented as nullable gives a {@link NullPointerException}.
 */
public interface NdkAdapter extends NdkObject {

    /**
     * NdkQueryAdapterInfo.
     *
     * @return the adapter's NDK_ADAPTER_INFO (AI-1 to AI-3)
     */
    NdkAdapterInfo queryAdapterInfo();

    /**
     * PAGE_SIZE of this adapter's host, in bytes: a power of two, at least 4096; the same as the
     * {@link HostMemory} the adapter was opened over.
     *
     * @return PAGE_SIZE in bytes
     */
    int pageSize();

    /**
     * The adapter's NDK_ADAPTER_INFO.RdmaTechnology (ndkinfo.h), which {@link NdkAdapterInfo} does not carry: the
     * transport whose promises the transport-dependent rules (TR-1) are judged by. The NDKPI pages do not say what
     * becomes of a send whose peer has posted no receive; an iWARP adapter ends the connection (the send completes
     * with an error and the QPs' other requests are flushed), an InfiniBand or RoCE one may hold the send until a
     * receive comes (receiver-not-ready retries). The kit prints the value in the run's configuration and in
     * {@code report.json} ({@code transport}).
     *
     * @return the transport; {@link NdkRdmaTechnology#UNDEFINED} (the default for a provider that does not say) is
     *     judged as InfiniBand
     */
    default NdkRdmaTechnology rdmaTechnology() {
        return NdkRdmaTechnology.UNDEFINED;
    }

    /**
     * NdkCreatePd.
     *
     * @param completion    called once if the result is PENDING
     * @param createContext handed back to {@code completion}
     * @return SUCCESS with the PD, PENDING, or an error
     */
    CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> completion, Object createContext);

    /**
     * NdkCreateCq (without notifications or interrupt moderation).
     *
     * @param queueDepth    entries the CQ holds (ULONG in an int, unsigned)
     * @param completion    called once if the result is PENDING
     * @param createContext handed back to {@code completion}
     * @return SUCCESS with the CQ, PENDING, or an error
     */
    CreateResult<NdkCq> createCq(int queueDepth, CreateCompletion<NdkCq> completion, Object createContext);

    /**
     * NdkBuildLam: maps the pages of a locked MDL chain to adapter logical addresses (LAM-1 to LAM-7).
     *
     * <p>A chain whose MDLs meet inside a page shares that page's frame (TR-3, {@link Mdl}): the page is one page
     * of the range and has one entry in the mapping.
     *
     * @param mdl            the first MDL of a locked, virtually contiguous chain
     * @param length         bytes to map from the chain's virtual address (SIZE_T in a long, unsigned)
     * @param completion     called once if the result is PENDING
     * @param requestContext handed back to {@code completion}
     * @param lam            in: the buffer size offered; out: the mapping, its size and FBO
     * @return SUCCESS, PENDING, STATUS_BUFFER_TOO_SMALL (with the size needed), STATUS_INVALID_PARAMETER,
     *     STATUS_INSUFFICIENT_RESOURCES, or another error
     */
    NtStatus buildLam(Mdl mdl, long length, RequestCompletion completion, Object requestContext,
                      NdkLogicalAddressMapping lam);

    /**
     * NdkReleaseLam: releases a mapping built by {@link #buildLam}; the MDL stays exactly as it was (LAM-REL-1).
     *
     * @param lam a mapping that NdkBuildLam filled with success
     */
    void releaseLam(NdkLogicalAddressMapping lam);

    /**
     * Connects two unconnected QPs of this adapter to each other (the kit's stand-in for NDK connector
     * calls over a loopback connection; NDK_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED). Synchronous.
     *
     * @param a one QP
     * @param b the other QP (may be on another PD of this adapter)
     * @return SUCCESS, or an error when either QP is connected, closed or foreign
     */
    NtStatus connectLoopback(NdkQp a, NdkQp b);

    /**
     * NdkCloseAdapter: blocks until every callback of every descendant object has returned (CL-8). The
     * consumer must not call it from a callback.
     */
    void close();
}
