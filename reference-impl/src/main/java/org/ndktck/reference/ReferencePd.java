package org.ndktck.reference;

import java.util.List;
import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NtStatus;

/**
 * A PD of the model: creates MRs and QPs, owns a privileged token (PRIV-1, PRIV-2), and closes only after
 * its MRs and QPs (CL-6).
 */
final class ReferencePd extends ReferenceObject implements NdkPd {
    private final int privilegedToken;
    /** The PD's number on its adapter (0 for the first PD created), for token allocators that scope by PD. */
    final int ordinal;

    /** Under the adapter's lock. */
    ReferencePd(ReferenceAdapter adapter) {
        super(adapter, NdkObjectType.PD);
        this.ordinal = adapter.nextPdOrdinal();
        this.privilegedToken = adapter.tokens.allocateToken(this, TokenPurpose.PRIVILEGED, 0);
        adapter.tokens.putToken(privilegedToken, this);
    }

    @Override
    List<ReferenceObject> antecedents() {
        return List.of();
    }

    @Override
    void onClosed() {
        adapter.tokens.removeToken(privilegedToken, this);
    }

    @Override
    public CreateResult<NdkMr> createMr(boolean fastRegister, CreateCompletion<NdkMr> completion,
                                        Object createContext) {
        Objects.requireNonNull(completion, "completion");
        adapter.lock.lock();
        try {
            if (adapter.isClosed() || !isOpen()) {
                return CreateResult.failed(NtStatus.STATUS_INVALID_PARAMETER);
            }
            return adapter.createObject(this, () -> new ReferenceMr(this, fastRegister), completion, createContext);
        } finally {
            adapter.lock.unlock();
        }
    }

    @Override
    public CreateResult<NdkQp> createQp(NdkCq receiveCq, NdkCq initiatorCq, Object qpContext, int receiveQueueDepth,
                                        int initiatorQueueDepth, int maxReceiveRequestSge,
                                        int maxInitiatorRequestSge, int inlineDataSize,
                                        CreateCompletion<NdkQp> completion, Object createContext) {
        Objects.requireNonNull(receiveCq, "receiveCq");
        Objects.requireNonNull(initiatorCq, "initiatorCq");
        Objects.requireNonNull(completion, "completion");
        ReferenceCq rcq = adapter.resolve(receiveCq, ReferenceCq.class);
        ReferenceCq icq = adapter.resolve(initiatorCq, ReferenceCq.class);
        adapter.lock.lock();
        try {
            boolean limits = withinQpLimits(receiveQueueDepth, initiatorQueueDepth, maxReceiveRequestSge,
                    maxInitiatorRequestSge)
                    && Integer.compareUnsigned(inlineDataSize, ReferenceAdapter.MAX_INLINE_DATA_SIZE) <= 0;
            if (adapter.isClosed() || !isOpen() || rcq == null || icq == null || !rcq.isOpen() || !icq.isOpen()
                    || !limits) {
                return CreateResult.failed(NtStatus.STATUS_INVALID_PARAMETER);
            }
            ReferenceQp.Limits l = new ReferenceQp.Limits(receiveQueueDepth, initiatorQueueDepth,
                    maxReceiveRequestSge, maxInitiatorRequestSge, inlineDataSize);
            return adapter.createObject(this, () -> new ReferenceQp(this, rcq, icq, qpContext, l), completion, createContext);
        } finally {
            adapter.lock.unlock();
        }
    }

    /**
     * @return true when the queue depths and SGE counts given to NdkCreateQp are within the adapter's advertised
     *     maxima (unsigned)
     */
    private boolean withinQpLimits(int receiveQueueDepth, int initiatorQueueDepth, int maxReceiveRequestSge,
                                          int maxInitiatorRequestSge) {
        return Integer.compareUnsigned(receiveQueueDepth, ReferenceAdapter.MAX_QUEUE_DEPTH) <= 0
                && Integer.compareUnsigned(initiatorQueueDepth, ReferenceAdapter.MAX_QUEUE_DEPTH) <= 0
                && Integer.compareUnsigned(maxReceiveRequestSge, adapter.maxSge()) <= 0
                && Integer.compareUnsigned(maxInitiatorRequestSge, adapter.maxSge()) <= 0;
    }

    @Override
    public int getPrivilegedMemoryRegionToken() {
        return privilegedToken;
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeObject(completion, closeContext);
    }

    @Override
    public String toString() {
        return String.format("ReferencePd{privilegedToken=0x%08X, %s}", privilegedToken, life);
    }
}
