package org.ndktck.reference;

import static org.ndktck.spec.NtStatus.STATUS_ACCESS_VIOLATION;
import static org.ndktck.spec.NtStatus.STATUS_BUFFER_TOO_SMALL;
import static org.ndktck.spec.NtStatus.STATUS_CONNECTION_INVALID;
import static org.ndktck.spec.NtStatus.STATUS_IMPLEMENTATION_LIMIT;
import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_REMOTE_RESOURCES;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;

/**
 * The reference implementation of every {@link RuleCheck} and data-path piece, one small method each, named
 * after what it checks. {@link Pieces} binds each method to its ID; read a method to see exactly what the
 * reference provider does for that rule. Every method is total: no value of its request makes it throw.
 */
public final class StandardChecks {
    private StandardChecks() {
    }

    private static NtStatus failUnless(boolean ok, NtStatus failure) {
        return ok ? STATUS_SUCCESS : failure;
    }

    // ---------------------------------------------------------------- NdkRegisterMr

    /** MR-CREATE-1: NdkRegisterMr is for an MR created with FastRegister=FALSE. */
    public static NtStatus registerNeedsNormalMr(RegisterMrRequest r) {
        return failUnless(!r.mr().fastRegister(), STATUS_INVALID_PARAMETER);
    }

    /** AMB-13/register: only an MR that is not registered (created, or deregistered) can be registered. */
    public static NtStatus registerNeedsUnregisteredMr(RegisterMrRequest r) {
        return failUnless(r.mr().state() == MrState.CREATED, STATUS_INVALID_PARAMETER);
    }

    /** MR-REG-11: Length 0 registers nothing and is rejected. */
    public static NtStatus registerLengthNotZero(RegisterMrRequest r) {
        return failUnless(r.length() != 0, STATUS_INVALID_PARAMETER);
    }

    /** MR-REG-12: the last byte VA + Length - 1 must not wrap past 2^64 - 1. */
    public static NtStatus registerRegionDoesNotWrap(RegisterMrRequest r) {
        return failUnless(!Unsigned.lastByteWraps(r.chain().virtualAddress(), r.length()), STATUS_INVALID_PARAMETER);
    }

    /** MR-REG-13 (MR-REG-1): Length must not exceed the chain's total ByteCount (unsigned comparison). */
    public static NtStatus registerLengthWithinChain(RegisterMrRequest r) {
        return failUnless(Long.compareUnsigned(r.length(), r.chain().totalByteCount()) <= 0, STATUS_INVALID_PARAMETER);
    }

    /** MR-REG-2: the chain is virtually contiguous over [VA, VA + Length) and not cyclic. */
    public static NtStatus registerChainContiguous(RegisterMrRequest r) {
        return failUnless(r.chain().contiguousOverLength() && !r.chain().cyclic(), STATUS_INVALID_PARAMETER);
    }

    /**
     * MR-REG-2/split-page: two MDLs that meet mid-page with different PFNs would put one virtual page in two page
     * frames; no locked, virtually contiguous buffer (MR-REG-1) looks like that, so the model refuses the chain
     * as it refuses a non-contiguous one (as NdkBuildLam does, LAM-2/split-page).
     */
    public static NtStatus registerNoSplitPage(RegisterMrRequest r) {
        return failUnless(!r.chain().pageSplitWithinLength(), STATUS_INVALID_PARAMETER);
    }

    /** MR-REG-14: only defined NDK_MR_FLAG bits (0xF), and 0x4 only inside ALLOW_REMOTE_WRITE (0x5). */
    public static NtStatus registerFlagsDefined(RegisterMrRequest r) {
        int f = r.flags();
        boolean undefinedBits = (f & ~NdkMrFlags.DEFINED_BITS) != 0;
        boolean loneRemoteWriteBit = (f & 0x4) != 0 && (f & NdkMrFlags.ALLOW_LOCAL_WRITE) == 0;
        return failUnless(!undefinedBits && !loneRemoteWriteBit, STATUS_INVALID_PARAMETER);
    }

