package org.ndktck.reference;

/**
 * The target side of an NdkRead or NdkWrite, checked when the request is processed by the checks of
 * {@link Pieces#REMOTE_ACCESS}. A failure completes the request with that status and changes no byte.
 *
 * @param adapter    the adapter
 * @param type       READ or WRITE
 * @param token      RemoteToken (UINT32 in an int)
 * @param address    RemoteAddress (unsigned, absolute)
 * @param length     bytes to move (the sum of the local SGE lengths, unsigned)
 * @param owner      what the token names
 * @param region     the registration when {@code owner} is REGISTRATION, else null
 * @param samePd     true when the registration (or privileged token) belongs to the target QP's PD
 * @param inBounds   the {@code bounds} piece's answer for [address, address + length); for the privileged token
 *                   whether the range lies in one live LAM; false otherwise
 */
public record RemoteAccessRequest(AdapterView adapter, WorkRequestType type, int token, long address, long length,
                                  TokenOwner owner, RegionView region, boolean samePd, boolean inBounds) {
}
