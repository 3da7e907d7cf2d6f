package org.ndktck.reference;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * A CQ of the model: the completions of work requests in the order they completed (CQ-1 to CQ-3). The model
 * does not overrun a CQ: entries beyond QueueDepth are kept (CQ-5's overrun is not modelled). Closes only
 * after the QPs that use it (CL-6).
 */
final class ReferenceCq extends ReferenceObject implements NdkCq {
    private final int queueDepth;
    private final ArrayDeque<NdkResultEx> entries = new ArrayDeque<>();

    ReferenceCq(ReferenceAdapter adapter, int queueDepth) {
        super(adapter, NdkObjectType.CQ);
        this.queueDepth = queueDepth;
    }

    @Override
    List<ReferenceObject> antecedents() {
        return List.of();
    }

    @Override
    void onClosed() {
        entries.clear();
    }

    /** Under the lock. */
    void add(NdkResultEx entry) {
        if (life != Life.CLOSED) {
            entries.add(entry);
        }
    }

    @Override
    public int getCqResults(NdkResult[] results) {
        Objects.requireNonNull(results, "results");
        adapter.lock.lock();
        try {
            int n = 0;
            while (n < results.length && !entries.isEmpty()) {
                results[n++] = entries.poll().toResult();
            }
            return n;
        } finally {
            adapter.lock.unlock();
        }
    }

    @Override
    public int getCqResultsEx(NdkResultEx[] results) {
        Objects.requireNonNull(results, "results");
        adapter.lock.lock();
        try {
            int n = 0;
            while (n < results.length && !entries.isEmpty()) {
                results[n++] = entries.poll();
            }
            return n;
        } finally {
            adapter.lock.unlock();
        }
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return closeObject(completion, closeContext);
    }

    @Override
    public String toString() {
        return "ReferenceCq{depth=" + Integer.toUnsignedString(queueDepth) + ", entries=" + entries.size() + ", " + life + "}";
    }
}
