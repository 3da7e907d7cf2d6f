package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkSge;

/**
 * A fast-registered region of the target: a buffer, its LAM, an initialized MR and the registration.
 *
 * @param buffer the buffer; region byte k is buffer byte fbo + k
 * @param mdl    the MDL the LAM was built over
 * @param lam    the LAM (released by the session)
 * @param mr     the MR (closed by the session)
 * @param pages  AdapterPageCount
 * @param fbo    FBO
 * @param length Length
 * @param base   BaseVirtualAddress
 * @param flags  NDK_OP_FLAG_* bits of the fast registration
 * @param token  the remote token read after NdkFastRegister returned
 * @param local  the local token read after it completed
 */
public record FastRegion(HostBuffer buffer, Mdl mdl, Lam lam, NdkMr mr, int pages, int fbo, long length,
                         long base, int flags, int token, int local) {
    /** @return the region as a peer sees it */
    public Region region() {
        return new Region(buffer, Integer.toUnsignedLong(fbo), base, length, token);
    }

    /** @return an SGE {base + k, n, local token} */
    public NdkSge sge(long k, int n) {
        return new NdkSge(base + k, n, local);
    }
}
