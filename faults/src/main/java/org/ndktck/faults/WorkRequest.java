package org.ndktck.faults;

import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;

/**
 * One work request posted on a QP (NdkFastRegister, NdkInvalidate, NdkRead, NdkWrite, NdkSend,
 * NdkSendAndInvalidate, NdkReceive) with its arguments, as {@link Hooks#post} sees it. Fields a call does not
 * take are 0 or null. A hook may post a changed copy ({@link #withFlags}, {@link #withRemoteToken}, ...).
 *
 * @param call               which request
 * @param context            the consumer's RequestContext
 * @param mr                 the MR (NdkFastRegister, NdkInvalidate), as the consumer passed it
 * @param adapterPageCount   NdkFastRegister: AdapterPageCount (ULONG in an int)
 * @param adapterPageArray   NdkFastRegister: the adapter page addresses
 * @param fbo                NdkFastRegister: FBO in bytes (ULONG in an int)
 * @param length             NdkFastRegister: Length in bytes (SIZE_T in a long)
 * @param baseVirtualAddress NdkFastRegister: BaseVirtualAddress (unsigned, in a long)
 * @param sgl                NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate, NdkReceive: the SGL
 * @param remoteAddress      NdkRead, NdkWrite: the remote address (unsigned, in a long)
 * @param remoteToken        NdkRead, NdkWrite, NdkSendAndInvalidate: the remote token (UINT32 in an int)
 * @param flags              the NDK_OP_FLAG bits (0 for NdkReceive)
 */
public record WorkRequest(NdkCall call, Object context, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo,
                          long length, long baseVirtualAddress, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {

    /** @return the NDK_RESULT_EX.Type its CQ entry carries (NdkSendAndInvalidate: Send) */
    public NdkOperationType type() {
        return switch (call) {
            case FAST_REGISTER -> NdkOperationType.FAST_REGISTER;
            case INVALIDATE -> NdkOperationType.INVALIDATE;
            case READ -> NdkOperationType.READ;
            case WRITE -> NdkOperationType.WRITE;
            case RECEIVE -> NdkOperationType.RECEIVE;
            default -> NdkOperationType.SEND;
        };
    }

    /** @return true for NdkRead and NdkWrite */
    public boolean isReadOrWrite() {
        return call == NdkCall.READ || call == NdkCall.WRITE;
    }

    /** @return a copy with other NDK_OP_FLAG bits */
    public WorkRequest withFlags(int newFlags) {
        return new WorkRequest(call, context, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, sgl,
                remoteAddress, remoteToken, newFlags);
    }

    /** @return a copy with another remote address */
    public WorkRequest withRemoteAddress(long address) {
        return new WorkRequest(call, context, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, sgl,
                address, remoteToken, flags);
    }

    /** @return a copy with another remote token */
    public WorkRequest withRemoteToken(int token) {
        return new WorkRequest(call, context, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, sgl,
                remoteAddress, token, flags);
    }

    /** @return a copy with another SGL */
    public WorkRequest withSgl(NdkSge[] newSgl) {
        return new WorkRequest(call, context, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, newSgl,
                remoteAddress, remoteToken, flags);
    }

    /** @return a copy with another AdapterPageArray */
    public WorkRequest withAdapterPageArray(long[] pages) {
        return new WorkRequest(call, context, mr, adapterPageCount, pages, fbo, length, baseVirtualAddress, sgl,
                remoteAddress, remoteToken, flags);
    }
}
