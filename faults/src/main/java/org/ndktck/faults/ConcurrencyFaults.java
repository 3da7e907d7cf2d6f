package org.ndktck.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/**
 * Faults of the concurrent-call checks, each a proof that a check catches what it was added for: real races. Each provider is
 * correct when every call comes from one thread at a time (the whole kit of before the concurrent properties
 * passes it), and breaks a rule only when two kit threads call into one adapter at once, as the pages allow
 * (every MR, work-request and CQ function at up to DISPATCH_LEVEL, from any processor). The race windows are
 * widened with {@link Thread#yield()} and a short spin so that the standard profile shows them.
 *
 * <ul>
 *   <li>{@code fault:MR-TOK-6/racy-token-counter}: the tokens the consumer sees come from the wrapper's own
 *       counter, read, incremented and written back without a lock; two registrations whose tokens are handed
 *       out at once get the same token, and the token then reaches only the later one's pages.</li>
 *   <li>{@code fault:INV-4/racy-revocation-bitmap}: a per-adapter bitmap of revoked fast-register tokens (64
 *       tokens a word) is updated with a plain read-modify-write, and tokens resolve through the MR's current
 *       registration (an MR-indexed table); two invalidations of different MRs at once lose one revocation, so
 *       that MR's old token reaches its next fast registration.</li>
 *   <li>{@code fault:RW-5/unlocked-cq-harvest}: completions are moved from the hardware CQ into a software ring
 *       by whichever processor posts or polls, and the ring's tail is advanced without a lock; a post on one QP
 *       racing a poll of the CQ it shares with other QPs overwrites an entry, which is lost.</li>
 *   <li>{@code fault:MR-FRI-6/command-ring-8} ({@link InitializationCommandRing}): initializations share a ring of
 *       8 command slots and a ninth in flight overwrites the oldest; the standard profile's concurrent
 *       initializations (up to 12 threads) have 9 in flight.</li>
 *   <li>{@code fault:MR-FRI-6/command-ring-16}: the same with 16 slots. The standard profile's concurrent
 *       initializations never have 17 in flight; the deep profile's (up to 24) do (item 5's proof), so it carries
 *       the {@link org.ndktck.spec.DeepProfileFault} mark and {@code selftest} runs it at {@code --profile deep}.</li>
 * </ul>
 */