    /**
     * MR-REG-10: Length must not exceed MaxRegistrationSize (unsigned comparison). The NdkRegisterMr page gives
     * STATUS_INVALID_PARAMETER only for a chain that is not virtually contiguous, so a Length past the limit gets one
     * of its "other status codes": STATUS_INVALID_BUFFER_SIZE.
     */
    public static NtStatus registerWithinMaxRegistrationSize(RegisterMrRequest r) {
        long max = r.adapter().settings().maxRegistrationSize();
        return failUnless(Long.compareUnsigned(r.length(), max) <= 0, NtStatus.STATUS_INVALID_BUFFER_SIZE);
    }

    /** MR-REG-7: NDK_MR_FLAG_RDMA_READ_SINK never makes a registration fail (the reference accepts it always). */
    public static NtStatus registerAcceptsReadSink(RegisterMrRequest r) {
        return STATUS_SUCCESS;
    }

    // ---------------------------------------------------------------- NdkDeregisterMr

    /** MR-DEREG-1: only an MR registered with NdkRegisterMr can be deregistered. */
    public static NtStatus deregisterNeedsRegisteredMr(DeregisterMrRequest r) {
        return failUnless(!r.mr().fastRegister() && r.mr().state() == MrState.REGISTERED, STATUS_INVALID_PARAMETER);
    }

    // ---------------------------------------------------------------- NdkBuildLam

    /** LAM-1/zero-length: Length 0 maps nothing and is rejected. */
    public static NtStatus lamLengthNotZero(BuildLamRequest r) {
        return failUnless(r.length() != 0, STATUS_INVALID_PARAMETER);
    }

    /** LAM-1/wrap: the last byte VA + Length - 1 must not wrap past 2^64 - 1. */
    public static NtStatus lamRegionDoesNotWrap(BuildLamRequest r) {
        return failUnless(!Unsigned.lastByteWraps(r.chain().virtualAddress(), r.length()), STATUS_INVALID_PARAMETER);
    }

    /** LAM-1/chain-too-short: Length must not exceed the chain's total ByteCount. */
    public static NtStatus lamLengthWithinChain(BuildLamRequest r) {
        return failUnless(Long.compareUnsigned(r.length(), r.chain().totalByteCount()) <= 0, STATUS_INVALID_PARAMETER);
    }

    /** LAM-2: the chain is virtually contiguous over [VA, VA + Length) and not cyclic. */
    public static NtStatus lamChainContiguous(BuildLamRequest r) {
        return failUnless(r.chain().contiguousOverLength() && !r.chain().cyclic(), STATUS_INVALID_PARAMETER);
    }

    /**
     * LAM-2/split-page: a LAM lists PAGE_SIZE pages, so a page whose two halves lie in two different page frames
     * (two MDLs meeting mid-page with different PFNs) cannot be mapped.
     */
    public static NtStatus lamNoSplitPage(BuildLamRequest r) {
        return failUnless(!r.chain().pageSplitWithinLength(), STATUS_INVALID_PARAMETER);
    }

    /**
     * LAM-3: {@code *pLAMSize} must hold 16 + 8 × pages; if not, STATUS_BUFFER_TOO_SMALL (the model then writes
     * the size needed). A size needed above 2^32 - 1 cannot be reported in a ULONG: STATUS_INVALID_PARAMETER.
     */
    public static NtStatus lamBufferLargeEnough(BuildLamRequest r) {
        long needed = r.bytesNeeded();
        NtStatus reportable = failUnless((needed >>> 32) == 0, STATUS_INVALID_PARAMETER);
        return reportable.isSuccess()
                ? failUnless(Integer.toUnsignedLong(r.offeredSize()) >= needed, STATUS_BUFFER_TOO_SMALL) : reportable;
    }

    // ---------------------------------------------------------------- NdkInitializeFastRegisterMr

    /** MR-FRI-1: only a fast-register MR without a fast registration in effect can be (re)initialized. */
    public static NtStatus initializeNeedsFastRegisterMr(InitializeFastRegisterRequest r) {
        MrState s = r.mr().state();
        return failUnless(r.mr().fastRegister() && (s == MrState.CREATED || reinitializes(s)), STATUS_INVALID_PARAMETER);
    }

