package org.ndktck.tck.harness;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A property's own tools in one {@link NdkSession}, for the properties of deregistration, tokens, LAMs, SGEs,
 * work requests, CQs, DEFER and close (catalog sections MR-DEREG to CL): the door to what the property owns
 * ({@link OwnedObjects}: PDs, MRs, CQs, QPs, closes, LAMs), to the regions it sets up at fresh VAs
 * ({@link Registrations}), and to the session's work requests on any QP ({@link WorkRequests},
 * {@link Completions}) and MR requests started but not awaited ({@link MrRequests}). Each method hands its
 * call on to the part that models it.
 * Open it after the session and close it before: {@code try (NdkSession s = NdkSession.open();
 * SessionTools t = SessionTools.of(s)) { ... }}.
 *
 * <p>Values: addresses and lengths are unsigned 64-bit values in longs; flags, counts, FBO and tokens
 * ULONG / UINT32 values in ints; messages print them in hex.
 */
public final class SessionTools implements AutoCloseable {
    private final NdkSession s;
    private final OwnedObjects owned;
    private final Registrations regions;
    private WorkRequests requests;
    private final Completions completions;
    private final MrRequests mrs;

    private SessionTools(NdkSession s) {
        this.s = s;
        this.owned = new OwnedObjects(s);
        this.regions = new Registrations(s);
        this.requests = s.requests();
        this.completions = s.completions();
        this.mrs = s.mrs();
    }

    /**
     * @param s an open session
     * @return tools over it; close them before the session
     */
    public static SessionTools of(NdkSession s) {
        return new SessionTools(s);
    }

    /** @return the session */
    public NdkSession session() {
        return s;
    }

    /** @return the objects the property owns */
    public OwnedObjects owned() {
        return owned;
    }

    /** @return the regions the property sets up */
    public Registrations regions() {
        return regions;
    }

    /** As {@link Registrations#freshVa()}. */
    public long freshVa() {
        return regions.freshVa();
    }

    /**
     * @param b bytes
     * @return each byte complemented: data that differs from {@code b} in every byte
     */
    public static byte[] complement(byte[] b) {
        return Probes.complement(b);
    }

    // ------------------------------------------------------------------ QPs

    /** @return the target's connected QP (created on first use) */
    public QpRef target() {
        s.objects().qps();
        Side t = s.objects().target();
        return new QpRef(t.qp(), t.cq(), t.receiveCq(), t.qpContext(), "target", true);
    }

    /** @return the peer's connected QP */
    public QpRef peer() {
        s.objects().qps();
        Side p = s.objects().peer();
        return new QpRef(p.qp(), p.cq(), p.receiveCq(), p.qpContext(), "peer", true);
    }

    /** @return a QP of the target PD that is never connected (its requests would complete on the target's CQs) */
    public QpRef unconnected() {
        NdkQp qp = s.objects().unconnectedQp();
        Side t = s.objects().target();
        return new QpRef(qp, t.cq(), t.receiveCq(), null, "unconnected", true);
    }

    // ------------------------------------------------------------------ work requests

    /**
     * Sets what the posts made through this object do when the provider refuses one inline for lack of
     * resources: {@link Refusals.OnRefusal#KEEP} returns the refused request (its {@code returned()} is
     * STATUS_INSUFFICIENT_RESOURCES) for a property that judges only the requests accepted (see
     * {@link WorkRequests#withRefusals}).
     *
     * @param what DISCARD (the default), RETRY or KEEP
     */
    public void onRefusedPost(Refusals.OnRefusal what) {
        requests = s.requests().withRefusals(what);
    }

    /** As {@link WorkRequests#post(QpRef, NdkOperationType, String, Supplier, int, Function)}. */
    public WorkRequest post(QpRef q, NdkOperationType type, String kind, Supplier<String> detail, int flags,
                            Function<Object, NtStatus> call) {
        return requests.post(q, type, kind, detail, flags, call);
    }

    /** As {@link WorkRequests#send}. */
    public WorkRequest send(QpRef q, NdkSge[] sgl, int flags) {
        return requests.send(q, sgl, flags);
    }

    /** As {@link WorkRequests#sendAndInvalidate}. */
    public WorkRequest sendAndInvalidate(QpRef q, NdkSge[] sgl, int remoteToken, int flags) {
        return requests.sendAndInvalidate(q, sgl, remoteToken, flags);
    }

    /** As {@link WorkRequests#receive}. */
    public WorkRequest receive(QpRef q, NdkSge[] sgl, NdkOperationType type) {
        return requests.receive(q, sgl, type);
    }

    /** As {@link WorkRequests#read}. */
    public WorkRequest read(QpRef q, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return requests.read(q, sgl, remoteAddress, remoteToken, flags);
    }

