package org.ndktck.spec;

/**
 * NDK_OBJECT_TYPE, the {@code ObjectType} of every NDK object header (values from ndkpi.h; OBJ-1).
 */
public enum NdkObjectType {
    /** NdkObjectTypeUndefined, 0: never a valid header value. */
    UNDEFINED(0),
    /** NdkObjectTypeAdapter, 1. */
    ADAPTER(1),
    /** NdkObjectTypeQp, 2. */
    QP(2),
    /** NdkObjectTypeCq, 3. */
    CQ(3),
    /** NdkObjectTypeMr, 4. */
    MR(4),
    /** NdkObjectTypeMw, 5. */
    MW(5),
    /** NdkObjectTypePd, 6. */
    PD(6),
    /** NdkObjectTypeSharedEndpoint, 7. */
    SHARED_ENDPOINT(7),
    /** NdkObjectTypeConnector, 8. */
    CONNECTOR(8),
    /** NdkObjectTypeListener, 9. */
    LISTENER(9),
    /** NdkObjectTypeSrq, 10. */
    SRQ(10),
    /** NdkObjectTypeMax, 11 (may grow in later headers). */
    MAX(11);

    private final int value;

    NdkObjectType(int value) {
        this.value = value;
    }

    /** @return the C enum value */
    public int value() {
        return value;
    }
}