    /** The model lets an MR be initialized again once no fast registration of it is in effect. */
    private static boolean reinitializes(MrState s) {
        return s == MrState.INITIALIZED || s == MrState.INVALIDATED;
    }

    /** MR-FRI-2/zero: AdapterPageCount 0 is rejected. */
    public static NtStatus initializePageCountNotZero(InitializeFastRegisterRequest r) {
        return failUnless(r.adapterPageCount() != 0, STATUS_INVALID_PARAMETER);
    }

    /** MR-FRI-3: AdapterPageCount above FRMRPageCount gives STATUS_IMPLEMENTATION_LIMIT (unsigned comparison). */
    public static NtStatus initializeWithinFrmrPageCount(InitializeFastRegisterRequest r) {
        int limit = r.adapter().settings().frmrPageCount();
        return failUnless(Integer.compareUnsigned(r.adapterPageCount(), limit) <= 0, STATUS_IMPLEMENTATION_LIMIT);
    }

    // ---------------------------------------------------------------- NdkFastRegister (all inline)

    /** MR-FR-7: a fast registration on an unconnected QP gives STATUS_CONNECTION_INVALID. */
    public static NtStatus fastRegisterNeedsConnectedQp(FastRegisterRequest r) {
        return failUnless(r.qpConnected(), STATUS_CONNECTION_INVALID);
    }

    /** MR-FR-1: the MR is a fast-register MR of the QP's PD, initialized, and not still fast-registered. */
    public static NtStatus fastRegisterNeedsReadyMr(FastRegisterRequest r) {
        return failUnless(r.mr().samePd() && r.mr().readyForFastRegister(), STATUS_INVALID_PARAMETER);
    }

    /**
     * MR-FR-5: only documented NdkFastRegister flags (SILENT_SUCCESS, READ_FENCE, ALLOW_REMOTE_READ,
     * ALLOW_LOCAL_WRITE, ALLOW_REMOTE_WRITE, RDMA_READ_SINK, and DEFER on NDKPI 1.2).
     */
    public static NtStatus fastRegisterFlagsDefined(FastRegisterRequest r) {
        int defined = NdkOpFlags.FAST_REGISTER_DEFINED_BITS;
        if (!r.adapter().ndkVersion().atLeast(NdkVersion.V1_2)) {
            defined &= ~NdkOpFlags.DEFER;
        }
        return failUnless((r.flags() & ~defined) == 0, STATUS_INVALID_PARAMETER);
    }

    /** MR-FR-19: the bit 0x20 only inside ALLOW_REMOTE_WRITE (0x30). */
    public static NtStatus fastRegisterNoLoneRemoteWriteBit(FastRegisterRequest r) {
        boolean lone = (r.flags() & 0x20) != 0 && (r.flags() & NdkOpFlags.ALLOW_LOCAL_WRITE) == 0;
        return failUnless(!lone, STATUS_INVALID_PARAMETER);
    }

    /** MR-FR-6: remote flags on an MR initialized with RemoteAccess=FALSE give STATUS_ACCESS_VIOLATION. */
    public static NtStatus fastRegisterRemoteNeedsRemoteAccess(FastRegisterRequest r) {
        boolean remote = (r.flags() & (NdkOpFlags.ALLOW_REMOTE_READ | 0x20)) != 0;
        return failUnless(!remote || r.mr().remoteAccess(), STATUS_ACCESS_VIOLATION);
    }

    /** MR-FR-18: 1 ≤ AdapterPageCount ≤ the count given to NdkInitializeFastRegisterMr (unsigned). */
    public static NtStatus fastRegisterPageCountWithinInitialized(FastRegisterRequest r) {
        boolean ok = r.adapterPageCount() != 0
                && Integer.compareUnsigned(r.adapterPageCount(), r.mr().initializedPageCount()) <= 0;
        return failUnless(ok, STATUS_INVALID_PARAMETER);
    }

    /** MR-FR-2/array-length: AdapterPageCount must not exceed the entries of AdapterPageArray. */
    public static NtStatus fastRegisterPageCountWithinArray(FastRegisterRequest r) {
        return failUnless(r.pageCount() <= r.arrayLength(), STATUS_INVALID_PARAMETER);
    }

