package org.ndktck.reference;

/**
 * The invalidation half of NdkSendAndInvalidate at the receiving peer, or of NdkRead with
 * RDMA_READ_LOCAL_INVALIDATE on the first local SGE, checked by {@link Pieces#REMOTE_INVALIDATE}.
 *
 * @param adapter the adapter
 * @param type    SEND_AND_INVALIDATE or READ
 * @param token   the token to invalidate
 * @param owner   what the token names
 * @param region  the registration when {@code owner} is REGISTRATION, else null
 * @param samePd  true when the registration belongs to the PD of the QP where it is invalidated
 */
public record RemoteInvalidateRequest(AdapterView adapter, WorkRequestType type, int token, TokenOwner owner,
                                      RegionView region, boolean samePd) {
}
