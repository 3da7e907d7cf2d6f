package org.ndktck.tck.model;

import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.Lam;

/**
 * What NdkInitializeFastRegisterMr fixed for a fast-register MR, and the host pages the kit maps for it: the
 * AdapterPageCount given at initialization, its RemoteAccess, and the buffer and LAM whose pages every later
 * NdkFastRegister of the MR names.
 *
 * @param buffer       the host buffer (pages of PAGE_SIZE bytes)
 * @param lam          the LAM over the buffer (its adapter page addresses)
 * @param pages        AdapterPageCount given to NdkInitializeFastRegisterMr (pages, at least 1)
 * @param remoteAccess the RemoteAccess given to NdkInitializeFastRegisterMr (MR-FR-6: without it no remote flag)
 */
public record FastPages(HostBuffer buffer, Lam lam, int pages, boolean remoteAccess) {
}