    /** MR-FR-16: FBO is an offset within the first page: FBO < PAGE_SIZE (unsigned). */
    public static NtStatus fastRegisterFboWithinPage(FastRegisterRequest r) {
        return failUnless(r.unsignedFbo() < r.adapter().pageSize(), STATUS_INVALID_PARAMETER);
    }

    /** MR-FR-14: Length 0 registers nothing and is rejected. */
    public static NtStatus fastRegisterLengthNotZero(FastRegisterRequest r) {
        return failUnless(r.length() != 0, STATUS_INVALID_PARAMETER);
    }

    /**
     * MR-FR-3: Length ≤ AdapterPageCount × PAGE_SIZE − FBO, computed in 64 bits without overflow
     * (AdapterPageCount &lt; 2^32 and PAGE_SIZE ≤ 2^30, so the product is below 2^62).
     */
    public static NtStatus fastRegisterLengthFitsPages(FastRegisterRequest r) {
        long capacity = r.pageCount() * r.adapter().pageSize();
        // FBO + Length, saturating at 2^64 - 1 (which no capacity reaches)
        long needed = Unsigned.saturatingAdd(r.length(), r.unsignedFbo());
        return failUnless(Long.compareUnsigned(needed, capacity) <= 0, STATUS_INVALID_PARAMETER);
    }

    /**
     * MR-FR-4: BaseVirtualAddress ≡ FBO (mod PAGE_SIZE). An FBO of PAGE_SIZE or more is MR-FR-16's to refuse (it
     * runs first), so this check compares the two offsets within the page only.
     */
    public static NtStatus fastRegisterBaseMatchesFbo(FastRegisterRequest r) {
        long mask = r.adapter().pageSize() - 1L;
        return failUnless((r.baseVirtualAddress() & mask) == (r.unsignedFbo() & mask), STATUS_INVALID_PARAMETER);
    }

    /** MR-FR-15: the last byte BaseVirtualAddress + Length − 1 must not wrap past 2^64 − 1. */
    public static NtStatus fastRegisterRegionDoesNotWrap(FastRegisterRequest r) {
        return failUnless(!Unsigned.lastByteWraps(r.baseVirtualAddress(), r.length()), STATUS_INVALID_PARAMETER);
    }

    /**
     * MR-FR-17: every page address is PAGE_SIZE-aligned. Reads the fact the model's one pass over the page array
     * found ({@link FastRegisterRequest#firstMisalignedPage()}).
     */
    public static NtStatus fastRegisterPagesAligned(FastRegisterRequest r) {
        return failUnless(r.firstMisalignedPage() < 0, STATUS_INVALID_PARAMETER);
    }

    /**
     * MR-FR-2: every page address lies in a page of a live LAM of this adapter (LAM-8): a LAM not yet released.
     * Reads the fact of the model's one pass over the page array. That the entry also starts its page is
     * MR-FR-17's check ({@link #fastRegisterPagesAligned}), which runs first with the same status; a variant
     * that replaces MR-FR-17 alone lets an entry inside a LAM page through, translated to that page.
     */
    public static NtStatus fastRegisterPagesMapped(FastRegisterRequest r) {
        return failUnless(r.firstUnmappedPage() < 0, STATUS_INVALID_PARAMETER);
    }

    /** MR-FR-11: NDK_OP_FLAG_RDMA_READ_SINK never makes a fast registration fail. */
    public static NtStatus fastRegisterAcceptsReadSink(FastRegisterRequest r) {
        return STATUS_SUCCESS;
    }

    // ---------------------------------------------------------------- NdkInvalidate (inline)

    /** INV-2: an invalidation on an unconnected QP gives STATUS_CONNECTION_INVALID. */
    public static NtStatus invalidateNeedsConnectedQp(InvalidateRequest r) {
        return failUnless(r.qpConnected(), STATUS_CONNECTION_INVALID);
    }

    /** INV-1: the target is a fast-register MR of the QP's PD with a fast registration posted and not invalidated. */
    public static NtStatus invalidateNeedsFastRegisteredMr(InvalidateRequest r) {
        boolean ok = r.mr().fastRegister() && r.mr().samePd() && r.mr().state() == MrState.FAST_REGISTERED;
        return failUnless(ok, STATUS_INVALID_PARAMETER);
    }

