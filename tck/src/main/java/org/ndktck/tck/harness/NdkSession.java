package org.ndktck.tck.harness;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One try: a fresh adapter over a fresh {@link HostMemory}, opened from {@code ProviderUnderTest.get().factory()},
 * with every provider call made through the guarded {@link Invoker}; the session opens it, hands each part of
 * the try's world to the property, and at the end tears everything down and runs the end-of-try checks. Use
 * it with try-with-resources, or {@link #inTry}.
 *
 * <h2>The parts</h2>
 * Each part models one thing and is reached from here; the parts call each other, never the session:
 * <ul>
 *   <li>{@link #objects()}, {@link AdapterObjects}: the adapter and its objects with their lifetimes, the two
 *       {@link Side}s (the {@link #target()} owns the MRs under test; the {@link #peer()} accesses them through its
 *       QP, connected by loopback to the target's) and a QP that is never connected;</li>
 *   <li>{@link #mrs()}, {@link MrRequests}: the MRs and the calls on them; {@link #lams()}, {@link Lams}: NdkBuildLam;</li>
 *   <li>{@link #buffers()}, {@link HostBuffers}: host memory and the guarded, painted buffers;</li>
 *   <li>{@link #requests()}, {@link WorkRequests}, and {@link #completions()}, {@link Completions}: work requests
 *       and their CQ entries;</li>
 *   <li>{@link #connectedPeer()}, {@link ConnectedPeer}: the peer's RDMA reads and writes at the target;</li>
 *   <li>{@link #calls()}, {@link AsyncCalls}: asynchronous calls and their completion callbacks.</li>
 * </ul>
 * The methods below that name no part hand a call on to the part that models it, one line each, so a property
 * written against the session keeps working.
 *
 * <h2>What every call is checked for</h2>
 * GEN-TIME-1 (every call and every PENDING completion within its bound, {@link Bounds}); GEN-EXC-1 (no call
 * throws, no provider thread dies); GEN-CB-1 to GEN-CB-4, CL-1, CL-2 ({@link AsyncCalls}); the status tables
 * MR-REG-9, MR-DEREG-2, MR-FRI-8, MR-CREATE-2, LAM-7 and OBJ-1 ({@link MrRequests}, {@link Lams}); CQ entries
 * ({@link Completions}); memory at close ({@link HostBuffers}, charged to the running property's first rule). A
 * breach found in passing is thrown as a {@link RuleViolation} naming its own rule.
 *
 * <h2>Values</h2>
 * Lengths, addresses and logical addresses are unsigned 64-bit values in longs; flags, counts, FBO and
 * tokens are ULONG / UINT32 values in ints. Messages print them in hex.
 */
public final class NdkSession implements AutoCloseable {
    private final ProviderUnderTest put;
    private final Bounds bounds;
    private final Invoker inv;
    private final int pageSize;
    private final int hangMark;
    private final long deathMark;
    private final HostBuffers buffers;
    private final AsyncCalls calls;
    private final AdapterObjects objects;
    private final MrRequests mrs;
    private final Lams lams;
    private final Completions completions;
    private final WorkRequests requests;
    private final ConnectedPeer connectedPeer;
    private boolean closed;

    private NdkSession(ProviderUnderTest put) {
        this.put = put;
        this.bounds = Bounds.current();
        this.inv = Invoker.forCurrentThread();
        this.hangMark = inv.hangs();
        this.deathMark = ProviderThreads.mark();
        this.pageSize = put.pageSize();
        this.buffers = new HostBuffers(pageSize);
        NdkAdapterInfo info = put.adapterInfo();
        this.calls = new AsyncCalls(inv, bounds);
        this.objects = new AdapterObjects(inv, bounds, calls, info);
        this.mrs = new MrRequests(inv, calls, objects);
        this.lams = new Lams(inv, calls, objects, pageSize);
        this.completions = new Completions(inv, bounds, objects);
        this.requests = new WorkRequests(inv, objects, completions);
        this.connectedPeer = new ConnectedPeer(inv, objects, buffers, mrs, requests, completions, pageSize);
    }

    /**
     * Opens a session: a fresh HostMemory, a fresh adapter over it, and the target's PD.
     *
     * @return the session; close it
     * @throws RuleViolation GEN-TIME-1 / GEN-EXC-1 when opening misbehaves
     * @throws KitSetupError when the adapter or the PD cannot be created
     */
    public static NdkSession open() {
        ProviderThreads.install();
        NdkSession s = new NdkSession(ProviderUnderTest.get());
        try {
            s.inv.batch("session set-up", () -> {
                s.objects.open(s.put, s.buffers.memory());
                return null;
            });
        } catch (RuntimeException | Error e) {
            try {
                s.close();
            } catch (Throwable suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return s;
    }

    /**
     * Runs one try's provider interaction: opens a session, runs {@code body}, closes the session, all on
     * the invoker's caller thread in one hand-off ({@link Invoker#batch}), so the try pays for one
     * thread switch while every provider call in it keeps its own time bound. jqwik state (statistics,
     * reporting) must be used outside {@code body}; {@code Assume} inside it works.
     *
     * @param body what the try does with the session
     */
    public static void inTry(Consumer<NdkSession> body) {
        Invoker.forCurrentThread().batch("one try of the property", () -> {
            NdkSession s = open();
            try {
                body.accept(s);
            } catch (RuntimeException | Error e) {
                s.objects.failing();
                try {
                    s.close();
                } catch (RuntimeException | Error suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            s.close();
            return null;
        });
    }

    // ------------------------------------------------------------------ the parts

    /** @return asynchronous calls and their callbacks (GEN-CB-1 to GEN-CB-4) */
    public AsyncCalls calls() {
        return calls;
    }

    /** @return the adapter and the session's objects (sides, QPs, CQs, PDs) */
    public AdapterObjects objects() {
        return objects;
    }

    /** @return the try's MRs and the calls on them */
    public MrRequests mrs() {
        return mrs;
    }

    /** @return NdkBuildLam and NdkReleaseLam */
    public Lams lams() {
        return lams;
    }

    /** @return host memory and its guarded buffers */
    public HostBuffers buffers() {
        return buffers;
    }

    /** @return posting work requests */
    public WorkRequests requests() {
        return requests;
    }

    /** @return CQ entries and their matching */
    public Completions completions() {
        return completions;
    }

    /** @return the peer's RDMA accesses at the target */
    public ConnectedPeer connectedPeer() {
        return connectedPeer;
    }

    /** @return the session's host memory */
    public HostMemory memory() {
        return buffers.memory();
    }

    /** @return the adapter under test */
    public NdkAdapter adapter() {
        return objects.adapter();
    }

    /** @return NDK_ADAPTER_INFO of the provider */
    public NdkAdapterInfo info() {
        return objects.info();
    }

    /** @return PAGE_SIZE in bytes */
    public int pageSize() {
        return pageSize;
    }

    /** @return the run's time bounds */
    public Bounds bounds() {
        return bounds;
    }

    /** @return the guarded invoker this session calls through */
    public Invoker invoker() {
        return inv;
    }

    // ------------------------------------------------------------------ handed on to the parts

    /** As {@link AdapterObjects#readSinkNotRequired()}. */
    public boolean readSinkNotRequired() {
        return objects.readSinkNotRequired();
    }

    /** As {@link AdapterObjects#target()}. */
    public Side target() {
        return objects.target();
    }

    /** As {@link AdapterObjects#peer()}. */
    public Side peer() {
        return objects.peer();
    }

    /** As {@link AdapterObjects#qps()}. @return this session */
    public NdkSession qps() {
        objects.qps();
        return this;
    }

    /** As {@link AdapterObjects#unconnectedQp()}. */
    public NdkQp unconnectedQp() {
        return objects.unconnectedQp();
    }

    /** As {@link HostBuffers#allocate(int)}. */
    public HostBuffer allocate(int pages) {
        return buffers.allocate(pages);
    }

    /** As {@link HostBuffers#allocate(int, HostMemory.FrameLayout)}. */
    public HostBuffer allocate(int pages, HostMemory.FrameLayout layout) {
        return buffers.allocate(pages, layout);
    }

    /** As {@link HostBuffers#check}: a breach of the memory now breaks {@code ruleId}; {@code what} is what the kit did. */
    public void checkMemory(String ruleId, String what) {
        buffers.check(ruleId, () -> what);
    }

    /** As {@link HostBuffers#check}. */
    public void checkMemory(String ruleId, Supplier<String> what) {
        buffers.check(ruleId, what);
    }

    /** As {@link AsyncCalls#create}. */
    public <T extends NdkObject> Created<T> create(String kind, Supplier<String> detail,
                                                   Function<AsyncOp<T>, org.ndktck.spec.CreateResult<T>> call) {
        return calls.create(kind, detail, call);
    }

    /** As {@link AsyncCalls#insideNextCallback}. */
    public void insideNextCallback(Consumer<AsyncOp<?>> action) {
        calls.insideNextCallback(action);
    }

    /** As {@link AsyncCalls#checkCallbacks()}. */
    public void checkCallbacks() {
        calls.checkCallbacks();
    }

    /** As {@link AsyncCalls#quietThenCheckCallbacks()}. */
    public void quietThenCheckCallbacks() {
        calls.quietThenCheckCallbacks();
    }

    /** As {@link AsyncCalls#quietThenCheck}. */
    public void quietThenCheck(Supplier<RuleViolation> extra) {
        calls.quietThenCheck(extra);
    }

    /** As {@link AsyncCalls#waitQuietThenCheckCallbacks()}. */
    public void waitQuietThenCheckCallbacks() {
        calls.waitQuietThenCheckCallbacks();
    }

    /** As {@link MrRequests#createMrRaw}. */
    public Created<NdkMr> createMrRaw(Side side, boolean fastRegister) {
        return mrs.createMrRaw(side, fastRegister);
    }

    /** As {@link MrRequests#createMr}. */
    public NdkMr createMr(Side side, boolean fastRegister) {
        return mrs.createMr(side, fastRegister);
    }

    /** As {@link MrRequests#checkMrHeader}. */
    public void checkMrHeader(Supplier<String> call, NdkMr mr) {
        mrs.checkMrHeader(call, mr);
    }

    /** As {@link MrRequests#register}. */
    public Outcome register(NdkMr mr, Mdl mdl, long length, int flags) {
        return mrs.register(mr, mdl, length, flags);
    }

    /** As {@link MrRequests#registerValid}. */
    public void registerValid(NdkMr mr, Mdl mdl, long length, int flags) {
        mrs.registerValid(mr, mdl, length, flags);
    }

    /** As {@link MrRequests#deregister}. */
    public Outcome deregister(NdkMr mr) {
        return mrs.deregister(mr);
    }

    /** As {@link MrRequests#initializeFastRegister}. */
    public Outcome initializeFastRegister(NdkMr mr, int adapterPageCount, boolean remoteAccess) {
        return mrs.initializeFastRegister(mr, adapterPageCount, remoteAccess);
    }

    /** As {@link MrRequests#fastRegisterMr}. */
    public NdkMr fastRegisterMr(int adapterPageCount, boolean remoteAccess) {
        return mrs.fastRegisterMr(adapterPageCount, remoteAccess);
    }

    /** As {@link MrRequests#remoteToken}. */
    public int remoteToken(NdkMr mr) {
        return mrs.remoteToken(mr);
    }

    /** As {@link MrRequests#localToken}. */
    public int localToken(NdkMr mr) {
        return mrs.localToken(mr);
    }

    /** As {@link MrRequests#closeMrFromCallback}. */
    public NtStatus closeMrFromCallback(NdkMr mr) {
        return mrs.closeMrFromCallback(mr);
    }

    /** As {@link MrRequests#deregisterFromCallback}. */
    public NtStatus deregisterFromCallback(NdkMr mr) {
        return mrs.deregisterFromCallback(mr);
    }

    /** As {@link MrRequests#closeMr}. */
    public void closeMr(NdkMr mr) {
        mrs.closeMr(mr);
    }

    /** As {@link Lams#buildLam}. */
    public Lam buildLam(Mdl mdl, long length) {
        return lams.buildLam(mdl, length);
    }

    /** As {@link Lams#buildLamRaw}. */
    public Outcome buildLamRaw(Mdl mdl, long length, int lamSizeBytes) {
        return lams.buildLamRaw(mdl, length, lamSizeBytes);
    }

    /** As {@link Completions#complete}. */
    public WrOutcome complete(WorkRequest wr) {
        return completions.complete(wr);
    }

    /** As {@link Completions#awaitEntry(WorkRequest)}. */
    public void awaitEntry(WorkRequest wr) {
        completions.awaitEntry(wr);
    }

    /** As {@link Completions#drainFor}. */
    public void drainFor(WorkRequest wr) {
        completions.drainFor(wr);
    }

    /** As {@link Completions#drain(Side)}. */
    public void drain(Side side) {
        completions.drain(side);
    }

    /** As {@link Completions#drain(NdkCq)}. */
    public void drain(NdkCq cq) {
        completions.drain(cq);
    }

    /** As {@link Completions#drainPlain}. */
    public List<NdkResult> drainPlain(NdkCq cq) {
        return completions.drainPlain(cq);
    }

    /** As {@link WorkRequests#fastRegister(NdkQp, NdkMr, int, long[], int, long, long, int)}. */
    public WrOutcome fastRegister(NdkQp qp, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo, long length,
                                  long baseVirtualAddress, int flags) {
        return requests.fastRegister(qp, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags);
    }

    /** As {@link WorkRequests#postFastRegister}. */
    public WorkRequest postFastRegister(NdkQp qp, NdkMr mr, int adapterPageCount, long[] adapterPageArray, int fbo, long length,
                                        long baseVirtualAddress, int flags) {
        return requests.postFastRegister(qp, mr, adapterPageCount, adapterPageArray, fbo, length, baseVirtualAddress, flags);
    }

    /** As {@link WorkRequests#invalidate(NdkMr, int)}. */
    public WrOutcome invalidate(NdkMr mr, int flags) {
        return requests.invalidate(mr, flags);
    }

    /** As {@link ConnectedPeer#maxAccess()}. */
    public int maxAccess() {
        return connectedPeer.maxAccess();
    }

    /** As {@link ConnectedPeer#write}. */
    public Access peerWrite(long remoteAddress, int remoteToken, byte[] data) {
        return connectedPeer.write(remoteAddress, remoteToken, data);
    }

    /** As {@link ConnectedPeer#read}. */
    public Access peerRead(long remoteAddress, int remoteToken, int length) {
        return connectedPeer.read(remoteAddress, remoteToken, length);
    }

    /** As {@link ConnectedPeer#targetReadInto}. */
    public Access targetReadInto(NdkSge sink, int flags) {
        return connectedPeer.targetReadInto(sink, flags);
    }

    /** As {@link ConnectedPeer#scratchBytes}. */
    public byte[] peerScratchBytes(int length) {
        return connectedPeer.scratchBytes(length);
    }

    // ------------------------------------------------------------------ the end of the try

    /**
     * Tears the session down (deregister, close MRs, release LAMs, close QPs, CQs, PDs, the adapter, all
     * through the guarded invoker in one hand-off) and runs the end-of-try checks: outstanding completions,
     * callback accounting, late forbidden callbacks of earlier tries, provider thread deaths, and memory
     * (charged to the running property's first rule). Skips the tear-down when a call of this session
     * hung (the adapter is abandoned).
     *
     * @throws RuleViolation the first breach found (the others are suppressed into it)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Throwable> problems = new ArrayList<>();
        boolean hung = inv.hangs() != hangMark;
        if (!hung && objects.adapter() != null) {
            try {
                if (objects.qpsReady()) {
                    completions.drain(objects.target().cq);
                    completions.drain(objects.peer().cq);
                }
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
            try {
                calls.awaitOutstanding(objects.isFailing());
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
            try {
                inv.batch("session tear-down", () -> {
                    tearDown(problems);
                    return null;
                });
            } catch (RuntimeException | Error e) {
                problems.add(e);
            }
        }
        RuleViolation callbacks = calls.firstViolation();
        if (callbacks != null) {
            problems.add(callbacks);
        }
        RuleViolation late = LateCallbacks.takeForeign(calls.mine());
        if (late != null) {
            problems.add(late);
        }
        RuleViolation quiet = QuietWatch.due();
        if (quiet != null) {
            problems.add(quiet);
        }
        for (ProviderThreads.Death death : ProviderThreads.since(deathMark)) {
            if (death.thread().startsWith("ndk-tck-caller-")) {
                continue;
            }
            problems.add(Violations.of("GEN-EXC-1", "a provider thread (" + death.thread() + ")",
                    "no exception from any provider code path, completions included", "the thread died with " + death.error(), death.error()));
            break;
        }
        // after a try that already failed, the kit never declared the changes its remaining steps would have
        // allowed (a write in flight, a receive), so a byte check would charge the property's rule for them
        if (!objects.isFailing()) {
            try {
                buffers.check(CurrentProperty.primaryRule("GEN-EXC-1"), () -> "the try's calls (checked at the end of the try)");
            } catch (RuleViolation v) {
                problems.add(v);
            }
        }
        if (!problems.isEmpty()) {
            Throwable first = problems.get(0);
            for (int i = 1; i < problems.size(); i++) {
                first.addSuppressed(problems.get(i));
            }
            if (first instanceof RuntimeException re) {
                throw re;
            }
            throw (Error) first;
        }
    }

    /** MRs first (and the MRs handed over irregularly), then the LAMs, the QPs, CQs and PDs, the adapter last. */
    private void tearDown(List<Throwable> problems) {
        java.util.function.BooleanSupplier hung = () -> inv.hangs() != hangMark;
        if (!mrs.closeAll(problems, hung)) {
            return;
        }
        lams.releaseAll(problems);
        if (!objects.closeQueuesAndPds(problems, hung)) {
            return;
        }
        objects.closeAdapter(problems);
    }

    /** @return every rule ID the session can raise in passing, for documentation and tests */
    public static Set<String> rulesCheckedInPassing() {
        return new LinkedHashSet<>(List.of("GEN-TIME-1", "GEN-EXC-1", "GEN-CB-1", "GEN-CB-2", "GEN-CB-3", "GEN-CB-4", "GEN-LIFE-1",
                "CL-1", "CL-2", "MR-REG-9", "MR-DEREG-2", "MR-FRI-8", "MR-CREATE-2", "MR-FRI-2", "MR-REG-10", "OBJ-1",
                "LAM-4", "LAM-7", "CQ-1", "CQ-2", "CQ-3", "DEF-2", "RW-5", "INV-3", "MR-FR-8"));
    }
}
