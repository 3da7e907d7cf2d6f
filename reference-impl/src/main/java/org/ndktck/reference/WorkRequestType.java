package org.ndktck.reference;

import org.ndktck.spec.NdkOperationType;

/** The work requests the model processes, with the NDK_OPERATION_TYPE each completes with. */
public enum WorkRequestType {
    /** NdkFastRegister. */
    FAST_REGISTER(NdkOperationType.FAST_REGISTER),
    /** NdkInvalidate. */
    INVALIDATE(NdkOperationType.INVALIDATE),
    /** NdkRead. */
    READ(NdkOperationType.READ),
    /** NdkWrite. */
    WRITE(NdkOperationType.WRITE),
    /** NdkSend. */
    SEND(NdkOperationType.SEND),
    /** NdkSendAndInvalidate (completes as a Send on the initiator). */
    SEND_AND_INVALIDATE(NdkOperationType.SEND),
    /** NdkReceive (completes as Receive, or ReceiveAndInvalidate when the peer's send invalidated a token). */
    RECEIVE(NdkOperationType.RECEIVE);

    private final NdkOperationType operationType;

    WorkRequestType(NdkOperationType operationType) {
        this.operationType = operationType;
    }

    /** @return the NDK_RESULT_EX.Type of its completion */
    public NdkOperationType operationType() {
        return operationType;
    }
}