    /** INV-3/flags: only SILENT_SUCCESS, READ_FENCE and (NDKPI 1.2) DEFER. */
    public static NtStatus invalidateFlagsDefined(InvalidateRequest r) {
        int defined = NdkOpFlags.SILENT_SUCCESS | NdkOpFlags.READ_FENCE;
        if (r.adapter().ndkVersion().atLeast(NdkVersion.V1_2)) {
            defined |= NdkOpFlags.DEFER;
        }
        return failUnless((r.flags() & ~defined) == 0, STATUS_INVALID_PARAMETER);
    }

    // ---------------------------------------------------------------- posting Read/Write/Send/Receive (inline)

    /** RW-2: Read, Write, Send and SendAndInvalidate on an unconnected QP give STATUS_CONNECTION_INVALID. */
    public static NtStatus postNeedsConnectedQp(PostRequest r) {
        return failUnless(r.qpConnected() || r.type() == WorkRequestType.RECEIVE, STATUS_CONNECTION_INVALID);
    }

    /**
     * SGE-COUNT: at most the QP's MaxInitiatorRequestSge (MaxReceiveRequestSge for a receive) SGEs; an NdkSend or
     * NdkSendAndInvalidate with NDK_OP_FLAG_INLINE is free of the limit (SGE-5: their pages say so).
     */
    public static NtStatus postSgeCountWithinQp(PostRequest r) {
        boolean inlineSend = (r.flags() & NdkOpFlags.INLINE) != 0
                && (r.type() == WorkRequestType.SEND || r.type() == WorkRequestType.SEND_AND_INVALIDATE);
        return failUnless(inlineSend || Integer.compareUnsigned(r.sgeCount(), r.maxSge()) <= 0, STATUS_INVALID_PARAMETER);
    }

    /** SGE-4: an INLINE request carries at most the QP's InlineDataSize bytes. */
    public static NtStatus postInlineWithinInlineDataSize(PostRequest r) {
        boolean inline = (r.flags() & NdkOpFlags.INLINE) != 0 && r.type() != WorkRequestType.READ
                && r.type() != WorkRequestType.RECEIVE;
        boolean ok = !inline || Long.compareUnsigned(r.totalBytes(), Integer.toUnsignedLong(r.inlineDataSize())) <= 0;
        return failUnless(ok, STATUS_INVALID_PARAMETER);
    }

    /** DEF-5: DEFER exists only on NDKPI 1.2; on a 1.1 adapter the bit is undefined and rejected. */
    public static NtStatus postDeferNeedsVersion12(PostRequest r) {
        boolean defer = (r.flags() & NdkOpFlags.DEFER) != 0;
        return failUnless(!defer || r.adapter().ndkVersion().atLeast(NdkVersion.V1_2), STATUS_INVALID_PARAMETER);
    }

    /** AI-3/max-transfer: the SGEs of one request carry at most MaxTransferLength bytes. */
    public static NtStatus postWithinMaxTransferLength(PostRequest r) {
        return failUnless(Long.compareUnsigned(r.totalBytes(), ReferenceAdapter.MAX_TRANSFER_LENGTH) <= 0,
                STATUS_INVALID_PARAMETER);
    }

    // ---------------------------------------------------------------- target of Read/Write (when processed)

    /** PRIV-2: the privileged token never grants remote access. */
    public static NtStatus remoteNotPrivileged(RemoteAccessRequest r) {
        return failUnless(r.owner() != TokenOwner.PRIVILEGED, STATUS_ACCESS_VIOLATION);
    }

    /**
     * RW-TOKEN: the remote token names a live registration (dead after deregistration or invalidation). The
     * privileged token is left to PRIV-2.
     */
    public static NtStatus remoteTokenLive(RemoteAccessRequest r) {
        boolean ok = r.owner() == TokenOwner.PRIVILEGED
                || (r.owner() == TokenOwner.REGISTRATION && r.region() != null && r.region().live());
        return failUnless(ok, STATUS_ACCESS_VIOLATION);
    }

