/**
 * The reference provider {@code reference}: a readable, thread-safe software model of an NDK adapter that
 * implements the SPI of {@code org.ndktck.spec} and passes the whole kit in every configuration.
 *
 * <h2>The model</h2>
 * <ul>
 * <li><b>Objects.</b> {@link org.ndktck.reference.ReferenceAdapter} owns PDs, CQs, MRs and QPs
 * ({@code ReferencePd}, {@code ReferenceCq}, {@code ReferenceMr}, {@code ReferenceQp}). Each has an explicit
 * state: an MR is {@link org.ndktck.reference.MrState CREATED, REGISTERED, INITIALIZED, FAST_REGISTERED,
 * INVALIDATED, CLOSING, CLOSED}; a QP is {@link org.ndktck.reference.QpState UNCONNECTED, CONNECTED, FLUSHED,
 * CLOSED}. Headers carry the object type and the {@code ndkVersion} setting.</li>
 * <li><b>One lock per adapter.</b> Every state change and every byte moved happens under the adapter's lock,
 * so calls on different objects may run at once from any thread and always see a consistent adapter. No
 * consumer callback is ever called with the lock held, so callbacks may call back into the provider.</li>
 * <li><b>Validation</b> runs in one pass per request: a request record (e.g.
 * {@link org.ndktck.reference.FastRegisterRequest}) is built once, then the checks of its stage in
 * {@link org.ndktck.reference.Pieces} run in order; the first failure is the result. All range arithmetic is
 * unsigned and cannot wrap ({@link org.ndktck.reference.Unsigned}). An MDL chain is walked once
 * ({@link org.ndktck.reference.MdlChainSummary}), cycles included.</li>
 * <li><b>Tokens.</b> One 32-bit token per registration serves as local and remote token. A table
 * ({@link org.ndktck.reference.TokenTable}) maps each live token to its registration (O(1) lookup, independent
 * of the number of MRs). Tokens are fresh on every
 * registration and fast registration, never 0, never a PD's privileged token, and retired on deregistration,
 * invalidation (local, remote, read-with-invalidate) and close. The privileged token of a PD grants local
 * access to LAM logical addresses only, never remote access.</li>
 * <li><b>Memory.</b> A registration keeps its page frames in one {@code long[]} (8 bytes a page) plus, only
 * for chains whose MDLs meet in the middle of a page with different frames, one {@code long} per such join:
 * at most 16 bytes a page plus a constant. Bytes move only between {@link org.ndktck.spec.HostMemory} page
 * frames, page by page; MDL virtual addresses are used as region bases, never dereferenced (MR-REG-3).
 * LAM logical addresses are allocated from {@code 0x8000_0000_0000} upward, one run per LAM with an unmapped
 * guard page after it, so they never equal PFN × PAGE_SIZE ({@link org.ndktck.reference.LamSpace}).</li>
 * <li><b>Data path.</b> Two QPs of one adapter connected with {@code connectLoopback} exchange Read, Write,
 * Send, SendAndInvalidate and Receive. A Send checks its sources when processed and then waits at the peer
 * for a Receive. Every check (token, PD, access rights, byte-exact bounds of the target
 * and of each local SGE, read-sink rules) runs before any byte moves; a failure completes the request with
 * an error status (STATUS_ACCESS_VIOLATION for protection errors, STATUS_REMOTE_RESOURCES for a read past the
 * end of the target) and changes no byte. INLINE requests ignore the SGE token (SGE-3) and copy their data
 * when posted.</li>
 * <li><b>Work requests.</b> Inline checks (the {@code FAST_REGISTER}, {@code INVALIDATE} and {@code POST}
 * stages) fail the call with no CQ entry (DEF-2). An accepted request is queued on the adapter and processed
 * in post order (so READ_FENCE holds trivially): on the calling thread in {@code completion=inline}, on a
 * worker thread in {@code pending}, chosen per call in {@code mixed}. A request with DEFER (NDKPI 1.2) is held
 * on its QP until the next request without DEFER, or until an inline failure on that QP (DEF-4). A Send waits
 * at the peer until a Receive is posted. NdkFlush completes every request not yet processed with
 * STATUS_CANCELLED and moves the QP to FLUSHED: later requests are accepted and complete with
 * STATUS_CANCELLED, and requests of the peer that need this QP complete with STATUS_CONNECTION_INVALID.</li>
 * <li><b>Asynchronous calls</b> (creates, NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr,
 * NdkBuildLam, closes): in {@code pending} mode they return STATUS_PENDING and do their work and call the
 * completion exactly once on a daemon thread of a shared pool; in {@code inline} mode the completion is
 * never called, except for a close that must wait (CL-4, CL-6), which returns STATUS_PENDING in every mode.
 * STATUS_INSUFFICIENT_RESOURCES (object budget) is returned inline or through the completion.</li>
 * <li><b>Close.</b> A close returns SUCCESS or PENDING only. A close pends while the object has a pending
 * request or live dependents (MRs and QPs of a PD, QPs of a CQ) and completes after their completions and
 * close completions have returned; it is the object's last callback. Closing a QP flushes it (CL-5) and
 * disconnects its peer. Closing an MR retires its tokens; a registration still pending then completes with
 * STATUS_CANCELLED before the close completion. Closing the adapter closes whatever the consumer left open
 * (without callbacks for objects whose close was never requested) and blocks until every callback has
 * returned; called from inside a callback (a consumer error, CL-8) it does not wait for that callback.</li>
 * <li><b>Nulls.</b> A null where the SPI does not allow one (an MDL, an SGE list or one of its SGEs, a page
 * array, an MR, a CQ, a QP, a completion other than NdkBuildLam's) is a {@link java.lang.NullPointerException}
 * thrown before anything changes. Contexts may be null. No numeric argument ever makes a call throw.</li>
 * </ul>
 *
 * <h2>Variants: the fault catalogue</h2>
 * Every validation rule and every data-path decision that a real provider could get wrong is a named
 * {@link org.ndktck.reference.Piece}, listed in {@link org.ndktck.reference.Pieces} with its reference
 * implementation in {@link org.ndktck.reference.StandardChecks}. A faulty provider replaces one (or, to break
 * one rule, a few) of them; the rest stays the reference:
 * <pre>{@code
 * NdkProvider wrap = ReferenceProvider.builder()
 *         .name("fault:MR-REG-12")
 *         .description("the end of a registration wraps past 2^64 and is accepted")
 *         .replace(Pieces.MR_REG_12, RuleCheck.pass())
 *         .build();
 *
 * NdkProvider perPage = ReferenceProvider.builder()
 *         .name("fault:MR-REG-4/per-page")
 *         .replace(Pieces.BOUNDS, (region, address, length) -> ...whole pages...)
 *         .build();
 * }</pre>
 * Checks are {@link org.ndktck.reference.RuleCheck}s over request records; data-path pieces are small
 * interfaces ({@link org.ndktck.reference.RegionBounds}, {@link org.ndktck.reference.RegionAddressing},
 * {@link org.ndktck.reference.RegisteredExtent},
 * {@link org.ndktck.reference.FboPlacement}, {@link org.ndktck.reference.MrAccessFlags},
 * {@link org.ndktck.reference.FrAccessFlags}, {@link org.ndktck.reference.TokenAllocator.Factory},
 * {@link org.ndktck.reference.TokenRetirement}, {@link org.ndktck.reference.FrameReach}). The model never throws
 * when a replaced piece makes it accept something the reference rejects: bytes past the last page frame of a
 * registration make the access fail (piece {@code frame-reach}, a safety net no rule states; a fault that
 * removes a bounds check replaces it too, so its access really reaches the frames that follow). Checks are
 * written so that one rule is one check: for example RW-TOKEN and MR-REG-8 leave the privileged token to
 * PRIV-2, so replacing PRIV-2 alone lets the privileged token reach LAM logical addresses remotely.
 *
 * <p>A check sees only its request record (the consumer's arguments plus views of the adapter, MR and
 * registration); data-path pieces see a {@link org.ndktck.reference.RegionView}. A variant that needs the
 * standard behaviour in most cases can call {@code Pieces.X.standard()} from its replacement.
 *
 * <p>Faults of completions and callbacks (called twice, never, after an inline return, with a foreign
 * context, blocking, throwing; a CQ entry after an inline failure; a token that changes between reads; SUCCESS
 * with no object) wrap the SPI objects instead:
 * {@link org.ndktck.reference.ReferenceProvider.Builder#decorateAdapters(java.util.function.UnaryOperator)}
 * wraps every adapter the provider opens. The reference never checks the objects a consumer passes back with a
 * plain {@code instanceof}: a wrapper of a PD, MR, QP or CQ implements {@link org.ndktck.reference.Unwrappable}
 * and the reference unwraps it (up to 64 levels) to reach its own object; anything else is foreign and gets
 * STATUS_INVALID_PARAMETER. Unwrapping happens before the adapter lock is taken.
 */
package org.ndktck.reference;
