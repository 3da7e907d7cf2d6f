package org.ndktck.reference;

import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * One accepted work request, from its post until its completion (a CQ entry, unless SILENT_SUCCESS and
 * success). Guarded by the adapter's lock.
 */
final class WorkRequest {
    final WorkRequestType type;
    final ReferenceQp qp;
    final Object context;
    final int flags;
    /** A copy of the SGE list (null for FR and invalidate). */
    final NdkSge[] sgl;
    final long remoteAddress;
    final int remoteToken;
    /** FR: the new registration; invalidate: the registration current when posted. */
    final Region region;
    /** INLINE data copied when posted, or null. */
    final byte[] inlineData;
    /**
     * The error status of a request whose inline check failed but which the {@code late-failure} piece reports
     * through its CQ entry, in post order (AMB-11), or null: such a request changes nothing when processed.
     */
    NtStatus lateFailure;
    boolean done;

    WorkRequest(WorkRequestType type, ReferenceQp qp, Object context, int flags, NdkSge[] sgl, long remoteAddress,
                int remoteToken, Region region, byte[] inlineData) {
        this.type = type;
        this.qp = qp;
        this.context = context;
        this.flags = flags;
        this.sgl = sgl;
        this.remoteAddress = remoteAddress;
        this.remoteToken = remoteToken;
        this.region = region;
        this.inlineData = inlineData;
    }

    boolean has(int flag) {
        return (flags & flag) == flag;
    }

    boolean deferred() {
        return has(NdkOpFlags.DEFER);
    }

    /** @return the sum of the SGE lengths (unsigned) */
    long totalBytes() {
        return sumLengths(sgl);
    }

    static long sumLengths(NdkSge[] sgl) {
        long total = 0;
        if (sgl != null) {
            for (NdkSge sge : sgl) {
                total = Unsigned.saturatingAdd(total, sge.unsignedLength());
            }
        }
        return total;
    }

    @Override
    public String toString() {
        return type + "{context=" + context + ", flags=0x" + Integer.toHexString(flags) + (done ? ", done" : "") + "}";
    }
}
