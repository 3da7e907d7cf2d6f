package org.ndktck.faults;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;

/**
 * Faults of issue 20's limit checks (item 2): the reference's objects wrapped, one {@link Hooks} each, named
 * {@code fault:RULE-ID/variant} after the rule the kit must FAIL for them.
 */
public final class LimitFaults {
    private LimitFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:RW-5/full-cq-loses-newest",
                "a CQ created with a QueueDepth below 64 gets a ring of exactly that size whose full check is off by one "
                        + "(full looks empty): it holds only QueueDepth - 1 entries, so when QueueDepth entries wait in it at "
                        + "once the newest is lost (larger CQs get a rounded-up ring and work)", FullLosesNewest::new));
        return out;
    }

    /** QueueDepth below which {@code fault:RW-5/full-cq-loses-newest} sizes a ring exactly (and wrongly). */
    static final int EXACT_BELOW = 64;

    static final class FullLosesNewest implements Hooks {
        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            int depth = cq.queueDepth();
            if (depth <= 0 || depth >= EXACT_BELOW) {
                return inner.applyAsInt(results);
            }
            Deque<NdkResultEx> waiting = cq.state(ArrayDeque::new);
            synchronized (waiting) {
                // everything the wrapped CQ holds now is "in the ring"; the entry that fills it is lost
                for (NdkResultEx[] more = new NdkResultEx[depth]; ; ) {
                    int n = inner.applyAsInt(more);
                    for (int i = 0; i < n; i++) {
                        if (waiting.size() < depth - 1) {
                            waiting.add(more[i]);
                        }
                    }
                    if (n < more.length) {
                        break;
                    }
                }
                int out = 0;
                while (out < results.length && !waiting.isEmpty()) {
                    results[out++] = waiting.poll();
                }
                return out;
            }
        }
    }
}
