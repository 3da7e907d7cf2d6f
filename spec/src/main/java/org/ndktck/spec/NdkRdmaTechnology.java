package org.ndktck.spec;

/**
 * NDK_RDMA_TECHNOLOGY, the RdmaTechnology field of NDK_ADAPTER_INFO (values from ndkinfo.h, implicit
 * enum numbering; digest section 17, AI-3). The SPI's {@link NdkAdapterInfo} does not carry the field; an adapter
 * reports it through {@link NdkAdapter#rdmaTechnology()}.
 */
public enum NdkRdmaTechnology {
    /** NdkUndefined, 0. */
    UNDEFINED(0),
    /** NdkiWarp, 1. */
    IWARP(1),
    /** NdkInfiniBand, 2. */
    INFINIBAND(2),
    /** NdkRoCE, 3. */
    ROCE(3),
    /** NdkRoCEv2, 4. */
    ROCE_V2(4),
    /** NdkMaxTechnology, 5 (may grow in later headers). */
    MAX_TECHNOLOGY(5);

    private final int value;

    NdkRdmaTechnology(int value) {
        this.value = value;
    }

    /** @return the C enum value */
    public int value() {
        return value;
    }
}
