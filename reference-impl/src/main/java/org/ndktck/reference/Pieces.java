package org.ndktck.reference;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every named, replaceable piece of the reference model: the {@link RuleCheck}s, grouped in stages that the
 * model evaluates in the order listed (the first failing check decides the status), and the data-path
 * decisions. A faulty provider is the reference with one or more pieces replaced
 * ({@link ReferenceProvider#builder()}); everything else stays the reference.
 *
 * <p>IDs: a check that implements one catalog rule carries that rule's ID ({@code MR-FR-4}); a rule with
 * several checks adds an aspect ({@code SGE-2/bounds}); data-path decisions have lower-case names
 * ({@code bounds}). The standard implementation of each piece is a method of {@link StandardChecks}.
 */
public final class Pieces {
    private Pieces() {
    }

    private static final Map<String, Piece<?>> BY_ID = new LinkedHashMap<>();

    private static <Q> Piece<RuleCheck<Q>> check(String id, RuleCheck<Q> standard, String description) {
        return add(new Piece<>(id, RuleCheck.class, standard, description));
    }

    private static <T> Piece<T> add(Piece<T> piece) {
        if (BY_ID.putIfAbsent(piece.id(), piece) != null) {
            throw new IllegalStateException("duplicate piece ID " + piece.id());
        }
        return piece;
    }

    // ---------------------------------------------------------------- NdkRegisterMr

    /** MR-CREATE-1: NdkRegisterMr on a fast-register MR gives STATUS_INVALID_PARAMETER. */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_CREATE_1 = check("MR-CREATE-1",
            StandardChecks::registerNeedsNormalMr, "NdkRegisterMr needs an MR created with FastRegister=FALSE");
    /** AMB-13/register: registering an MR that is registered (or being registered) is rejected. */
    public static final Piece<RuleCheck<RegisterMrRequest>> AMB_13_REGISTER = check("AMB-13/register",
            StandardChecks::registerNeedsUnregisteredMr, "NdkRegisterMr needs an MR that is not registered");
    /** MR-REG-11: Length 0. */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_11 = check("MR-REG-11",
            StandardChecks::registerLengthNotZero, "Length 0 gives STATUS_INVALID_PARAMETER");
    /** MR-REG-12: VA + Length wraps past 2^64. */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_12 = check("MR-REG-12",
            StandardChecks::registerRegionDoesNotWrap, "a region whose end wraps past 2^64 gives STATUS_INVALID_PARAMETER");
    /** MR-REG-13: Length above the chain's total ByteCount. */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_13 = check("MR-REG-13",
            StandardChecks::registerLengthWithinChain, "Length above the chain's ByteCount gives STATUS_INVALID_PARAMETER");
    /** MR-REG-2: chain not virtually contiguous over [VA, VA + Length). */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_2 = check("MR-REG-2",
            StandardChecks::registerChainContiguous, "a chain not contiguous over Length gives STATUS_INVALID_PARAMETER");
    /** MR-REG-2/split-page. */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_2_SPLIT_PAGE = check("MR-REG-2/split-page",
            StandardChecks::registerNoSplitPage, "a page split across two page frames is not virtually contiguous memory");
    /** MR-REG-14: undefined NDK_MR_FLAG bits. */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_14 = check("MR-REG-14",
            StandardChecks::registerFlagsDefined, "bits outside 0xF, or 0x4 without 0x1, give STATUS_INVALID_PARAMETER");
    /** MR-REG-10: Length above MaxRegistrationSize. */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_10 = check("MR-REG-10",
            StandardChecks::registerWithinMaxRegistrationSize, "Length above MaxRegistrationSize gives STATUS_INVALID_BUFFER_SIZE");
    /** MR-REG-7: NDK_MR_FLAG_RDMA_READ_SINK acceptance (the reference never rejects it). */
    public static final Piece<RuleCheck<RegisterMrRequest>> MR_REG_7 = check("MR-REG-7",
            StandardChecks::registerAcceptsReadSink, "NDK_MR_FLAG_RDMA_READ_SINK never makes NdkRegisterMr fail");

    // ---------------------------------------------------------------- NdkDeregisterMr

    /** MR-DEREG-1: deregistering an MR that is not registered. */
    public static final Piece<RuleCheck<DeregisterMrRequest>> MR_DEREG_1 = check("MR-DEREG-1",
            StandardChecks::deregisterNeedsRegisteredMr, "NdkDeregisterMr needs a registered normal MR");

    // ---------------------------------------------------------------- NdkBuildLam

    /** LAM-1/zero-length. */
    public static final Piece<RuleCheck<BuildLamRequest>> LAM_1_ZERO_LENGTH = check("LAM-1/zero-length",
            StandardChecks::lamLengthNotZero, "NdkBuildLam with Length 0 gives STATUS_INVALID_PARAMETER");
    /** LAM-1/wrap. */
    public static final Piece<RuleCheck<BuildLamRequest>> LAM_1_WRAP = check("LAM-1/wrap",
            StandardChecks::lamRegionDoesNotWrap, "NdkBuildLam of a region wrapping past 2^64 gives STATUS_INVALID_PARAMETER");
    /** LAM-1/chain-too-short. */
    public static final Piece<RuleCheck<BuildLamRequest>> LAM_1_CHAIN_TOO_SHORT = check("LAM-1/chain-too-short",
            StandardChecks::lamLengthWithinChain, "NdkBuildLam with Length above the chain gives STATUS_INVALID_PARAMETER");
    /** LAM-2: chain not contiguous. */
    public static final Piece<RuleCheck<BuildLamRequest>> LAM_2 = check("LAM-2",
            StandardChecks::lamChainContiguous, "NdkBuildLam of a chain not contiguous over Length gives STATUS_INVALID_PARAMETER");
    /** LAM-2/split-page. */
    public static final Piece<RuleCheck<BuildLamRequest>> LAM_2_SPLIT_PAGE = check("LAM-2/split-page",
            StandardChecks::lamNoSplitPage, "a page split across two page frames cannot be one LAM entry");
    /** LAM-3: buffer too small. */
    public static final Piece<RuleCheck<BuildLamRequest>> LAM_3 = check("LAM-3",
            StandardChecks::lamBufferLargeEnough, "*pLAMSize below 16 + 8 x pages gives STATUS_BUFFER_TOO_SMALL");

    // ---------------------------------------------------------------- NdkInitializeFastRegisterMr

    /** MR-FRI-1. */
    public static final Piece<RuleCheck<InitializeFastRegisterRequest>> MR_FRI_1 = check("MR-FRI-1",
            StandardChecks::initializeNeedsFastRegisterMr, "NdkInitializeFastRegisterMr needs a fast-register MR without a fast registration");
    /** MR-FRI-2/zero. */
    public static final Piece<RuleCheck<InitializeFastRegisterRequest>> MR_FRI_2_ZERO = check("MR-FRI-2/zero",
            StandardChecks::initializePageCountNotZero, "AdapterPageCount 0 gives STATUS_INVALID_PARAMETER");
    /** MR-FRI-3. */
    public static final Piece<RuleCheck<InitializeFastRegisterRequest>> MR_FRI_3 = check("MR-FRI-3",
            StandardChecks::initializeWithinFrmrPageCount, "AdapterPageCount above FRMRPageCount gives STATUS_IMPLEMENTATION_LIMIT");

    // ---------------------------------------------------------------- NdkFastRegister

    /** MR-FR-7. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_7 = check("MR-FR-7",
            StandardChecks::fastRegisterNeedsConnectedQp, "unconnected QP gives STATUS_CONNECTION_INVALID");
    /** MR-FR-1. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_1 = check("MR-FR-1",
            StandardChecks::fastRegisterNeedsReadyMr, "MR not an initialized fast-register MR of the QP's PD, or still fast-registered");
    /** MR-FR-5. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_5 = check("MR-FR-5",
            StandardChecks::fastRegisterFlagsDefined, "flags outside the documented set (DEFER only on 1.2)");
    /** MR-FR-19. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_19 = check("MR-FR-19",
            StandardChecks::fastRegisterNoLoneRemoteWriteBit, "0x20 without 0x10 gives STATUS_INVALID_PARAMETER");
    /** MR-FR-6. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_6 = check("MR-FR-6",
            StandardChecks::fastRegisterRemoteNeedsRemoteAccess, "remote flags on an MR initialized without RemoteAccess give STATUS_ACCESS_VIOLATION");
    /** MR-FR-18. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_18 = check("MR-FR-18",
            StandardChecks::fastRegisterPageCountWithinInitialized, "AdapterPageCount 0 or above the initialized count");
    /** MR-FR-2/array-length. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_2_ARRAY_LENGTH = check("MR-FR-2/array-length",
            StandardChecks::fastRegisterPageCountWithinArray, "AdapterPageCount above the array's length");
    /** MR-FR-16. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_16 = check("MR-FR-16",
            StandardChecks::fastRegisterFboWithinPage, "FBO >= PAGE_SIZE");
    /** MR-FR-14. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_14 = check("MR-FR-14",
            StandardChecks::fastRegisterLengthNotZero, "Length 0");
    /** MR-FR-3. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_3 = check("MR-FR-3",
            StandardChecks::fastRegisterLengthFitsPages, "Length above AdapterPageCount x PAGE_SIZE - FBO");
    /** MR-FR-4. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_4 = check("MR-FR-4",
            StandardChecks::fastRegisterBaseMatchesFbo, "BaseVirtualAddress mod PAGE_SIZE != FBO");
    /** MR-FR-15. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_15 = check("MR-FR-15",
            StandardChecks::fastRegisterRegionDoesNotWrap, "BaseVirtualAddress + Length wraps past 2^64");
    /** MR-FR-17. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_17 = check("MR-FR-17",
            StandardChecks::fastRegisterPagesAligned, "a page address not PAGE_SIZE-aligned");
    /** MR-FR-2. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_2 = check("MR-FR-2",
            StandardChecks::fastRegisterPagesMapped, "a page address in no page of a live LAM of this adapter");
    /** MR-FR-11. */
    public static final Piece<RuleCheck<FastRegisterRequest>> MR_FR_11 = check("MR-FR-11",
            StandardChecks::fastRegisterAcceptsReadSink, "NDK_OP_FLAG_RDMA_READ_SINK never makes NdkFastRegister fail");

    // ---------------------------------------------------------------- NdkInvalidate

    /** INV-2. */
    public static final Piece<RuleCheck<InvalidateRequest>> INV_2 = check("INV-2",
            StandardChecks::invalidateNeedsConnectedQp, "unconnected QP gives STATUS_CONNECTION_INVALID");
    /** INV-1. */
    public static final Piece<RuleCheck<InvalidateRequest>> INV_1 = check("INV-1",
            StandardChecks::invalidateNeedsFastRegisteredMr, "target not a fast-registered MR of the QP's PD");
    /** INV-3/flags. */
    public static final Piece<RuleCheck<InvalidateRequest>> INV_3_FLAGS = check("INV-3/flags",
            StandardChecks::invalidateFlagsDefined, "flags other than SILENT_SUCCESS, READ_FENCE, DEFER (1.2)");

    // ---------------------------------------------------------------- posting Read, Write, Send, Receive

    /** RW-2. */
    public static final Piece<RuleCheck<PostRequest>> RW_2 = check("RW-2",
            StandardChecks::postNeedsConnectedQp, "unconnected QP gives STATUS_CONNECTION_INVALID");
    /** SGE-COUNT. */
    public static final Piece<RuleCheck<PostRequest>> SGE_COUNT = check("SGE-COUNT",
            StandardChecks::postSgeCountWithinQp, "more SGEs than the QP allows");
    /** SGE-4. */
    public static final Piece<RuleCheck<PostRequest>> SGE_4 = check("SGE-4",
            StandardChecks::postInlineWithinInlineDataSize, "INLINE data above the QP's InlineDataSize");
    /** DEF-5. */
    public static final Piece<RuleCheck<PostRequest>> DEF_5 = check("DEF-5",
            StandardChecks::postDeferNeedsVersion12, "DEFER on an NDKPI 1.1 adapter");
    /** AI-3/max-transfer. */
    public static final Piece<RuleCheck<PostRequest>> AI_3_MAX_TRANSFER = check("AI-3/max-transfer",
            StandardChecks::postWithinMaxTransferLength, "more than MaxTransferLength bytes in one request");

    // ---------------------------------------------------------------- target of Read/Write

    /** PRIV-2. */
    public static final Piece<RuleCheck<RemoteAccessRequest>> PRIV_2 = check("PRIV-2",
            StandardChecks::remoteNotPrivileged, "the privileged token never grants remote access");
    /** RW-TOKEN. */
    public static final Piece<RuleCheck<RemoteAccessRequest>> RW_TOKEN = check("RW-TOKEN",
            StandardChecks::remoteTokenLive, "the remote token names a live registration");
    /** RW-TOKEN-PD. */
    public static final Piece<RuleCheck<RemoteAccessRequest>> RW_TOKEN_PD = check("RW-TOKEN-PD",
            StandardChecks::remoteTokenInTargetPd, "the registration belongs to the target QP's PD");
    /** MR-REG-8. */
    public static final Piece<RuleCheck<RemoteAccessRequest>> MR_REG_8 = check("MR-REG-8",
            StandardChecks::remoteAccessPermitted, "read needs remote read, write needs remote write");
    /** MR-REG-4. */
    public static final Piece<RuleCheck<RemoteAccessRequest>> MR_REG_4 = check("MR-REG-4",
            StandardChecks::remoteWithinBounds, "the access lies in [base, base + Length) (the bounds piece decides)");

    // ---------------------------------------------------------------- local SGEs

    /** SGE-2/token. */
    public static final Piece<RuleCheck<LocalAccessRequest>> SGE_2_TOKEN = check("SGE-2/token",
            StandardChecks::localTokenValid, "the SGE token names a live registration or the privileged token of the QP's PD");
    /** SGE-1. */
    public static final Piece<RuleCheck<LocalAccessRequest>> SGE_1 = check("SGE-1",
            StandardChecks::localPrivilegedInLam, "with the privileged token the SGE lies in one live LAM");
    /** SGE-2/bounds. */
    public static final Piece<RuleCheck<LocalAccessRequest>> SGE_2_BOUNDS = check("SGE-2/bounds",
            StandardChecks::localWithinBounds, "the SGE lies inside its registration (the bounds piece decides)");
    /** MR-FR-12. */
    public static final Piece<RuleCheck<LocalAccessRequest>> MR_FR_12 = check("MR-FR-12",
            StandardChecks::localSinkWritable, "a sink SGE needs local-write access");
    /** MR-REG-6. */
    public static final Piece<RuleCheck<LocalAccessRequest>> MR_REG_6 = check("MR-REG-6",
            StandardChecks::localReadSinkRegistered, "without RDMA_READ_SINK_NOT_REQUIRED a read sink needs RDMA_READ_SINK");

    // ---------------------------------------------------------------- remote invalidation

    /** INV-1/remote. */
    public static final Piece<RuleCheck<RemoteInvalidateRequest>> INV_1_REMOTE = check("INV-1/remote",
            StandardChecks::remoteInvalidateNeedsFastRegistration, "only a live fast registration of the PD can be invalidated remotely");

    // ---------------------------------------------------------------- data-path decisions

    /** {@code bounds}: byte-exact region bounds (used by MR-REG-4 and SGE-2/bounds). */
    public static final Piece<RegionBounds> BOUNDS = add(new Piece<>("bounds", RegionBounds.class,
            (RegionBounds) StandardChecks::byteExactBounds, "byte-exact, unsigned [base, base + Length)"));
    /** {@code frame-reach}: the part of an access past the last frame of its registration (the reference refuses it). */
    public static final Piece<FrameReach> FRAME_REACH = add(new Piece<>("frame-reach", FrameReach.class, FrameReach.REFUSE,
            "an access past the last page frame of its registration or LAM fails (a safety net no rule states)"));
    /** {@code fr-page-table}: the frames an accepted fast registration keeps (the reference: all it named). */
    public static final Piece<FrPageTable> FR_PAGE_TABLE = add(new Piece<>("fr-page-table", FrPageTable.class,
            (FrPageTable) (frames, initializedPageCount) -> frames,
            "a fast registration keeps every page frame its AdapterPageArray named"));
    /** {@code addressing}: which byte of a registration an address names. */
    public static final Piece<RegionAddressing> ADDRESSING = add(new Piece<>("addressing", RegionAddressing.class,
            (RegionAddressing) StandardChecks::absoluteAddressing, "absolute addresses: byte address - base"));
    /** {@code extent}: the bytes an NdkRegisterMr region covers. */
    public static final Piece<RegisteredExtent> EXTENT = add(new Piece<>("extent", RegisteredExtent.class,
            (RegisteredExtent) StandardChecks::lengthIsExtent, "an NdkRegisterMr region is Length bytes, not the chain"));
    /** {@code fbo-placement}: where a fast registration's first byte lies in its first page. */
    public static final Piece<FboPlacement> FBO_PLACEMENT = add(new Piece<>("fbo-placement", FboPlacement.class,
            (FboPlacement) StandardChecks::fboIsFirstByteOffset, "BaseVirtualAddress + k is byte FBO + k of the pages"));
    /** {@code mr-access-flags}: NDK_MR_FLAG_* to access rights. */
    public static final Piece<MrAccessFlags> MR_ACCESS_FLAGS = add(new Piece<>("mr-access-flags", MrAccessFlags.class,
            (MrAccessFlags) StandardChecks::mrFlagsToAccess, "composite flags tested whole; 0x4 alone grants nothing"));
    /** {@code fr-access-flags}: NDK_OP_FLAG_* of NdkFastRegister to access rights. */
    public static final Piece<FrAccessFlags> FR_ACCESS_FLAGS = add(new Piece<>("fr-access-flags", FrAccessFlags.class,
            (FrAccessFlags) StandardChecks::frFlagsToAccess, "composite flags tested whole; 0x20 alone grants nothing"));
    /** {@code token-allocator}: fresh, unique tokens. */
    public static final Piece<TokenAllocator.Factory> TOKEN_ALLOCATOR = add(new Piece<>("token-allocator",
            TokenAllocator.Factory.class, (TokenAllocator.Factory) StandardChecks::scramblingAllocator,
            "fresh 32-bit tokens, never 0, never one in use, no reuse before 2^32 allocations"));
    /** {@code token-retirement}: which events retire a token. */
    public static final Piece<TokenRetirement> TOKEN_RETIREMENT = add(new Piece<>("token-retirement",
            TokenRetirement.class, (TokenRetirement) StandardChecks::alwaysRetire,
            "deregistration, invalidation and close retire the token"));

    /** {@code invalid-token-abort}: a SendAndInvalidate naming an invalid token aborts the connection (INV-6). */
    public static final Piece<InvalidTokenAbort> INVALID_TOKEN_ABORT = add(new Piece<>("invalid-token-abort",
            InvalidTokenAbort.class, (InvalidTokenAbort) StandardChecks::abortOnInvalidToken,
            "an invalid SendAndInvalidate token aborts the connection: both QPs flush and stay flushed"));

    /** {@code late-failure}: a failed inline check of NdkFastRegister reported through the CQ entry (AMB-11). */
    public static final Piece<LateFailure> LATE_FAILURE = add(new Piece<>("late-failure", LateFailure.class,
            (LateFailure) StandardChecks::failInline, "every failed inline check of NdkFastRegister fails the call inline"));

    /** {@code read-bounds-at-post}: NdkRead past the remote region's end refused inline (AMB-7). */
    public static final Piece<ReadBoundsAtPost> READ_BOUNDS_AT_POST = add(new Piece<>("read-bounds-at-post",
            ReadBoundsAtPost.class, (ReadBoundsAtPost) StandardChecks::readBoundsWhenProcessed,
            "a Read past the remote region's end fails when processed (STATUS_REMOTE_RESOURCES in its CQ entry)"));

    // ---------------------------------------------------------------- stages

    /** The checks of NdkRegisterMr, in order. */
    public static final List<Piece<RuleCheck<RegisterMrRequest>>> REGISTER_MR = List.of(MR_CREATE_1,
            AMB_13_REGISTER, MR_REG_11, MR_REG_12, MR_REG_13, MR_REG_2, MR_REG_2_SPLIT_PAGE, MR_REG_14, MR_REG_10, MR_REG_7);
    /** The checks of NdkDeregisterMr. */
    public static final List<Piece<RuleCheck<DeregisterMrRequest>>> DEREGISTER_MR = List.of(MR_DEREG_1);
    /** The checks of NdkBuildLam, in order. */
    public static final List<Piece<RuleCheck<BuildLamRequest>>> BUILD_LAM = List.of(LAM_1_ZERO_LENGTH, LAM_1_WRAP,
            LAM_1_CHAIN_TOO_SHORT, LAM_2, LAM_2_SPLIT_PAGE, LAM_3);
    /** The checks of NdkInitializeFastRegisterMr, in order. */
    public static final List<Piece<RuleCheck<InitializeFastRegisterRequest>>> INITIALIZE_FAST_REGISTER =
            List.of(MR_FRI_1, MR_FRI_2_ZERO, MR_FRI_3);
    /** The checks of NdkFastRegister, in order (all inline). */
    public static final List<Piece<RuleCheck<FastRegisterRequest>>> FAST_REGISTER = List.of(MR_FR_7, MR_FR_1,
            MR_FR_5, MR_FR_19, MR_FR_6, MR_FR_18, MR_FR_2_ARRAY_LENGTH, MR_FR_16, MR_FR_14, MR_FR_3, MR_FR_4,
            MR_FR_15, MR_FR_17, MR_FR_2, MR_FR_11);
    /** The inline checks of NdkInvalidate, in order. */
    public static final List<Piece<RuleCheck<InvalidateRequest>>> INVALIDATE = List.of(INV_2, INV_1, INV_3_FLAGS);
    /** The inline checks of NdkRead, NdkWrite, NdkSend, NdkSendAndInvalidate, NdkReceive, in order. */
    public static final List<Piece<RuleCheck<PostRequest>>> POST = List.of(RW_2, SGE_COUNT, SGE_4, DEF_5,
            AI_3_MAX_TRANSFER);
    /** The checks of the target of NdkRead/NdkWrite when processed, in order. */
    public static final List<Piece<RuleCheck<RemoteAccessRequest>>> REMOTE_ACCESS = List.of(PRIV_2, RW_TOKEN,
            RW_TOKEN_PD, MR_REG_8, MR_REG_4);
    /** The checks of each local SGE when processed, in order. */
    public static final List<Piece<RuleCheck<LocalAccessRequest>>> LOCAL_ACCESS = List.of(SGE_2_TOKEN, SGE_1,
            SGE_2_BOUNDS, MR_FR_12, MR_REG_6);
    /** The checks of a remote (SendAndInvalidate) or read-local invalidation when processed. */
    public static final List<Piece<RuleCheck<RemoteInvalidateRequest>>> REMOTE_INVALIDATE = List.of(INV_1_REMOTE);

    /** Every piece, in declaration order. */
    public static final List<Piece<?>> ALL = Collections.unmodifiableList(new ArrayList<>(BY_ID.values()));

    /**
     * @param id a piece ID such as {@code MR-FR-4} or {@code bounds}
     * @return the piece, or empty when no piece has that ID
     */
    public static Optional<Piece<?>> byId(String id) {
        return Optional.ofNullable(BY_ID.get(id));
    }
}
