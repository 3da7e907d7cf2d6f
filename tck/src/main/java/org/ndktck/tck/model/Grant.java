package org.ndktck.tck.model;

import org.ndktck.tck.harness.Region;

/**
 * What one registration (NdkRegisterMr or NdkFastRegister) grants while it lives: its bytes (the region: buffer,
 * offset, BaseVirtualAddress or MDL virtual address, Length in bytes, remote token as an unsigned 32-bit value in an
 * int), its local token, and the rights its flags give (composite flags read whole: MR-REG-14, MR-FR-19).
 *
 * @param region      the region (buffer, offset in the buffer, base address, Length, remote token)
 * @param localToken  the local token (unsigned 32-bit)
 * @param remoteRead  a peer may read it (ALLOW_REMOTE_READ)
 * @param remoteWrite a peer may write it (ALLOW_REMOTE_WRITE with ALLOW_LOCAL_WRITE)
 * @param localWrite  it may be a local sink (ALLOW_LOCAL_WRITE)
 * @param readSink    it may be an RDMA-read sink where the adapter requires RDMA_READ_SINK
 * @param fast        made by NdkFastRegister
 * @param what        the call that made it, for messages
 */
public record Grant(Region region, int localToken, boolean remoteRead, boolean remoteWrite, boolean localWrite, boolean readSink,
                    boolean fast, String what) {

    /** @return the remote token (unsigned 32-bit) */
    public int remoteToken() {
        return region.remoteToken();
    }
}