    /** RW-TOKEN-PD: the registration belongs to the PD of the target QP. */
    public static NtStatus remoteTokenInTargetPd(RemoteAccessRequest r) {
        return failUnless(r.samePd(), STATUS_ACCESS_VIOLATION);
    }

    /**
     * MR-REG-8 (MR-FR-9, AMB-18): a read needs remote-read access, a write remote-write access. The privileged
     * token is left to PRIV-2.
     */
    public static NtStatus remoteAccessPermitted(RemoteAccessRequest r) {
        int needed = r.type() == WorkRequestType.READ ? Access.REMOTE_READ : Access.REMOTE_WRITE;
        boolean ok = r.owner() == TokenOwner.PRIVILEGED
                || (r.region() != null && Access.has(r.region().access(), needed));
        return failUnless(ok, STATUS_ACCESS_VIOLATION);
    }

    /**
     * MR-REG-4 (MR-FR-10): the access lies in [base, base + Length), as decided by the {@code bounds} piece;
     * a read past the end gives STATUS_REMOTE_RESOURCES (RW-3), a write STATUS_ACCESS_VIOLATION.
     */
    public static NtStatus remoteWithinBounds(RemoteAccessRequest r) {
        return failUnless(r.inBounds(),
                r.type() == WorkRequestType.READ ? STATUS_REMOTE_RESOURCES : STATUS_ACCESS_VIOLATION);
    }

    // ---------------------------------------------------------------- local SGEs (when processed)

    /** SGE-2/token: the token names a live registration, or the privileged token, of the QP's PD. */
    public static NtStatus localTokenValid(LocalAccessRequest r) {
        boolean ok = switch (r.owner()) {
            case NONE -> false;
            case PRIVILEGED -> r.samePd();
            case REGISTRATION -> r.samePd() && r.region() != null && r.region().live();
        };
        return failUnless(ok, STATUS_ACCESS_VIOLATION);
    }

    /** SGE-1 (PRIV-1): with the privileged token the SGE lies inside one live LAM. */
    public static NtStatus localPrivilegedInLam(LocalAccessRequest r) {
        return failUnless(r.owner() != TokenOwner.PRIVILEGED || r.lamRangeLive(), STATUS_ACCESS_VIOLATION);
    }

    /** SGE-2/bounds: the SGE lies inside its registration, as decided by the {@code bounds} piece. */
    public static NtStatus localWithinBounds(LocalAccessRequest r) {
        return failUnless(r.owner() != TokenOwner.REGISTRATION || r.inBounds(), STATUS_ACCESS_VIOLATION);
    }

    /** MR-FR-12 (MR-REG-8): a sink (Read target, Receive buffer) needs local-write access. */
    public static NtStatus localSinkWritable(LocalAccessRequest r) {
        boolean ok = !r.sink() || r.owner() != TokenOwner.REGISTRATION
                || (r.region() != null && Access.has(r.region().access(), Access.LOCAL_WRITE));
        return failUnless(ok, STATUS_ACCESS_VIOLATION);
    }

    /**
     * MR-REG-6 (MR-FR-11, PRIV-3): on an adapter without RDMA_READ_SINK_NOT_REQUIRED, an RDMA-read sink must be
     * registered with RDMA_READ_SINK, and a LAM address with the privileged token cannot be one.
     */
    public static NtStatus localReadSinkRegistered(LocalAccessRequest r) {
        if (!r.sink() || r.type() != WorkRequestType.READ
                || r.adapter().hasAdapterFlag(NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED)) {
            return STATUS_SUCCESS;
        }
        boolean ok = r.owner() == TokenOwner.REGISTRATION && r.region() != null
                && Access.has(r.region().access(), Access.READ_SINK);
        return failUnless(ok, STATUS_ACCESS_VIOLATION);
    }

    // ---------------------------------------------------------------- remote invalidation (when processed)

    /** INV-1/remote: the token to invalidate names a live fast registration of the PD where it is invalidated. */
    public static NtStatus remoteInvalidateNeedsFastRegistration(RemoteInvalidateRequest r) {
        boolean ok = r.owner() == TokenOwner.REGISTRATION && r.region() != null && r.region().live()
                && r.region().fastRegistered() && r.samePd();
        return failUnless(ok, STATUS_ACCESS_VIOLATION);
    }

