package org.ndktck.faults;

/**
 * Every call of the SPI a {@link ForwardingAdapter} passes on, named as the NDKPI pages name it, so a
 * {@link Hooks} implementation can pick the calls it misbehaves on.
 */
public enum NdkCall {
    /** NdkQueryAdapterInfo. */
    QUERY_ADAPTER_INFO("NdkQueryAdapterInfo"),
    /** PAGE_SIZE of the adapter (not an NDK call; answered by the adapter object). */
    PAGE_SIZE("PAGE_SIZE"),
    /** Reading NDK_OBJECT_HEADER of any object. */
    HEADER("NDK_OBJECT_HEADER"),
    /** NdkCreatePd. */
    CREATE_PD("NdkCreatePd"),
    /** NdkCreateCq. */
    CREATE_CQ("NdkCreateCq"),
    /** NdkBuildLam. */
    BUILD_LAM("NdkBuildLam"),
    /** NdkReleaseLam. */
    RELEASE_LAM("NdkReleaseLam"),
    /** The kit's loopback connection of two QPs. */
    CONNECT_LOOPBACK("connectLoopback"),
    /** NdkCloseAdapter. */
    CLOSE_ADAPTER("NdkCloseAdapter"),
    /** NdkCreateMr. */
    CREATE_MR("NdkCreateMr"),
    /** NdkCreateQp. */
    CREATE_QP("NdkCreateQp"),
    /** NdkGetPrivilegedMemoryRegionToken. */
    GET_PRIVILEGED_TOKEN("NdkGetPrivilegedMemoryRegionToken"),
    /** NdkClosePd. */
    CLOSE_PD("NdkClosePd"),
    /** NdkRegisterMr. */
    REGISTER_MR("NdkRegisterMr"),
    /** NdkDeregisterMr. */
    DEREGISTER_MR("NdkDeregisterMr"),
    /** NdkInitializeFastRegisterMr. */
    INITIALIZE_FAST_REGISTER_MR("NdkInitializeFastRegisterMr"),
    /** NdkGetLocalTokenFromMr. */
    GET_LOCAL_TOKEN("NdkGetLocalTokenFromMr"),
    /** NdkGetRemoteTokenFromMr. */
    GET_REMOTE_TOKEN("NdkGetRemoteTokenFromMr"),
    /** NdkCloseMr. */
    CLOSE_MR("NdkCloseMr"),
    /** NdkFastRegister. */
    FAST_REGISTER("NdkFastRegister"),
    /** NdkInvalidate. */
    INVALIDATE("NdkInvalidate"),
    /** NdkRead. */
    READ("NdkRead"),
    /** NdkWrite. */
    WRITE("NdkWrite"),
    /** NdkSend. */
    SEND("NdkSend"),
    /** NdkSendAndInvalidate. */
    SEND_AND_INVALIDATE("NdkSendAndInvalidate"),
    /** NdkReceive. */
    RECEIVE("NdkReceive"),
    /** NdkFlush. */
    FLUSH("NdkFlush"),
    /** NdkCloseQp. */
    CLOSE_QP("NdkCloseQp"),
    /** NdkGetCqResults. */
    GET_CQ_RESULTS("NdkGetCqResults"),
    /** NdkGetCqResultsEx. */
    GET_CQ_RESULTS_EX("NdkGetCqResultsEx"),
    /** NdkCloseCq. */
    CLOSE_CQ("NdkCloseCq");

    private final String ndkName;

    NdkCall(String ndkName) {
        this.ndkName = ndkName;
    }

    /** @return the function's name on the NDKPI pages, e.g. {@code NdkRegisterMr} */
    public String ndkName() {
        return ndkName;
    }

    @Override
    public String toString() {
        return ndkName;
    }
}
