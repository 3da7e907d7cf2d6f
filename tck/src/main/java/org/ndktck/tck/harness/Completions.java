package org.ndktck.tck.harness;

import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Completions of work requests: the try's CQs are drained with NdkGetCqResultsEx (or NdkGetCqResults) and each
 * entry is matched to its request by RequestContext and checked: a count out of range is CQ-1, a foreign
 * context, a wrong QPContext or a second entry is CQ-2, an entry for a request that failed inline is DEF-2, a
 * wrong NDK_RESULT_EX.Type is MR-FR-8, SND-2 or CQ-3, an entry on the QP's other CQ is MR-FR-8, INV-3 or CQ-2,
 * and no entry within the completion bound after a successful post is MR-FR-8, INV-3 or RW-5.
 */
public final class Completions {
    private final Invoker inv;
    private final Bounds bounds;
    private final AdapterObjects objects;
    private final Map<Object, WorkRequest> posted = Collections.synchronizedMap(new IdentityHashMap<>());

    Completions(Invoker inv, Bounds bounds, AdapterObjects objects) {
        this.inv = inv;
        this.bounds = bounds;
        this.objects = objects;
    }

    /** Records a request about to be posted, so its entry is matched. */
    void expect(WorkRequest wr) {
        posted.put(wr.context, wr);
    }

    /**
     * Completes a posted request: its CQ entry is awaited when the post returned STATUS_SUCCESS (and
     * SILENT_SUCCESS was not set).
     *
     * @param wr a posted request
     * @return the outcome
     */
    public WrOutcome complete(WorkRequest wr) {
        NtStatus r = wr.returned;
        if (!NtStatus.STATUS_SUCCESS.equals(r)) {
            return new WrOutcome(wr::detail, r, r, null);
        }
        if (wr.silent) {
            return new WrOutcome(wr::detail, r, r, null);
        }
        awaitEntry(wr);
        // a request that failed later for lack of resources (an error CQ entry, which the pages allow) judges nothing
        Refusals.discardIfRefused(wr.entry.status());
        return new WrOutcome(wr::detail, r, wr.entry.status(), wr.entry);
    }

    /**
     * Polls the request's CQ until its entry arrives, within the completion bound.
     *
     * @param wr a request whose post returned STATUS_SUCCESS
     * @throws RuleViolation MR-FR-8 (fast register), INV-3 or RW-5 when no entry comes in time
     */
    public void awaitEntry(WorkRequest wr) {
        awaitEntry(wr, WorkRequest.wrRule(wr.type), "after STATUS_SUCCESS a CQ entry with RequestContext " + wr.context);
    }

