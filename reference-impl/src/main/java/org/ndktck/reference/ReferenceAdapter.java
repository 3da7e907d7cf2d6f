package org.ndktck.reference;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.ndktck.spec.CreateCompletion;
import org.ndktck.spec.CreateResult;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkObject;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;

/**
 * The adapter of the reference model (see the package documentation): NdkQueryAdapterInfo, NdkCreatePd,
 * NdkCreateCq, NdkBuildLam, NdkReleaseLam, loopback connection and NdkCloseAdapter, plus the services its
 * objects share: the lock, the completion style, the token table ({@link TokenTable}), the logical address space
 * ({@link LamSpace}), the queue of work requests and the pool threads that call completions.
 */
public final class ReferenceAdapter implements NdkAdapter, AdapterView {
    /** MaxTransferLength reported in NDK_ADAPTER_INFO: 1 GiB. */
    public static final long MAX_TRANSFER_LENGTH = 1L << 30;
    /** MaxInitiatorRequestSge, MaxReceiveRequestSge and MaxReadRequestSge by default: 16 (setting {@code maxSge}). */
    public static final int MAX_SGE = 16;
    /** MaxInlineDataSize: 256 bytes. */
    public static final int MAX_INLINE_DATA_SIZE = 256;
    /** MaxReceiveQueueDepth and MaxInitiatorQueueDepth: 65536. */
    public static final int MAX_QUEUE_DEPTH = 1 << 16;
    /** MaxCqDepth: 2^20. */
    public static final int MAX_CQ_DEPTH = 1 << 20;
    /** MaxInboundReadLimit and MaxOutboundReadLimit: 16. */
    public static final int MAX_READ_LIMIT = 16;
    /** The first adapter logical address a LAM gets: 0x8000_0000_0000 (never equal to PFN × PAGE_SIZE of HostMemory). */
    public static final long LOGICAL_ADDRESS_BASE = 0x8000_0000_0000L;

    /** Daemon threads shared by every adapter: completions and the work-request worker. */
    private static final ExecutorService POOL = newPool();
    /** The adapters whose callbacks are running on the current thread (to spot NdkCloseAdapter from a callback). */
    private static final ThreadLocal<List<ReferenceAdapter>> IN_CALLBACK = ThreadLocal.withInitial(ArrayList::new);

    final ReentrantLock lock = new ReentrantLock();
    private final Condition quiet = lock.newCondition();
    final HostMemory memory;
    private final ReferenceSettings settings;
    final ReferencePolicy policy;
    private final int adapterFlags;
    private final NdkAdapterInfo info;
    private final NdkObjectHeader header;
    private final SplittableRandom random;

    /** The token table (what each token names). */
    final TokenTable tokens;
    /** The logical address space (the LAMs). */
    final LamSpace lams = new LamSpace(this);
    /** The ordinal the next PD gets ({@link ReferencePd#ordinal}). */
    private int pdOrdinals;
    private final Set<ReferenceObject> objects = new LinkedHashSet<>();
    /** Scheduled callbacks and pending requests whose completion has not returned. */
    private int inflight;
    private boolean closed;
    /** Work requests accepted and not yet processed, in post order. */
    final ArrayDeque<WorkRequest> ready = new ArrayDeque<>();
    private boolean workerScheduled;
    private final AtomicInteger callbackFailures = new AtomicInteger();

    ReferenceAdapter(HostMemory memory, ReferenceSettings settings, ReferencePolicy policy) {
        this.memory = Objects.requireNonNull(memory, "memory");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.policy = Objects.requireNonNull(policy, "policy");
        int flags = advertisedFlags(settings);
        this.adapterFlags = flags;
        this.info = new NdkAdapterInfo(settings.ndkVersion(), flags, settings.frmrPageCount(),
                settings.maxRegistrationSize(), 0L, settings.maxSge(), settings.maxSge(), settings.maxSge(), (int) MAX_TRANSFER_LENGTH,
                MAX_INLINE_DATA_SIZE, MAX_READ_LIMIT, MAX_READ_LIMIT, MAX_QUEUE_DEPTH, MAX_QUEUE_DEPTH, MAX_CQ_DEPTH);
        this.header = new NdkObjectHeader(settings.ndkVersion(), NdkObjectType.ADAPTER);
        this.random = new SplittableRandom(settings.seed());
        this.tokens = new TokenTable(policy, Objects.requireNonNull(
                policy.get(Pieces.TOKEN_ALLOCATOR).newAllocator(settings.seed()), "token allocator"));
    }