    /**
     * {@code invalid-token-abort}: the receiver aborts the connection whenever a SendAndInvalidate names a token
     * it may not invalidate (INV-6).
     */
    public static boolean abortOnInvalidToken(RemoteInvalidateRequest r) {
        return true;
    }

    /** {@code late-failure}: every failed inline check of a work request fails the call inline. */
    public static boolean failInline(String checkId) {
        return false;
    }

    /** {@code read-bounds-at-post}: the remote bounds of a Read are checked when it is processed. */
    public static boolean readBoundsWhenProcessed() {
        return false;
    }

    // ---------------------------------------------------------------- data-path decisions

    /** {@code bounds}: byte-exact, unsigned: base ≤ address, and address + length ≤ base + Length, address inside. */
    public static boolean byteExactBounds(RegionView region, long address, long length) {
        long offset = address - region.base();
        return Long.compareUnsigned(offset, region.length()) < 0
                && Long.compareUnsigned(length, region.length() - offset) <= 0;
    }

    /** {@code addressing}: absolute addresses; byte {@code address - base} of the region. */
    public static long absoluteAddressing(RegionView region, long address) {
        return address - region.base();
    }

    /** {@code extent}: an NdkRegisterMr region is exactly Length bytes. */
    public static long lengthIsExtent(long length, long chainByteCount) {
        return length;
    }

    /** {@code fbo-placement}: byte BaseVirtualAddress + k lies at FBO + k from the start of the first page. */
    public static int fboIsFirstByteOffset(int fbo, long baseVirtualAddress, int pageSize) {
        return fbo;
    }

    /** {@code mr-access-flags}: composites tested whole; 0x5 grants remote write, 0x4 alone grants nothing. */
    public static int mrFlagsToAccess(int f) {
        int access = 0;
        if ((f & NdkMrFlags.ALLOW_LOCAL_WRITE) != 0) {
            access |= Access.LOCAL_WRITE;
        }
        if ((f & NdkMrFlags.ALLOW_REMOTE_READ) != 0) {
            access |= Access.REMOTE_READ;
        }
        if (NdkMrFlags.allowsRemoteWrite(f)) {
            access |= Access.REMOTE_WRITE | Access.LOCAL_WRITE;
        }
        if ((f & NdkMrFlags.RDMA_READ_SINK) != 0) {
            access |= Access.READ_SINK;
        }
        return access;
    }

    /** {@code fr-access-flags}: composites tested whole; 0x30 grants remote write, 0x20 alone grants nothing. */
    public static int frFlagsToAccess(int f) {
        int access = 0;
        if ((f & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0) {
            access |= Access.LOCAL_WRITE;
        }
        if ((f & NdkOpFlags.ALLOW_REMOTE_READ) != 0) {
            access |= Access.REMOTE_READ;
        }
        if (NdkOpFlags.allowsRemoteWrite(f)) {
            access |= Access.REMOTE_WRITE | Access.LOCAL_WRITE;
        }
        if ((f & NdkOpFlags.RDMA_READ_SINK) != 0) {
            access |= Access.READ_SINK;
        }
        return access;
    }

    /** {@code token-retirement}: every event retires the token. */
    public static boolean alwaysRetire(RetireEvent event) {
        return true;
    }

    /**
     * {@code token-allocator}: a counter passed through a bijective 32-bit mix (so tokens look random but
     * repeat only after 2^32 allocations), skipping 0 and every token in use.
     */
    public static TokenAllocator scramblingAllocator(long seed) {
        int[] counter = {0};
        return request -> {
            while (true) {
                int token = nextCandidate(seed, counter);
                if (token != 0 && !request.inUse().test(token)) {
                    return token;
                }
            }
        };
    }

    /**
     * Advances {@code counter[0]} and gives the next candidate token: the counter, offset by the seed, passed
     * through MurmurHash3's 32-bit finalizer (a bijection on int, so candidates repeat only after 2^32 calls).
     */
    private static int nextCandidate(long seed, int[] counter) {
        counter[0]++;
        int h = counter[0] + (int) (seed ^ (seed >>> 32));
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }
}