    /** As {@link WorkRequests#write}. */
    public WorkRequest write(QpRef q, NdkSge[] sgl, long remoteAddress, int remoteToken, int flags) {
        return requests.write(q, sgl, remoteAddress, remoteToken, flags);
    }

    /** As {@link WorkRequests#fastRegister(QpRef, NdkMr, int, long[], int, long, long, int)}. */
    public WorkRequest fastRegister(QpRef q, NdkMr mr, int pageCount, long[] pages, int fbo, long length, long base, int flags) {
        return requests.fastRegister(q, mr, pageCount, pages, fbo, length, base, flags);
    }

    /** As {@link WorkRequests#invalidate(QpRef, NdkMr, int)}. */
    public WorkRequest invalidate(QpRef q, NdkMr mr, int flags) {
        return requests.invalidate(q, mr, flags);
    }

    /** As {@link Completions#complete}. */
    public WrOutcome complete(WorkRequest wr) {
        return completions.complete(wr);
    }

    /**
     * Awaits the CQ entry of a request even when SILENT_SUCCESS was set (a silent request that fails still
     * produces its entry, RW-5).
     *
     * @param wr a request whose post returned STATUS_SUCCESS
     * @return the entry's status
     */
    public NtStatus awaitEntry(WorkRequest wr) {
        completions.awaitEntry(wr);
        return wr.entry.status();
    }

    /** As {@link Completions#awaitEntry(WorkRequest, String, String)}. */
    public NtStatus awaitEntry(WorkRequest wr, String rule, String expected) {
        return completions.awaitEntry(wr, rule, expected);
    }

    /** As {@link Completions#getCqResults}. */
    public int getCqResults(NdkCq cq, NdkResult[] results) {
        return completions.getCqResults(cq, results);
    }

    /** As {@link Completions#getCqResultsEx}. */
    public int getCqResultsEx(NdkCq cq, NdkResultEx[] results) {
        return completions.getCqResultsEx(cq, results);
    }

    /** As {@link Completions#accept(NdkCq, NdkResultEx)}. */
    public void accept(NdkCq cq, NdkResultEx e) {
        completions.accept(cq, e);
    }

    /** As {@link Completions#accept(NdkCq, NdkResult)}. */
    public void accept(NdkCq cq, NdkResult e) {
        completions.accept(cq, e);
    }

    // ------------------------------------------------------------------ regions

    /** As {@link Registrations#registered}. */
    public Registered registered(Side side, int pages, int offset, long length, int flags) {
        return regions.registered(side, pages, offset, length, flags);
    }

    /** As {@link Registrations#registerOver}. */
    public Registered registerOver(Side side, HostBuffer b, Mdl mdl, long length, int flags) {
        return regions.registerOver(side, b, mdl, length, flags);
    }

    /** As {@link Registrations#readSinkFlag()}. */
    public int readSinkFlag() {
        return regions.readSinkFlag();
    }

    /** As {@link Registrations#readSinkOpFlag()}. */
    public int readSinkOpFlag() {
        return regions.readSinkOpFlag();
    }

    /** As {@link Registrations#fastRegistered}. */
    public FastRegion fastRegistered(int pages, int fbo, int flags, boolean remoteAccess) {
        return regions.fastRegistered(pages, fbo, flags, remoteAccess);
    }

    /** As {@link Registrations#fastRegisterAgain}. */
    public FastRegion fastRegisterAgain(HostBuffer b, Mdl mdl, Lam lam, NdkMr mr, int pages, int fbo, long length,
                                        long base, int flags) {
        return regions.fastRegisterAgain(b, mdl, lam, mr, pages, fbo, length, base, flags);
    }

    // ------------------------------------------------------------------ asynchronous calls, not awaited

    /** As {@link MrRequests#startRegister}, with nothing run inside the callback. */
    public AsyncOp<NdkMr> startRegister(NdkMr mr, Mdl mdl, long length, int flags) {
        return mrs.startRegister(mr, mdl, length, flags, null);
    }

    /** As {@link MrRequests#startRegister}. */
    public AsyncOp<NdkMr> startRegister(NdkMr mr, Mdl mdl, long length, int flags, Consumer<AsyncOp<NdkMr>> inside) {
        return mrs.startRegister(mr, mdl, length, flags, inside);
    }

    /** As {@link MrRequests#startDeregister}. */
    public AsyncOp<NdkMr> startDeregister(NdkMr mr) {
        return mrs.startDeregister(mr);
    }

