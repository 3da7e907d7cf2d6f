package org.ndktck.faults;

import java.util.concurrent.ConcurrentLinkedQueue;

import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * A CQ of a {@link ForwardingAdapter}: every call goes through the adapter's {@link Hooks}, both result calls
 * through {@link Hooks#results} (NdkGetCqResults hands out {@link NdkResultEx#toResult()} of the entries
 * NdkGetCqResultsEx would). A hook may {@link #inject} extra entries (a fault's forged CQ entries); they are
 * handed out first, oldest first, then the wrapped CQ's entries.
 */
public final class ForwardingCq extends ForwardingObject<NdkCq> implements NdkCq {
    private final ConcurrentLinkedQueue<NdkResultEx> injected = new ConcurrentLinkedQueue<>();

    private final int queueDepth;

    ForwardingCq(NdkCq inner, ForwardingAdapter adapter, int queueDepth) {
        super(inner, adapter);
        this.queueDepth = queueDepth;
    }

    /** @return the QueueDepth of its NdkCreateCq (ULONG in an int), or 0 when unknown */
    public int queueDepth() {
        return queueDepth;
    }

    /**
     * Adds an entry the wrapped CQ never produced.
     *
     * @param entry the entry to hand out with the next NdkGetCqResults(Ex)
     */
    public void inject(NdkResultEx entry) {
        injected.add(entry);
    }

    /** The injected entries, then the wrapped CQ's. */
    private int poll(NdkResultEx[] results) {
        if (injected.isEmpty()) {
            return inner.getCqResultsEx(results);
        }
        int n = 0;
        for (NdkResultEx e; n < results.length && (e = injected.poll()) != null; ) {
            results[n++] = e;
        }
        if (n < results.length) {
            NdkResultEx[] rest = new NdkResultEx[results.length - n];
            int m = inner.getCqResultsEx(rest);
            System.arraycopy(rest, 0, results, n, m);
            n += m;
        }
        return n;
    }

    @Override
    public int getCqResults(NdkResult[] results) {
        return hooks.call(NdkCall.GET_CQ_RESULTS, this, () -> {
            NdkResultEx[] ex = new NdkResultEx[results.length];
            int n = hooks.results(this, ex, this::poll);
            for (int i = 0; i < Math.min(n, results.length); i++) {
                results[i] = ex[i].toResult();
            }
            return n;
        });
    }

    @Override
    public int getCqResultsEx(NdkResultEx[] results) {
        return hooks.call(NdkCall.GET_CQ_RESULTS_EX, this, () -> hooks.results(this, results, this::poll));
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return hooks.call(NdkCall.CLOSE_CQ, this, () -> hooks.close(NdkCall.CLOSE_CQ, this, completion, closeContext, inner::close));
    }
}
