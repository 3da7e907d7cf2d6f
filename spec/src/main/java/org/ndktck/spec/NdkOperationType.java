package org.ndktck.spec;

/**
 * NDK_OPERATION_TYPE, carried in NDK_RESULT_EX.Type (values from ndkpi.h; MR-FR-8, INV-3, CQ-3).
 */
public enum NdkOperationType {
    /** NdkOperationTypeReceive, 1. */
    RECEIVE(1),
    /** NdkOperationTypeSend, 2. */
    SEND(2),
    /** NdkOperationTypeFastRegister, 4. */
    FAST_REGISTER(4),
    /** NdkOperationTypeBind, 8. */
    BIND(8),
    /** NdkOperationTypeInvalidate, 16. */
    INVALIDATE(16),
    /** NdkOperationTypeRead, 32. */
    READ(32),
    /** NdkOperationTypeWrite, 64. */
    WRITE(64),
    /** NdkOperationTypeReceiveAndInvalidate, 32769 (0x8001). */
    RECEIVE_AND_INVALIDATE(0x8001);

    private final int value;

    NdkOperationType(int value) {
        this.value = value;
    }

    /** @return the C enum value */
    public int value() {
        return value;
    }
}