    /** As {@link MrRequests#startInitialize}, with nothing run inside the callback. */
    public AsyncOp<NdkMr> startInitialize(NdkMr mr, int adapterPageCount, boolean remoteAccess) {
        return mrs.startInitialize(mr, adapterPageCount, remoteAccess, null);
    }

    /** As {@link MrRequests#startInitialize}. */
    public AsyncOp<NdkMr> startInitialize(NdkMr mr, int adapterPageCount, boolean remoteAccess, Consumer<AsyncOp<NdkMr>> inside) {
        return mrs.startInitialize(mr, adapterPageCount, remoteAccess, inside);
    }

    /** As {@link MrRequests#finish}. */
    public Outcome finish(AsyncOp<?> op, String tableRule, String allowed) {
        return mrs.finish(op, tableRule, allowed);
    }

    // ------------------------------------------------------------------ owned objects

    /** As {@link OwnedObjects#startClose}, with no hand-off before the call. */
    public AsyncOp<NdkMr> startClose(NdkObject object, Consumer<AsyncOp<NdkMr>> inside) {
        return owned.startClose(object, inside, null);
    }

    /** As {@link OwnedObjects#startClose}. */
    public AsyncOp<NdkMr> startClose(NdkObject object, Consumer<AsyncOp<NdkMr>> inside, Consumer<AsyncOp<NdkMr>> before) {
        return owned.startClose(object, inside, before);
    }

    /** As {@link OwnedObjects#finishClose}. */
    public void finishClose(AsyncOp<?> op) {
        owned.finishClose(op);
    }

    /** As {@link OwnedObjects#closeAndWait}. */
    public AsyncOp<NdkMr> closeAndWait(NdkObject object) {
        return owned.closeAndWait(object);
    }

    /** As {@link OwnedObjects#createPd()}. */
    public NdkPd createPd() {
        return owned.createPd();
    }

    /** As {@link OwnedObjects#createMr}. */
    public NdkMr createMr(NdkPd pd, boolean fastRegister) {
        return owned.createMr(pd, fastRegister);
    }

    /** As {@link OwnedObjects#createMrUnlessRefused}. */
    public NdkMr createMrUnlessRefused(NdkPd pd, boolean fastRegister) {
        return owned.createMrUnlessRefused(pd, fastRegister);
    }

    /** As {@link OwnedObjects#createCq}. */
    public NdkCq createCq(int depth) {
        return owned.createCq(depth);
    }

    /** As {@link OwnedObjects#createQp}, with up to 2 SGEs a request. */
    public QpRef createQp(NdkPd pd, NdkCq cq, Object qpContext, String name, int inlineDataSize) {
        return owned.createQp(pd, cq, qpContext, name, inlineDataSize, 2);
    }

    /** As {@link OwnedObjects#createQp}. */
    public QpRef createQp(NdkPd pd, NdkCq cq, Object qpContext, String name, int inlineDataSize, int wantSge) {
        return owned.createQp(pd, cq, qpContext, name, inlineDataSize, wantSge);
    }

    /** As {@link OwnedObjects#createQp(NdkPd, NdkCq, Object, String, int, int, int, int, int)}: the sizes as given. */
    public QpRef createQp(NdkPd pd, NdkCq cq, Object qpContext, String name, int inlineDataSize, int receiveSge, int initiatorSge,
                          int receiveQueueDepth, int initiatorQueueDepth) {
        return owned.createQp(pd, cq, qpContext, name, inlineDataSize, receiveSge, initiatorSge, receiveQueueDepth, initiatorQueueDepth);
    }

    /** As {@link OwnedObjects#connectedPair}, with up to 2 SGEs a request. */
    public QpRef[] connectedPair(int inlineDataSize) {
        return owned.connectedPair(inlineDataSize, 2);
    }

    /** As {@link OwnedObjects#connectedPair}. */
    public QpRef[] connectedPair(int inlineDataSize, int wantSge) {
        return owned.connectedPair(inlineDataSize, wantSge);
    }

    /** As {@link OwnedObjects#privilegedToken}. */
    public int privilegedToken(NdkPd pd) {
        return owned.privilegedToken(pd);
    }

    /** As {@link OwnedObjects#buildLam}. */
    public Outcome buildLam(Mdl mdl, long length, NdkLogicalAddressMapping lam) {
        return owned.buildLam(mdl, length, lam);
    }

    /** As {@link OwnedObjects#releaseLam}. */
    public void releaseLam(NdkLogicalAddressMapping lam) {
        owned.releaseLam(lam);
    }

    /** As {@link OwnedObjects#forget}. */
    public void forget(NdkObject o) {
        owned.forget(o);
    }

    /** As {@link OwnedObjects#close()}: closes what the property left open; call before the session closes. */
    @Override
    public void close() {
        owned.close();
    }
}