    /**
     * Polls a request's CQ until its entry arrives (even for a silent request), charging a missing entry
     * to {@code rule}.
     *
     * @param wr       a request whose post returned STATUS_SUCCESS
     * @param rule     the rule a missing entry breaks
     * @param expected what the rule requires, for the message
     * @return the entry's status
     */
    public NtStatus awaitEntry(WorkRequest wr, String rule, String expected) {
        long start = System.nanoTime();
        int round = 0;
        while (wr.entry == null) {
            drainFor(wr);
            if (wr.entry != null) {
                Bounds.completionArrived(start);
                break;
            }
            if (bounds.completionExpired(start)) {
                throw Violations.of(rule, wr.detail(), expected + " within " + bounds.describeCompletionBound(),
                        "no CQ entry with RequestContext " + wr.context);
            }
            round++;
            if (round < 64) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(Math.min(1_000_000L, 10_000L * (round - 63)));
            }
        }
        return wr.entry.status();
    }

    /**
     * Drains the CQ a request's entry belongs on and then the QP's other CQ, so an entry on the wrong CQ is
     * reported at once (MR-FR-8, INV-3, CQ-2) instead of as a missing entry.
     *
     * @param wr a posted request
     */
    public void drainFor(WorkRequest wr) {
        drain(wr.cq);
        if (wr.entry == null && wr.otherCq != wr.cq) {
            drain(wr.otherCq);
        }
    }

    /**
     * Drains both CQs of a side (initiator, then receive), checking each entry as {@link #drain(NdkCq)} does.
     *
     * @param side the target or the peer
     */
    public void drain(Side side) {
        drain(side.cq);
        if (side.receiveCq != side.cq) {
            drain(side.receiveCq);
        }
    }

    /**
     * Drains a CQ with NdkGetCqResultsEx and checks each entry (CQ-1, CQ-2, CQ-3, DEF-2, MR-FR-8).
     *
     * @param cq a CQ of the try, or null (nothing to drain)
     */
    public void drain(NdkCq cq) {
        if (cq == null) {
            return;
        }
        NdkResultEx[] buf = new NdkResultEx[8];
        int n;
        do {
            Arrays.fill(buf, null);
            n = inv.call("NdkGetCqResultsEx", () -> "NdkGetCqResultsEx(nResults=8)", () -> cq.getCqResultsEx(buf));
            if (n < 0 || n > buf.length) {
                throw Violations.of("CQ-1", "NdkGetCqResultsEx(nResults=8)", "a count between 0 and 8", "returned " + n);
            }
            for (int i = 0; i < n; i++) {
                accept(cq, buf[i]);
            }
        } while (n > 0); // only 0 means the CQ is empty (NdkGetCqResults page): fewer than asked for does not
    }

    /**
     * Drains a CQ with NdkGetCqResults (the form without the operation type), checking each entry as
     * {@link #drain} does except the type.
     *
     * @param cq a CQ
     * @return the entries removed
     */
    public List<NdkResult> drainPlain(NdkCq cq) {
        NdkResult[] buf = new NdkResult[8];
        List<NdkResult> out = new ArrayList<>();
        int n;
        do {
            Arrays.fill(buf, null);
            n = inv.call("NdkGetCqResults", () -> "NdkGetCqResults(nResults=8)", () -> cq.getCqResults(buf));
            if (n < 0 || n > buf.length) {
                throw Violations.of("CQ-1", "NdkGetCqResults(nResults=8)", "a count between 0 and 8", "returned " + n);
            }
            for (int i = 0; i < n; i++) {
                NdkResult e = buf[i];
                if (e == null) {
                    throw Violations.of("CQ-1", "NdkGetCqResults(nResults=8)", n + " entries filled", "entry " + i + " is null");
                }
                out.add(e);
                accept(cq, e);
            }
        } while (n > 0); // only 0 means the CQ is empty (NdkGetCqResults page): fewer than asked for does not
        return out;
    }

    /**
     * NdkGetCqResults, raw (no checks): the property judges the count and hands the entries to
     * {@link #accept(NdkCq, NdkResult)}.
     *
     * @param cq      the CQ
     * @param results the array to fill
     * @return what the provider returned
     */
    public int getCqResults(NdkCq cq, NdkResult[] results) {
        return inv.call("NdkGetCqResults", () -> "NdkGetCqResults(nResults=" + results.length + ")", () -> cq.getCqResults(results));
    }

    /** NdkGetCqResultsEx, raw (see {@link #getCqResults}). */
    public int getCqResultsEx(NdkCq cq, NdkResultEx[] results) {
        return inv.call("NdkGetCqResultsEx", () -> "NdkGetCqResultsEx(nResults=" + results.length + ")", () -> cq.getCqResultsEx(results));
    }

    /**
     * A receive that completes in error may report NdkOperationTypeReceive or NdkOperationTypeReceiveAndInvalidate
     * whichever the kit expected: a receive whose SendAndInvalidate was refused (INV-6) never became a
     * ReceiveAndInvalidate, and the pages do not say which type such an error carries.
     */
    private static boolean failedReceiveOfEitherType(WorkRequest wr, NdkResultEx e) {
        return WorkRequest.isReceive(wr.type) && WorkRequest.isReceive(e.type()) && e.status() != null
                && !NtStatus.STATUS_SUCCESS.equals(e.status());
    }

    /** As {@link #accept(NdkCq, NdkResultEx)} for an entry without the operation type. */
    public void accept(NdkCq cq, NdkResult e) {
        accept(cq, e == null ? null : new NdkResultEx(e.status(), e.bytesTransferred(), e.qpContext(), e.requestContext(), null, 0));
    }

    /**
     * Matches an entry to its request and checks it (CQ-1, CQ-2, DEF-2, the CQ and the operation type).
     *
     * @param cq the CQ it came from
     * @param e  the entry
     */
    public void accept(NdkCq cq, NdkResultEx e) {
        if (e == null) {
            throw Violations.of("CQ-1", "NdkGetCqResultsEx", "every counted entry filled", "a null entry");
        }
        WorkRequest wr = posted.get(e.requestContext());
        Supplier<String> where = () -> "CQ entry {Status=" + e.status() + ", RequestContext=" + RequestContext.describe(e.requestContext())
                + ", QPContext=" + RequestContext.describe(e.qpContext()) + ", Type=" + e.type() + "}";
        if (wr == null) {
            throw Violations.of("CQ-2", where.get(), "RequestContext is a value the kit passed when it posted a request",
                    "a RequestContext the kit never posted");
        }
        if (wr.cq != cq) {
            throw Violations.of(WorkRequest.cqRule(wr.type), wr.detail(), "its CQ entry on the " + (WorkRequest.isReceive(wr.type) ? "receive" : "initiator")
                    + " CQ of the QP it was posted on", where.get() + " arrived on " + objects.describeCq(cq));
        }
        if (e.qpContext() != wr.qpContext) {
            throw Violations.of("CQ-2", wr.detail(), "QPContext = " + wr.qpContext, where.get());
        }
        NtStatus r = wr.returned;
        if (r != null && !NtStatus.STATUS_SUCCESS.equals(r)) {
            throw Violations.of("DEF-2", wr.detail(), "no CQ entry after the post returned " + r, where.get());
        }
        if (wr.entry != null) {
            throw Violations.of("CQ-2", wr.detail(), "one CQ entry per request", "a second " + where.get());
        }
        if (e.type() != null && e.type() != wr.type && !failedReceiveOfEitherType(wr, e)
                && !(wr.eitherReceiveType && WorkRequest.isReceive(wr.type) && WorkRequest.isReceive(e.type()))) {
            String rule = switch (wr.type) {
                case FAST_REGISTER -> "MR-FR-8";
                case SEND -> "SND-2";
                default -> "CQ-3";
            };
            throw Violations.of(rule, wr.detail(), "NDK_RESULT_EX.Type = " + wr.type + " (" + wr.type.value() + ")", where.get());
        }
        if (e.status() == null) {
            throw Violations.of("CQ-2", wr.detail(), "an entry with a status", where.get());
        }
        wr.entry = e;
    }
}
