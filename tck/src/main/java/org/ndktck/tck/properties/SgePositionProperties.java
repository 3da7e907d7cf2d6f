package org.ndktck.tck.properties;

import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.ChecksReached;
import org.ndktck.tck.harness.CoverageClasses;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * COV-4: every SGE of a request counts, at every position up to the QP's limits. On a pair of QPs created with
 * up to {@link #WANT_SGE} SGEs a request (initiator and receive side), the target posts an NdkWrite, NdkRead,
 * NdkSend or NdkReceive whose SGL has m SGEs in a (usually scattered) registered buffer, some crossing page
 * boundaries. With every SGE good, the request must succeed and move the bytes of every SGE, in order. With SGE
 * k bad (past the end of its region, a made-up token, a token of the peer's PD, a sink in a region without
 * local write), the request must fail and no byte the bad SGE names may change. With SGE k of Length 0 (inside its
 * region) the request either fails, or succeeds and moves the bytes of every other SGE, in order. CQ-6: a successful
 * NdkSend or NdkReceive of several SGEs completes the receive with BytesTransferred equal to every byte of the message.
 */
@NdkKit
public class SgePositionProperties {
    /** The most SGEs a request the property asks the QPs for. */
    static final int WANT_SGE = 16;

    /** What is wrong with SGE k. */
    enum Bad {
        /** Nothing: every SGE is good. */
        NONE,
        /** SGE k straddles the end of its region. */
        PAST_END,
        /** SGE k carries a token no registration holds (its address is inside the buffer of SGE 0). */
        MADE_UP_TOKEN,
        /** SGE k lies in a region of the peer's PD, with that region's local token. */
        ANOTHER_PD,
        /** SGE k is a sink in a region registered without local write (for a source: a made-up token). */
        NO_LOCAL_WRITE,
        /**
         * Not bad: SGE k has Length 0 (its address inside its region). No page says whether a provider takes such an
         * SGE, so the request may fail (then no byte outside a sink may change); if it succeeds, every other SGE moves
         * its bytes in order and SGE k moves none.
         */
        ZERO_LENGTH
    }

    /** The request. */
    enum Use {
        /** NdkWrite from the SGL. */
        WRITE,
        /** NdkRead into the SGL. */
        READ,
        /** NdkSend from the SGL. */
        SEND,
        /** NdkReceive into the SGL. */
        RECEIVE
    }

    /**
     * COV-4: a bad SGE at any position fails the request; all-good SGEs each move their bytes.
     *
     * @param use      the request
     * @param bad      what is wrong with SGE k
     * @param sgeCount SGEs wanted (capped by the QPs' limits)
     * @param kSeed    picks k in [0, m)
     * @param len      bytes of SGE 0 (1 to 48)
     * @param lenStep  SGE i holds 1 + (len - 1 + i x lenStep) mod 48 bytes: 0 gives every SGE the same Length, any other
     *                 value SGEs of differing Lengths (so an SGE moved to another position lands at other bytes)
     */
    @CoverageClasses(6)
    @Property(tries = 120, edgeCases = EdgeCasesMode.MIXIN)
    @Tag("COV-4")
    @Tag("CQ-6")
    void everySgePositionIsCheckedAndMoved(@ForAll Use use, @ForAll Bad bad, @ForAll @IntRange(min = 2, max = WANT_SGE) int sgeCount,
            @ForAll @IntRange(min = 0, max = 1 << 20) int kSeed, @ForAll @IntRange(min = 1, max = 48) int len,
            @ForAll @IntRange(min = 0, max = 47) int lenStep) {
        SectionChecks.cover("bad", bad.name(), java.util.Arrays.stream(Bad.values()).map(Enum::name).toList());
        // CQ-6 is judged only where a send or receive of several SGEs completes (receivedAll)
        ChecksReached.notReached("CQ-6", "the try's request was an NdkWrite or NdkRead, or failed: no receive of a message of several SGEs completed");
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                long limit = Math.min(Integer.toUnsignedLong(s.info().maxInitiatorRequestSge()),
                        Integer.toUnsignedLong(s.info().maxReceiveRequestSge()));
                if (use == Use.READ) {
                    limit = Math.min(limit, Integer.toUnsignedLong(s.info().maxReadRequestSge()));
                }
                int m = (int) Math.min(sgeCount, limit);
                if (m < 2) {
                    // a position among SGEs needs two of them: an adapter whose SGE limit is 1 cannot have the check
                    org.ndktck.tck.harness.Refusals.beyondLimit("a request of " + sgeCount + " SGEs lies past the adapter's SGE"
                            + " limit of " + limit + " (MaxInitiatorRequestSge, MaxReceiveRequestSge" + (use == Use.READ
                            ? ", MaxReadRequestSge" : "") + "); an adapter with limits of at least 2 reaches the check (the"
                            + " reference provider: --set maxSge=2)");
                }
                if (bad == Bad.NONE) {
                    // every SGE count up to the limit: a slip keyed to one count or one position of an SGE shows up
                    for (int each = 2; each <= Math.min(WANT_SGE, limit); each++) {
                        request(s, t, use, bad, each, 0, kSeed, len, lenStep);
                    }
                } else {
                    request(s, t, use, bad, m, kSeed % m, kSeed, len, lenStep);
                }
            }
        });
    }

    /**
     * One request of the property: {@code use} with an SGL of {@code m} SGEs (SGE i of {@code 1 + (len - 1 + i x lenStep)
     * mod 48} bytes), SGE {@code k} made {@code bad}; checks the status, the bytes every SGE moved and every byte outside.
     */
    private static void request(NdkSession s, SessionTools t, Use use, Bad bad, int m, int k, int kSeed, int len, int lenStep) {
        int p = s.pageSize();
        QpRef[] pair = t.connectedPair(0, m);
        boolean sink = use == Use.READ || use == Use.RECEIVE;
        int flags = NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag();
        int pages = 2 + (m * 64) / p;
        int[] lens = new int[m];
        int longest = 0;
        for (int i = 0; i < m; i++) {
            lens[i] = 1 + (len - 1 + i * lenStep) % 48;
            longest = Math.max(longest, lens[i]);
        }
        // SGE i starts at byte i * stride - lens[i] / 2 of the region (SGE 0 at byte 0): most cross a page boundary
        int stride = Math.max(longest + 1, p / 2);
        pages = Math.max(pages, (int) (((long) m * stride + p - 1) / p) + 1);
        Registered r = t.registered(s.target(), pages, 0, (long) pages * p, flags);
        NdkSge[] sgl = new NdkSge[m];
        long[] at = new long[m];
        for (int i = 0; i < m; i++) {
            at[i] = i == 0 ? 0 : (long) i * stride - lens[i] / 2;
            sgl[i] = r.sge(at[i], lens[i]);
        }
        Registered elsewhere = null;
        boolean zero = bad == Bad.ZERO_LENGTH;
        if (zero) {
            sgl[k] = r.sge(at[k], 0);
        } else if (bad != Bad.NONE) {
            Bad how = bad == Bad.NO_LOCAL_WRITE && !sink ? Bad.MADE_UP_TOKEN : bad;
            sgl[k] = switch (how) {
                case PAST_END -> r.sge(r.length() - lens[k] / 2 - 1, lens[k] + 1);
                case MADE_UP_TOKEN -> new NdkSge(r.va() + at[k], lens[k], madeUp(r.localToken(), kSeed));
                case ANOTHER_PD -> (elsewhere = t.registered(s.peer(), 1, 0, p, flags)).sge(p / 4, lens[k]);
                default -> (elsewhere = t.registered(s.target(), 1, 0, p, t.readSinkFlag())).sge(p / 4, lens[k]);
            };
        }
        int sum = Arrays.stream(lens).sum();
        int total = bad == Bad.NONE ? sum : 0;
        for (NdkSge g : sgl) {
            total = bad == Bad.NONE ? total : total + (int) g.unsignedLength();
        }
        // the bytes a good request moves: every SGE's, or all but SGE k's when it has Length 0
        int moved = zero ? sum - lens[k] : sum;
        Registered q = t.registered(s.peer(), 1 + (total + p) / p, 0, (long) (1 + (total + p) / p) * p,
                NdkMrFlags.ALLOW_REMOTE_READ | NdkMrFlags.ALLOW_REMOTE_WRITE | NdkMrFlags.ALLOW_LOCAL_WRITE);
        String what = use + " with " + m + " SGEs, SGE " + k + " " + bad + ": " + Arrays.toString(sgl);
        byte[] before = bytesOf(r, sgl, m, bad, k);
        WrOutcome o;
        WrOutcome other = null;
        switch (use) {
            case WRITE -> o = t.complete(t.write(pair[0], sgl, q.va(), q.remoteToken(), 0));
            case READ -> o = t.complete(t.read(pair[0], sgl, q.va(), q.remoteToken(), 0));
            case SEND -> {
                WorkRequest recv = t.receive(pair[1], new NdkSge[]{q.sge(0, Math.max(1, total))}, NdkOperationType.RECEIVE);
                o = t.complete(t.send(pair[0], sgl, 0));
                if (o.succeeded() || recv.entry() != null) {
                    other = t.complete(recv);
                }
            }
            default -> {
                WorkRequest recv = t.receive(pair[0], sgl, NdkOperationType.RECEIVE);
                if (!NtStatus.STATUS_SUCCESS.equals(recv.returned())) {
                    // refused when posted (the straddling SGE checked at once): no send follows, since a send
                    // that finds no receive waits for one (TR-1) or ends the connection (iWARP)
                    o = t.complete(recv);
                } else {
                    other = t.complete(t.send(pair[1], new NdkSge[]{q.sge(0, moved)}, 0));
                    o = other.succeeded() || recv.entry() != null
                            ? t.complete(recv) : new WrOutcome(recv::detail, recv.returned(), NtStatus.STATUS_PENDING, null);
                }
            }
        }
        Refusals.discardIfRefused(o.status());
        q.buffer().acceptActual(0, (int) Math.min(q.buffer().size(), Integer.MAX_VALUE));
        if (zero && (!o.succeeded() || (other != null && !other.succeeded()))) {
            // a Length-0 SGE may be refused: then nothing but the sinks may have changed
            for (int i = 0; i < m && sink; i++) {
                r.buffer().acceptActual(at[i], lens[i]);
            }
            s.checkMemory("COV-4", o.call() + " (" + what + ", refused)");
            return;
        }
        if (bad != Bad.NONE && !zero) {
            if (o.succeeded()) {
                throw Violations.of("COV-4", o.call() + " (" + what + ")", "a failure: SGE " + k + " is " + bad, o.describe());
            }
            // the good SGEs of a failed sink request may hold anything; the bad one's bytes must not change
            for (int i = 0; i < m; i++) {
                if (i != k && sink) {
                    r.buffer().acceptActual(at[i], lens[i]);
                }
            }
            if (bad == Bad.PAST_END && sink) {
                long from = r.length() - lens[k] / 2 - 1;
                r.buffer().acceptActual(from, (int) (r.length() - from));
            }
            s.checkMemory("COV-4", o.call() + " (" + what + ")");
            return;
        }
        if (!o.succeeded() || (other != null && !other.succeeded())) {
            throw Violations.of("COV-4", o.call() + " (" + what + ")", "STATUS_SUCCESS: every SGE is good",
                    o.describe() + (other == null ? "" : "; " + other.describe()));
        }
        receivedAll(use == Use.RECEIVE ? o : use == Use.SEND ? other : null, moved, what);
        if (sink) {
            byte[] source = q.buffer().read(0, moved);
            int from = 0;
            for (int i = 0; i < m; i++) {
                if (zero && i == k) {
                    continue; // moves nothing: the memory check finds any byte it changed
                }
                byte[] got = r.buffer().read(at[i], lens[i]);
                byte[] want = Arrays.copyOfRange(source, from, from + lens[i]);
                if (!Arrays.equals(got, want)) {
                    throw Violations.of("COV-4", o.call() + " (" + what + ")", "SGE " + i + " holds bytes "
                            + from + " on of the message: " + Hex.bytes(want), "it holds " + Hex.bytes(got));
                }
                r.buffer().expectWrite(at[i], got);
                from += lens[i];
            }
        } else {
            byte[] got = q.buffer().read(0, moved);
            if (!Arrays.equals(got, before)) {
                throw Violations.of("COV-4", o.call() + " (" + what + ")", "the peer holds the bytes of every SGE in order: "
                        + Hex.bytes(before), "it holds " + Hex.bytes(got));
            }
        }
        s.checkMemory("COV-4", o.call() + " (" + what + ")");
    }

    /**
     * CQ-6 for a message that spans several SGEs (of the send, or of the receive): the receive's entry counts every byte
     * of the message, not only those of its first SGE (NDK_RESULT: BytesTransferred is defined for receive completions).
     *
     * @param receive the successful receive's outcome (null when the request was no send or receive)
     * @param moved   bytes of the message (the sum of the source SGEs' Lengths; ULONG, so below 2^31 here)
     * @param what    the request, for the message
     */
    private static void receivedAll(WrOutcome receive, int moved, String what) {
        if (receive == null || receive.entry() == null) {
            return;
        }
        ChecksReached.reached("CQ-6");
        long got = Integer.toUnsignedLong(receive.entry().bytesTransferred());
        if (got != moved) {
            throw Violations.of("CQ-6", receive.call() + " (" + what + ")", "BytesTransferred = " + moved + " (every byte of the message)",
                    "BytesTransferred = " + got);
        }
    }

    /** @return the bytes of the good SGEs of {@code r}, concatenated in SGL order (the data a source request moves) */
    private static byte[] bytesOf(Registered r, NdkSge[] sgl, int m, Bad bad, int k) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < m; i++) {
            if (bad != Bad.NONE && i == k) {
                continue; // a bad SGE moves nothing, nor does one of Length 0
            }
            out.writeBytes(r.buffer().read(sgl[i].address() - r.va(), sgl[i].length()));
        }
        return out.toByteArray();
    }

    private static int madeUp(int a, int seed) {
        int v = 0x5C0F_0000 ^ seed * 0x9E3779B1;
        while (v == a || v == 0) {
            v = v * 31 + 7;
        }
        return v;
    }
}