    /**
     * NDK_ADAPTER_INFO.AdapterFlags: in-order DMA and loopback connections always; RDMA_READ_SINK_NOT_REQUIRED as
     * the {@code readSinkNotRequired} setting says; RDMA_READ_LOCAL_INVALIDATE_SUPPORTED from NDKPI 1.2 on.
     */
    private static int advertisedFlags(ReferenceSettings settings) {
        int flags = NdkAdapterFlags.IN_ORDER_DMA_SUPPORTED | NdkAdapterFlags.LOOPBACK_CONNECTIONS_SUPPORTED;
        if (settings.readSinkNotRequired()) {
            flags |= NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED;
        }
        if (settings.ndkVersion().atLeast(NdkVersion.V1_2)) {
            flags |= NdkAdapterFlags.RDMA_READ_LOCAL_INVALIDATE_SUPPORTED;
        }
        return flags;
    }

    private static ExecutorService newPool() {
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "ndk-reference-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    // ------------------------------------------------------------------ AdapterView

    @Override
    public ReferenceSettings settings() {
        return settings;
    }

    @Override
    public int pageSize() {
        return settings.pageSize();
    }

    /** @return the {@code transport} setting (NDK_ADAPTER_INFO.RdmaTechnology); InfiniBand by default */
    @Override
    public org.ndktck.spec.NdkRdmaTechnology rdmaTechnology() {
        return settings.transport();
    }

    @Override
    public int adapterFlags() {
        return adapterFlags;
    }

    // ------------------------------------------------------------------ NdkAdapter

    @Override
    public NdkObjectHeader header() {
        return header;
    }

    @Override
    public NdkAdapterInfo queryAdapterInfo() {
        return info;
    }

    @Override
    public CreateResult<NdkPd> createPd(CreateCompletion<NdkPd> completion, Object createContext) {
        Objects.requireNonNull(completion, "completion");
        lock.lock();
        try {
            if (closed) {
                return CreateResult.failed(NtStatus.STATUS_INVALID_PARAMETER);
            }
            return createObject(null, () -> new ReferencePd(this), completion, createContext);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public CreateResult<NdkCq> createCq(int queueDepth, CreateCompletion<NdkCq> completion, Object createContext) {
        Objects.requireNonNull(completion, "completion");
        lock.lock();
        try {
            if (closed || !cqDepthSupported(queueDepth)) {
                return CreateResult.failed(NtStatus.STATUS_INVALID_PARAMETER);
            }
            return createObject(null, () -> new ReferenceCq(this, queueDepth), completion, createContext);
        } finally {
            lock.unlock();
        }
    }

    /** @return true for a CQ depth from 1 to MAX_CQ_DEPTH (a ULONG carried in an int, compared unsigned) */
    private static boolean cqDepthSupported(int queueDepth) {
        return queueDepth != 0 && Integer.compareUnsigned(queueDepth, MAX_CQ_DEPTH) <= 0;
    }

    @Override
    public NtStatus buildLam(Mdl mdl, long length, RequestCompletion completion, Object requestContext,
                             NdkLogicalAddressMapping lam) {
        Objects.requireNonNull(mdl, "mdl");
        Objects.requireNonNull(lam, "lam");
        lock.lock();
        try {
            if (closed) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            if (completion == null) {
                return lams.build(mdl, length, lam);
            }
            return request(null, () -> lams.build(mdl, length, lam), completion, requestContext);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void releaseLam(NdkLogicalAddressMapping lam) {
        Objects.requireNonNull(lam, "lam");
        lock.lock();
        try {
            lams.unmap(lam);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public NtStatus connectLoopback(NdkQp a, NdkQp b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        ReferenceQp qa = resolve(a, ReferenceQp.class);
        ReferenceQp qb = resolve(b, ReferenceQp.class);
        lock.lock();
        try {
            if (closed || qa == null || qb == null || qa == qb || !qa.isOpen() || !qb.isOpen()
                    || qa.state != QpState.UNCONNECTED || qb.state != QpState.UNCONNECTED) {
                return NtStatus.STATUS_INVALID_PARAMETER;
            }
            qa.connect(qb);
            qb.connect(qa);
            // receives posted before the connection can now meet sends
            return NtStatus.STATUS_SUCCESS;
        } finally {
            lock.unlock();
        }
    }

    /**
     * NdkCloseAdapter: closes every object the consumer left open (flushing QPs; no callback for an object
     * whose close was never requested), then blocks until every completion of every object has returned.
     * Called from inside one of this adapter's callbacks (a consumer error, CL-8) it does not wait for the
     * callbacks running on its own thread.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                closeWhatIsLeftOpen();
            }
            long ownCallbacks = callbacksOnThisThread();
            while (inflight > ownCallbacks) {
                quiet.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock, at NdkCloseAdapter: force-closes the objects still open (QPs and MRs first) and releases every LAM. */
    private void closeWhatIsLeftOpen() {
        List<ReferenceObject> open = new ArrayList<>(objects);
        for (ReferenceObject o : open) {
            if (o instanceof ReferenceQp || o instanceof ReferenceMr) {
                o.forceClose();
            }
        }
        for (ReferenceObject o : open) {
            o.forceClose();
        }
        lams.releaseAll();
    }

    /** @return how many of this adapter's callbacks are running on the calling thread (more than 0 only when the consumer closes the adapter from a callback) */
    private long callbacksOnThisThread() {
        return IN_CALLBACK.get().stream().filter(x -> x == this).count();
    }

    // ------------------------------------------------------------------ services for the objects

    /** @return true when the adapter was closed; under the lock */
    boolean isClosed() {
        return closed;
    }

    /** @return true when this call should pend (completion style; mixed draws from the seeded PRNG); under the lock */
    boolean choosePending() {
        return switch (settings.completion()) {
            case INLINE -> false;
            case PENDING -> true;
            case MIXED -> random.nextBoolean();
        };
    }

    /**
     * Finds this adapter's own object behind {@code o}, unwrapping {@link Unwrappable} wrappers. Call it
     * without the lock: unwrapping runs the consumer's code.
     *
     * @return the object, or null when {@code o} is null, foreign or of another type
     */
    <T extends ReferenceObject> T resolve(Object o, Class<T> type) {
        Object current = o;
        for (int depth = 0; depth < 64 && current != null; depth++) {
            if (type.isInstance(current)) {
                T t = type.cast(current);
                return t.adapter == this ? t : null;
            }
            if (current instanceof Unwrappable u) {
                NdkObject inner;
                try {
                    inner = u.unwrap();
                } catch (RuntimeException e) {
                    return null;
                }
                current = inner;
            } else {
                return null;
            }
        }
        return null;
    }

    /** Under the lock: makes an object now, within the budget. */
    <T extends ReferenceObject> CreateResult<T> create(ReferenceObject parent, Supplier<T> make) {
        if (parent != null && !parent.isOpen()) {
            return CreateResult.failed(NtStatus.STATUS_INVALID_PARAMETER);
        }
        if (objectLimitReached()) {
            return CreateResult.failed(NtStatus.STATUS_INSUFFICIENT_RESOURCES);
        }
        T object = make.get();
        objects.add(object);
        for (ReferenceObject antecedent : object.antecedents()) {
            antecedent.dependents++;
        }
        return CreateResult.success(object);
    }

    /** @return MaxInitiatorRequestSge, MaxReceiveRequestSge and MaxReadRequestSge of this adapter (setting {@code maxSge}) */
    int maxSge() {
        return settings.maxSge();
    }

    /** Under the lock: true when the adapter holds {@code maxObjects} objects (PDs, CQs, QPs and MRs not yet closed). */
    private boolean objectLimitReached() {
        return objects.size() >= settings.maxObjects();
    }

    /** Under the lock: an object finished closing. */
    void objectClosed(ReferenceObject o) {
        objects.remove(o);
    }

    /**
     * Under the lock: the one place a request chooses between completing inline and returning STATUS_PENDING
     * (the completion setting; mixed draws from the seeded PRNG).
     *
     * @param owner      the object whose close waits for the request, or null
     * @param work       the request's work, run under the lock; gives the final status
     * @param completion the consumer's completion, called after PENDING only
     * @param context    the consumer's request context
     * @return the status inline, or STATUS_PENDING
     */
    NtStatus request(ReferenceObject owner, Supplier<NtStatus> work, RequestCompletion completion, Object context) {
        if (!choosePending()) {
            return work.get();
        }
        pendRequest(owner, work, completion, context);
        return NtStatus.STATUS_PENDING;
    }

    /**
     * Under the lock: the one place a create chooses between completing inline and returning STATUS_PENDING.
     *
     * @param parent     the object whose close waits for the create, or null (PDs and CQs)
     * @param make       makes the object, under the lock
     * @param completion the consumer's completion, called after PENDING only
     * @param context    the consumer's create context
     * @return the result inline, or pending
     */
    @SuppressWarnings("unchecked")
    <T extends ReferenceObject, U extends NdkObject> CreateResult<U> createObject(ReferenceObject parent, Supplier<T> make,
                                                                                 CreateCompletion<U> completion, Object context) {
        if (!choosePending()) {
            return (CreateResult<U>) (CreateResult<?>) create(parent, make);
        }
        pendCreate(parent, make, completion, context);
        return CreateResult.pending();
    }

    /** Under the lock: a create that returned PENDING; makes the object on a pool thread, then calls back. */
    @SuppressWarnings("unchecked")
    <T extends ReferenceObject, U extends NdkObject> void pendCreate(ReferenceObject parent, Supplier<T> make,
                                                                    CreateCompletion<U> completion, Object context) {
        offload(parent, () -> {
            CreateResult<T> r = closed ? CreateResult.failed(NtStatus.STATUS_CANCELLED) : create(parent, make);
            return () -> completion.complete(context, r.status(), (U) r.object());
        }, null);
    }

    /**
     * Under the lock: a request that returned PENDING. {@code work} runs under the lock on a pool thread and
     * gives the final status; then the completion is called without the lock; then {@code owner} (if any) may
     * finish a close that waited for it. If a (faulty) piece throws inside {@code work}, the completion is not
     * called but the bookkeeping still ends.
     */
    void pendRequest(ReferenceObject owner, Supplier<NtStatus> work, RequestCompletion completion, Object context) {
        offload(owner, () -> {
            NtStatus status = work.get();
            return () -> completion.complete(context, status);
        }, null);
    }

    /** Under the lock: calls {@code callback} on a pool thread without the lock, then runs {@code after} under it. */
    void schedule(Runnable callback, Runnable after) {
        offload(null, () -> callback, after);
    }

    /**
     * Under the lock: the one way work leaves the caller's thread. On a pool thread, {@code work} runs under the
     * lock and gives the consumer callback; the callback runs without the lock; then, under the lock again,
     * {@code after} (if any) runs and {@code owner} (if any) may finish a close that waited for it. The in-flight
     * count (what {@link #close} waits for) drops even when a (faulty) piece throws.
     */
    private void offload(ReferenceObject owner, Supplier<Runnable> work, Runnable after) {
        if (owner != null) {
            owner.outstanding++;
        }
        inflight++;
        POOL.execute(() -> {
            try {
                Runnable callback;
                lock.lock();
                try {
                    callback = work.get();
                } finally {
                    lock.unlock();
                }
                runCallback(callback);
            } finally {
                lock.lock();
                try {
                    settle(owner, after);
                } finally {
                    lock.unlock();
                }
            }
        });
    }

    /**
     * Under the lock, on the pool thread, once the callback of offloaded work has returned: runs {@code after},
     * lets {@code owner} finish a close that waited for it, and drops the in-flight count, which also happens when
     * a (faulty) piece throws in {@code after} or in the close (the exception then goes on).
     */
    private void settle(ReferenceObject owner, Runnable after) {
        RuntimeException failure = null;
        try {
            if (after != null) {
                after.run();
            }
            if (owner != null) {
                owner.outstanding--;
                owner.closeIfReady();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        inflight--;
        quiet.signalAll();
        if (failure != null) {
            throw failure;
        }
    }

    private void runCallback(Runnable callback) {
        List<ReferenceAdapter> active = IN_CALLBACK.get();
        active.add(this);
        try {
            callback.run();
        } catch (RuntimeException | Error e) {
            callbackFailures.incrementAndGet();
        } finally {
            active.remove(active.size() - 1);
        }
    }

    /** @return how many consumer callbacks threw (the provider survives them) */
    public int callbackFailures() {
        return callbackFailures.get();
    }

    // ------------------------------------------------------------------ PDs

    /** Under the lock: the next PD's ordinal (0, 1, 2, ... in creation order). */
    int nextPdOrdinal() {
        return pdOrdinals++;
    }

    // ------------------------------------------------------------------ work requests

    /** Under the lock: queues accepted requests and gets them processed (inline or on the worker). */
    void submit(Collection<WorkRequest> requests) {
        ready.addAll(requests);
        if (ready.isEmpty()) {
            return;
        }
        if (choosePending()) {
            if (!workerScheduled) {
                workerScheduled = true;
                POOL.execute(() -> {
                    lock.lock();
                    try {
                        workerScheduled = false;
                        drain();
                    } finally {
                        lock.unlock();
                    }
                });
            }
        } else {
            drain();
        }
    }

    /** Under the lock: processes every queued request in post order. */
    private void drain() {
        WorkRequest wr;
        while ((wr = ready.poll()) != null) {
            if (!wr.done) {
                DataPath.process(this, wr);
            }
        }
    }

    @Override
    public String toString() {
        return "ReferenceAdapter{" + settings.asMap() + ", " + policy + "}";
    }
}
