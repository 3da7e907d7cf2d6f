package org.ndktck.reference;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/** Work in progress: the adapter model (structure commit). */
public final class ReferenceAdapter implements NdkAdapter, AdapterView {
    /** MaxTransferLength reported in NDK_ADAPTER_INFO: 1 GiB. */
    public static final long MAX_TRANSFER_LENGTH = 1L << 30;

    private final ReferenceSettings settings;

    ReferenceAdapter(HostMemory memory, ReferenceSettings settings, ReferencePolicy policy) {
        this.settings = settings;
    }

    @Override public ReferenceSettings settings() { return settings; }
    @Override public int pageSize() { return settings.pageSize(); }
    @Override public int adapterFlags() { return 0; }
    @Override public boolean isLiveLogicalPage(long logicalAddress) { return false; }
    @Override public NdkObjectHeader header() { throw new UnsupportedOperationException(); }
    @Override public NdkAdapterInfo queryAdapterInfo() { throw new UnsupportedOperationException(); }
    @Override public CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> c, Object ctx) { throw new UnsupportedOperationException(); }
    @Override public CreateResult<NdkCq> createCq(int d, CreateCompletion<NdkCq> c, Object ctx) { throw new UnsupportedOperationException(); }
    @Override public NtStatus buildLam(Mdl mdl, long length, RequestCompletion c, Object ctx, NdkLogicalAddressMapping lam) { throw new UnsupportedOperationException(); }
    @Override public void releaseLam(NdkLogicalAddressMapping lam) { throw new UnsupportedOperationException(); }
    @Override public NtStatus connectLoopback(NdkQp a, NdkQp b) { throw new UnsupportedOperationException(); }
    @Override public void close() { }
}
