package org.ndktck.reference;

import org.ndktck.spec.NdkSge;

/**
 * One local SGE of a work request, checked when the request is processed by the checks of
 * {@link Pieces#LOCAL_ACCESS} (never for an INLINE request, whose token is ignored, SGE-3).
 *
 * @param adapter      the adapter
 * @param type         the work request
 * @param sge          the SGE
 * @param sink         true when bytes are written into it (Read target, Receive buffer)
 * @param owner        what the SGE's token names
 * @param region       the registration when {@code owner} is REGISTRATION, else null
 * @param samePd       true when the registration (or privileged token) belongs to the QP's PD
 * @param lamRangeLive for the privileged token: true when [address, address + length) lies in one live LAM
 * @param inBounds     for a registration: the {@code bounds} piece's answer for the SGE (false without a region)
 */
public record LocalAccessRequest(AdapterView adapter, WorkRequestType type, NdkSge sge, boolean sink,
                                 TokenOwner owner, RegionView region, boolean samePd, boolean lamRangeLive,
                                 boolean inBounds) {
}
