package org.ndktck.spec;

/**
 * The NDK_ADAPTER_FLAG_* bits of NDK_ADAPTER_INFO.AdapterFlags (ULONG, carried in a Java int; values
 * from ndkinfo.h, digest section 17). Source: NDK_ADAPTER_INFO; rules MR-REG-6, MR-REG-7, MR-FR-11,
 * PRIV-3, RW-4, AI-4.
 */
public final class NdkAdapterFlags {
    private NdkAdapterFlags() {
    }

    /** NDK_ADAPTER_FLAG_IN_ORDER_DMA_SUPPORTED, 0x00000001. */
    public static final int IN_ORDER_DMA_SUPPORTED = 0x00000001;
    /** NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED, 0x00000002: READ_SINK flags are optional for the consumer. */
    public static final int RDMA_READ_SINK_NOT_REQUIRED = 0x00000002;
    /** NDK_ADAPTER_FLAG_CQ_INTERRUPT_MODERATION_SUPPORTED, 0x00000004. */
    public static final int CQ_INTERRUPT_MODERATION_SUPPORTED = 0x00000004;
    /** NDK_ADAPTER_FLAG_MULTI_ENGINE_SUPPORTED, 0x00000008. */
    public static final int MULTI_ENGINE_SUPPORTED = 0x00000008;
    /** NDK_ADAPTER_FLAG_RDMA_READ_LOCAL_INVALIDATE_SUPPORTED, 0x00000010 (NDKPI 1.2 and later). */
    public static final int RDMA_READ_LOCAL_INVALIDATE_SUPPORTED = 0x00000010;
    /** NDK_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED, 0x00000100. */
    public static final int CQ_RESIZE_SUPPORTED = 0x00000100;
    /** NDK_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED, 0x00010000. */
    public static final int LOOPBACK_CONNECTIONS_SUPPORTED = 0x00010000;
}