public final class ConcurrencyFaults {
    private ConcurrencyFaults() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        List<NdkProvider> out = new ArrayList<>();
        out.add(Variants.wrapped("fault:MR-TOK-6/racy-token-counter",
                "every registration's token (normal or fast) comes from a counter that is read, incremented and written "
                        + "back without a lock when the token is first handed out; two registrations whose tokens are "
                        + "handed out at once share one token, which then reaches only the later one (correct from one thread)",
                () -> new VirtualTokens(true, false)));
        out.add(Variants.wrapped("fault:INV-4/racy-revocation-bitmap",
                "fast-register tokens resolve through their MR's current registration unless a per-adapter revocation "
                        + "bitmap (64 tokens a word) marks them; NdkInvalidate sets its bit with an unlocked read-modify-write, "
                        + "so two invalidations of different MRs at once lose one and that MR's old token reaches its next "
                        + "fast registration (correct from one thread)",
                () -> new VirtualTokens(false, true)));
        out.add(Variants.wrapped("fault:RW-5/unlocked-cq-harvest",
                "CQ entries are moved into a software ring by whichever thread posts or polls, and the ring's tail is "
                        + "advanced without a lock; a post racing a poll of the CQ it shares overwrites an entry, which "
                        + "is lost (correct from one thread)", UnlockedHarvest::new));
        out.add(Variants.wrapped("fault:MR-FRI-6/command-ring-8",
                "NdkInitializeFastRegisterMr commands share a ring of 8 slots per adapter; a ninth command in flight takes "
                        + "the oldest one's slot, whose call then returns STATUS_SUCCESS without initializing the MR, so its "
                        + "NdkFastRegister is refused (correct with up to 8 initializations at once)",
                () -> new InitializationCommandRing(8)));
        out.add(Variants.provedAtDeepProfile(Variants.wrapped("fault:MR-FRI-6/command-ring-16",
                "as command-ring-8 with a ring of 16 slots: correct with up to 16 initializations at once, which the "
                        + "standard profile never exceeds (proved at --profile deep)",
                () -> new InitializationCommandRing(16))));
        return out;
    }

    /** The race window: give the processor away and spin a little, as an interrupt between a load and a store would. */
    static void window() {
        Thread.yield();
        for (int i = 0; i < 200; i++) {
            Thread.onSpinWait();
        }
    }

    /**
     * Tokens of the wrapper's own (the first value 0x4E000001, then one more each), mapped onto the reference's
     * tokens in every request that names one (RemoteToken, SGE tokens) and back in ReceiveAndInvalidate entries.
     * A token is made when the consumer first reads a registration's token (NdkGetRemoteTokenFromMr or
     * NdkGetLocalTokenFromMr, the same value; one lock per MR). Values the wrapper never made pass unchanged. In the
     * INV-4 variant a token is revoked when its NdkInvalidate is accepted or its ReceiveAndInvalidate entry
     * reports success, and when the MR's next token is made before any fast registration (the initialization's).
     */
    static final class VirtualTokens implements Hooks {
        private static final int FIRST = 0x4E00_0001;
        private final boolean racyCounter;
        private final boolean racyRevocation;
        private final AtomicInteger next = new AtomicInteger(FIRST);
        /** Our token → the reference token it was made for. */
        private final ConcurrentHashMap<Integer, Integer> realOf = new ConcurrentHashMap<>();
        /** Our token → its MR. */
        private final ConcurrentHashMap<Integer, ForwardingMr> owner = new ConcurrentHashMap<>();
        /** Reference token → ours (for ReceiveAndInvalidate entries). */
        private final ConcurrentHashMap<Integer, Integer> virtualOf = new ConcurrentHashMap<>();
        /** Word (token sequence number / 64) → the revocation bits of its 64 tokens. */
        private final ConcurrentHashMap<Integer, long[]> revokedWords = new ConcurrentHashMap<>();

        /**
         * @param racyCounter    the counter is read and written back without a lock (MR-TOK-6 fault), and every
         *                       MR's tokens are ours; otherwise it is atomic
         * @param racyRevocation only fast-register MRs get our tokens, they resolve through the MR's current
         *                       registration unless revoked, and a revocation is an unlocked read-modify-write of its
         *                       bitmap word (INV-4 fault)
         */
        VirtualTokens(boolean racyCounter, boolean racyRevocation) {
            this.racyCounter = racyCounter;
            this.racyRevocation = racyRevocation;
        }

        @Override
        public int token(NdkCall call, ForwardingMr mr, int token) {
            if (racyRevocation && !mr.fastRegister()) {
                return token;
            }
            int[] st = state(mr);
            synchronized (st) {
                if (st[0] == 0 || st[1] != token) {
                    if (racyRevocation && st[0] != 0 && st[2] == 0) {
                        revoke(st[0], false); // the token of the initialization, before any fast registration
                    }
                    int v = allocate();
                    realOf.put(v, token);
                    owner.put(v, mr);
                    virtualOf.put(token, v);
                    st[0] = v;
                    st[1] = token;
                    st[2] = st[3];
                    st[3] = 0;
                }
                return st[0];
            }
        }

        /**
         * @return the MR's {our token, the reference token it was made for, 1 when it was made after a fast
         *     registration, 1 when a fast registration was posted since}
         */
        private static int[] state(ForwardingMr mr) {
            return mr.state(() -> new int[4]);
        }

        private int allocate() {
            if (!racyCounter) {
                return next.getAndIncrement();
            }
            int n = next.get();
            window();
            next.set(n + 1);
            return n;
        }

        private void revoke(int v, boolean racy) {
            int seq = v - FIRST;
            long[] word = revokedWords.computeIfAbsent(seq >>> 6, k -> new long[1]);
            long bit = 1L << (seq & 63);
            if (racy) {
                long w = word[0];
                window();
                word[0] = w | bit;
            } else {
                synchronized (word) {
                    word[0] |= bit;
                }
            }
        }

        private boolean revoked(int v) {
            int seq = v - FIRST;
            long[] word = revokedWords.get(seq >>> 6);
            return word != null && (word[0] & (1L << (seq & 63))) != 0;
        }

        /** Our token → the reference's; other values unchanged. */
        private int resolve(int token, boolean local) {
            Integer real = realOf.get(token);
            if (real == null) {
                return token;
            }
            if (!racyRevocation) {
                return real;
            }
            if (revoked(token)) {
                return 0; // never a reference token
            }
            ForwardingMr mr = owner.get(token);
            return local ? mr.inner().getLocalToken() : mr.inner().getRemoteToken();
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest w, Function<WorkRequest, NtStatus> inner) {
            WorkRequest changed = w;
            NdkSge[] sgl = w.sgl();
            if (sgl != null) {
                NdkSge[] mapped = sgl.clone();
                boolean any = false;
                for (int i = 0; i < mapped.length; i++) {
                    NdkSge sge = mapped[i];
                    if (sge != null) {
                        int real = resolve(sge.memoryRegionToken(), true);
                        if (real != sge.memoryRegionToken()) {
                            mapped[i] = new NdkSge(sge.address(), sge.length(), real);
                            any = true;
                        }
                    }
                }
                if (any) {
                    changed = changed.withSgl(mapped);
                }
            }
            boolean namesToken = w.isReadOrWrite() || w.call() == NdkCall.SEND_AND_INVALIDATE;
            if (namesToken) {
                changed = changed.withRemoteToken(resolve(w.remoteToken(), false));
            }
            NtStatus st = inner.apply(changed);
            if (racyRevocation && NtStatus.STATUS_SUCCESS.equals(st)) {
                if (w.call() == NdkCall.FAST_REGISTER && w.mr() instanceof ForwardingMr m) {
                    int[] s = state(m);
                    synchronized (s) {
                        s[3] = 1;
                    }
                } else if (w.call() == NdkCall.INVALIDATE && w.mr() instanceof ForwardingMr m && m.fastRegister()) {
                    int[] s = state(m);
                    int v;
                    synchronized (s) {
                        v = s[0];
                    }
                    if (v != 0) {
                        revoke(v, true);
                    }
                }
            }
            return st;
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            return Hooks.mapResults(results, inner, e -> {
                if (e == null || e.type() != NdkOperationType.RECEIVE_AND_INVALIDATE) {
                    return e;
                }
                Integer v = virtualOf.get((int) e.typeSpecificCompletionOutput());
                if (v != null && racyRevocation && NtStatus.STATUS_SUCCESS.equals(e.status())) {
                    revoke(v, true); // the remote invalidation took effect at the receiver
                }
                return v == null ? e : new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(), e.type(),
                        Integer.toUnsignedLong(v));
            });
        }
    }

    /**
     * A software ring between the wrapped CQ (the "hardware" CQ) and the consumer: every post (after the wrapped
     * QP took it) and every poll first moves what the wrapped CQ holds into the ring, one entry at a time; the
     * tail is read, the entry stored, and the tail written back, with no lock. The consumer's polls take from the
     * head (the consumer serializes its polls of one CQ, CQ-4). The ring holds at least 64 entries and twice the
     * CQ's depth; what does not fit stays in the wrapped CQ, so from one thread nothing is lost or reordered.
     */
    static final class UnlockedHarvest implements Hooks {
        /** One CQ's ring. */
        static final class Ring {
            final NdkResultEx[] slots;
            volatile int head;
            volatile int tail;

            Ring(int depth) {
                int want = Math.max(64, 2 * Math.min(1 << 20, Math.max(1, depth)));
                int size = Integer.highestOneBit(want - 1) << 1;
                slots = new NdkResultEx[size];
            }
        }

        private static Ring ring(ForwardingCq cq) {
            return cq.state(() -> new Ring(cq.queueDepth()));
        }

        private static void harvest(Ring r, ToIntFunction<NdkResultEx[]> from) {
            NdkResultEx[] one = new NdkResultEx[1];
            while (r.tail - r.head < r.slots.length - 1) {
                one[0] = null;
                if (from.applyAsInt(one) <= 0 || one[0] == null) {
                    return;
                }
                int t = r.tail;
                window();
                r.slots[t & (r.slots.length - 1)] = one[0];
                r.tail = t + 1;
            }
        }

        @Override
        public NtStatus post(ForwardingQp qp, WorkRequest request, Function<WorkRequest, NtStatus> inner) {
            NtStatus st = inner.apply(request);
            ForwardingCq initiator = qp.initiatorCq();
            if (initiator != null) {
                harvest(ring(initiator), initiator.inner()::getCqResultsEx);
            }
            ForwardingCq receive = qp.receiveCq();
            if (receive != null && receive != initiator) {
                harvest(ring(receive), receive.inner()::getCqResultsEx);
            }
            return st;
        }

        @Override
        public int results(ForwardingCq cq, NdkResultEx[] results, ToIntFunction<NdkResultEx[]> inner) {
            Ring r = ring(cq);
            harvest(r, inner);
            int h = r.head;
            int n = Math.min(results.length, r.tail - h);
            for (int i = 0; i < n; i++) {
                int at = (h + i) & (r.slots.length - 1);
                results[i] = r.slots[at];
                r.slots[at] = null;
            }
            r.head = h + n;
            return n;
        }
    }
}
