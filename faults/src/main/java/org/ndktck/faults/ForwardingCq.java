package org.ndktck.faults;

import java.util.concurrent.ConcurrentLinkedQueue;

import org.ndktck.reference.Unwrappable;
import org.ndktck.spec.CloseCompletion;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/**
 * A CQ of a {@link ForwardingAdapter}: every call goes through the adapter's {@link Hooks}. A hook may
 * {@link #inject} extra entries (a fault's forged CQ entries); NdkGetCqResults and NdkGetCqResultsEx hand
 * them out first, oldest first, then the wrapped CQ's entries.
 */
public final class ForwardingCq implements NdkCq, Unwrappable {
    private final NdkCq inner;
    private final Hooks hooks;
    private final ConcurrentLinkedQueue<NdkResultEx> injected = new ConcurrentLinkedQueue<>();

    ForwardingCq(NdkCq inner, ForwardingAdapter adapter) {
        this.inner = inner;
        this.hooks = adapter.hooks();
    }

    @Override
    public NdkObject unwrap() {
        return inner;
    }

    /**
     * Adds an entry the wrapped CQ never produced.
     *
     * @param entry the entry to hand out with the next NdkGetCqResults(Ex)
     */
    public void inject(NdkResultEx entry) {
        injected.add(entry);
    }

    @Override
    public NdkObjectHeader header() {
        return hooks.call(NdkCall.HEADER, () -> hooks.header(this, inner.header()));
    }

    @Override
    public int getCqResults(NdkResult[] results) {
        return hooks.call(NdkCall.GET_CQ_RESULTS, () -> {
            if (injected.isEmpty()) {
                return inner.getCqResults(results);
            }
            int n = 0;
            for (NdkResultEx e; n < results.length && (e = injected.poll()) != null; ) {
                results[n++] = e.toResult();
            }
            if (n < results.length) {
                NdkResult[] rest = new NdkResult[results.length - n];
                int m = inner.getCqResults(rest);
                System.arraycopy(rest, 0, results, n, m);
                n += m;
            }
            return n;
        });
    }

    @Override
    public int getCqResultsEx(NdkResultEx[] results) {
        return hooks.call(NdkCall.GET_CQ_RESULTS_EX, () -> {
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
        });
    }

    @Override
    public NtStatus close(CloseCompletion completion, Object closeContext) {
        return hooks.call(NdkCall.CLOSE_CQ, () -> hooks.close(NdkCall.CLOSE_CQ, this, completion, closeContext, inner::close));
    }

    @Override
    public String toString() {
        return "ForwardingCq(" + inner + ")";
    }
}
