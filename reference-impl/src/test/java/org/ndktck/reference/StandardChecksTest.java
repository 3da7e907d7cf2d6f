package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.ndktck.spec.NtStatus.STATUS_ACCESS_VIOLATION;
import static org.ndktck.spec.NtStatus.STATUS_BUFFER_TOO_SMALL;
import static org.ndktck.spec.NtStatus.STATUS_CONNECTION_INVALID;
import static org.ndktck.spec.NtStatus.STATUS_IMPLEMENTATION_LIMIT;
import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;

import java.util.Optional;
import java.util.function.LongPredicate;

import org.junit.jupiter.api.Test;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkVersion;
import org.ndktck.spec.NtStatus;

/** Each check of {@link StandardChecks} on hand-made request records, at its edges. */
class StandardChecksTest {
    static final int PS = 4096;
    static final ReferencePolicy POLICY = ReferencePolicy.standard();

    /** An adapter view whose live logical pages are those {@code live} accepts. */
    record FakeAdapter(ReferenceSettings settings, int adapterFlags, LongPredicate live) implements AdapterView {
        @Override
        public int pageSize() {
            return settings.pageSize();
        }
    }

    static final AdapterView ADAPTER = new FakeAdapter(ReferenceSettings.DEFAULTS,
            NdkAdapterFlags.RDMA_READ_SINK_NOT_REQUIRED, la -> la >= 0x8000_0000_0000L && (la & 0xFFF) == 0);
    static final AdapterView ADAPTER_1_1 = new FakeAdapter(new ReferenceSettings(ReferenceSettings.Completion.INLINE,
            true, NdkVersion.V1_1, PS, 1 << 20, 1L << 40, 100, 0), 0, la -> true);

    static final MrView READY = new MrView(true, MrState.INITIALIZED, true, 0xFFFF_FFFF, true);

    static long[] pages(int n) {
        long[] p = new long[n];
        for (int i = 0; i < n; i++) {
            p[i] = 0x8000_0000_0000L + (long) i * PS;
        }
        return p;
    }

    static FastRegisterRequest fr(MrView mr, int count, long[] pages, int fbo, long length, long bva, int flags) {
        return HandMadeRequests.fastRegister(ADAPTER, true, mr, count, pages, pages.length, fbo, length, bva, flags);
    }

    static Optional<String> firstFailingFr(FastRegisterRequest r) {
        return POLICY.firstFailure(Pieces.FAST_REGISTER, r).map(ReferencePolicy.Failure::id);
    }

    @Test
    void aValidFastRegistrationPassesEveryCheck() {
        assertThat(POLICY.firstFailure(Pieces.FAST_REGISTER, fr(READY, 4, pages(4), 0x40, 0x4000 - 0x40,
                0x7000040, 0x38))).isEmpty();
    }

    @Test
    void lengthFitsPagesComputedWithFboAndWithoutOverflow() {
        // length arithmetic: 1 page, FBO 0xF00, Length 0x200 needs 2 pages
        assertThat(firstFailingFr(fr(READY, 1, pages(1), 0xF00, 0x200, 0x7000F00, 0))).hasValue("MR-FR-3");
        assertThat(firstFailingFr(fr(READY, 1, pages(1), 0xF00, 0x100, 0x7000F00, 0))).isEmpty();
        assertThat(firstFailingFr(fr(READY, 1, pages(1), 0xF00, 0x101, 0x7000F00, 0))).hasValue("MR-FR-3");
        // counts whose byte size exceeds 2^32 and 2^44
        long[] many = new long[0];
        FastRegisterRequest huge = HandMadeRequests.fastRegister(ADAPTER, true, READY, 0xFFFF_FFFF, many, Integer.MAX_VALUE,
                0, 0xFFFF_FFFFL * PS, 0x10000000, 0);
        assertThat(StandardChecks.fastRegisterLengthFitsPages(huge)).isEqualTo(NtStatus.STATUS_SUCCESS);
        FastRegisterRequest over = HandMadeRequests.fastRegister(ADAPTER, true, READY, 0xFFFF_FFFF, many, Integer.MAX_VALUE,
                0, 0xFFFF_FFFFL * PS + 1, 0x10000000, 0);
        assertThat(StandardChecks.fastRegisterLengthFitsPages(over)).isEqualTo(STATUS_INVALID_PARAMETER);
        FastRegisterRequest topBit = HandMadeRequests.fastRegister(ADAPTER, true, READY, 0x10_0001, many, Integer.MAX_VALUE,
                0, 0x8000_0000_0000_0000L, 0x10000000, 0);
        assertThat(StandardChecks.fastRegisterLengthFitsPages(topBit)).isEqualTo(STATUS_INVALID_PARAMETER);
        FastRegisterRequest len32 = HandMadeRequests.fastRegister(ADAPTER, true, READY, 0x10_0001, many, Integer.MAX_VALUE,
                0, 0x1_0000_0000L + 1, 0x10000000, 0);
        assertThat(StandardChecks.fastRegisterLengthFitsPages(len32)).isEqualTo(NtStatus.STATUS_SUCCESS);
    }

    @Test
    void baseVirtualAddressIsTiedToFbo() {
        // length arithmetic: 4 pages, FBO 0x40, BaseVirtualAddress 0x50000
        assertThat(firstFailingFr(fr(READY, 4, pages(4), 0x40, 0x100, 0x50000, 0))).hasValue("MR-FR-4");
        assertThat(firstFailingFr(fr(READY, 4, pages(4), 0x40, 0x100, 0x50041, 0))).hasValue("MR-FR-4");
        assertThat(firstFailingFr(fr(READY, 4, pages(4), 0x40, 0x100, 0x50040, 0))).isEmpty();
        assertThat(firstFailingFr(fr(READY, 4, pages(4), 0, 0x100, 0, 0))).as("BVA 0 with FBO 0 (AMB-1)").isEmpty();
    }

    @Test
    void fboBeyondThePageIsRejected() {
        assertThat(firstFailingFr(fr(READY, 4, pages(4), PS, 0x100, 0x50000 + PS, 0))).hasValue("MR-FR-16");
        assertThat(firstFailingFr(fr(READY, 4, pages(4), -1, 0x100, 0x50000, 0))).hasValue("MR-FR-16");
        assertThat(firstFailingFr(fr(READY, 4, pages(4), PS - 1, 0x100, 0x50000 + PS - 1, 0))).isEmpty();
    }

    @Test
    void theRegionMustNotWrap() {
        assertThat(firstFailingFr(fr(READY, 4, pages(4), 0, 0x2000, 0xFFFF_FFFF_FFFF_F000L, 0))).hasValue("MR-FR-15");
        assertThat(firstFailingFr(fr(READY, 4, pages(4), 0, 0x1000, 0xFFFF_FFFF_FFFF_F000L, 0))).isEmpty();
    }

    @Test
    void pageCountAgainstInitializedCountAndArray() {
        MrView init256 = new MrView(true, MrState.INITIALIZED, true, 256, true);
        assertThat(firstFailingFr(fr(init256, 257, pages(257), 0, 0x1000, 0x10000, 0))).hasValue("MR-FR-18");
        assertThat(firstFailingFr(fr(init256, 256, pages(256), 0, 0x1000, 0x10000, 0))).isEmpty();
        assertThat(firstFailingFr(fr(init256, 0, pages(1), 0, 0x1000, 0x10000, 0))).hasValue("MR-FR-18");
        assertThat(firstFailingFr(fr(init256, 5, pages(4), 0, 0x1000, 0x10000, 0))).hasValue("MR-FR-2/array-length");
    }

    @Test
    void pagesAreAlignedLiveLamAddresses() {
        long[] p = pages(4);
        p[2] += 0x10;
        assertThat(firstFailingFr(fr(READY, 4, p, 0, 0x1000, 0x10000, 0))).hasValue("MR-FR-17");
        long[] raw = {0x1000, 0x2000};
        assertThat(firstFailingFr(fr(READY, 2, raw, 0, 0x1000, 0x10000, 0))).hasValue("MR-FR-2");
    }

    @Test
    void flags() {
        for (int bad : new int[] {0x4, 0x40, 0x100, 0x400, 0x8000_0000}) {
            assertThat(firstFailingFr(fr(READY, 1, pages(1), 0, 0x1000, 0x10000, bad))).as("0x%X", bad)
                    .hasValue("MR-FR-5");
        }
        assertThat(firstFailingFr(fr(READY, 1, pages(1), 0, 0x1000, 0x10000, 0x20))).hasValue("MR-FR-19");
        for (int good : new int[] {0x1, 0x2, 0x8, 0x10, 0x30, 0x80, 0x200, 0x2BB}) {
            assertThat(firstFailingFr(fr(READY, 1, pages(1), 0, 0x1000, 0x10000, good))).as("0x%X", good).isEmpty();
        }
        FastRegisterRequest defer11 = HandMadeRequests.fastRegister(ADAPTER_1_1, true, READY, 1, pages(1), 1, 0, 0x1000,
                0x10000, 0x200);
        assertThat(POLICY.firstFailure(Pieces.FAST_REGISTER, defer11).map(ReferencePolicy.Failure::id))
                .hasValue("MR-FR-5");
    }

    @Test
    void remoteFlagsNeedRemoteAccessAndConnectionComesFirst() {
        MrView local = new MrView(true, MrState.INITIALIZED, false, 4, true);
        for (int remote : new int[] {0x8, 0x30, 0x38}) {
            assertThat(POLICY.evaluate(Pieces.FAST_REGISTER, fr(local, 1, pages(1), 0, 0x1000, 0x10000, remote)))
                    .isEqualTo(STATUS_ACCESS_VIOLATION);
        }
        assertThat(POLICY.evaluate(Pieces.FAST_REGISTER, fr(local, 1, pages(1), 0, 0x1000, 0x10000, 0x10)))
                .isEqualTo(NtStatus.STATUS_SUCCESS);
        FastRegisterRequest unconnected = HandMadeRequests.fastRegister(ADAPTER, false, local, 0, pages(0), 0, -1, 0, 1, -1);
        assertThat(POLICY.evaluate(Pieces.FAST_REGISTER, unconnected)).isEqualTo(STATUS_CONNECTION_INVALID);
    }

    @Test
    void theMrMustBeReady() {
        for (MrView bad : new MrView[] {
            new MrView(false, MrState.CREATED, false, 0, true),
            new MrView(true, MrState.CREATED, true, 4, true),
            new MrView(true, MrState.FAST_REGISTERED, true, 4, true),
            new MrView(true, MrState.CLOSING, true, 4, true),
            new MrView(true, MrState.INITIALIZED, true, 4, false)}) {
            assertThat(firstFailingFr(fr(bad, 1, pages(1), 0, 0x1000, 0x10000, 0))).as("%s", bad).hasValue("MR-FR-1");
        }
        assertThat(firstFailingFr(fr(new MrView(true, MrState.INVALIDATED, true, 4, true), 1, pages(1), 0, 0x1000,
                0x10000, 0))).isEmpty();
    }

    @Test
    void initializeFastRegisterLimits() {
        MrView fresh = new MrView(true, MrState.CREATED, false, 0, true);
        assertThat(POLICY.evaluate(Pieces.INITIALIZE_FAST_REGISTER,
                new InitializeFastRegisterRequest(ADAPTER, fresh, 1 << 20, true))).isEqualTo(NtStatus.STATUS_SUCCESS);
        assertThat(POLICY.evaluate(Pieces.INITIALIZE_FAST_REGISTER,
                new InitializeFastRegisterRequest(ADAPTER, fresh, (1 << 20) + 1, true))).isEqualTo(STATUS_IMPLEMENTATION_LIMIT);
        assertThat(POLICY.evaluate(Pieces.INITIALIZE_FAST_REGISTER,
                new InitializeFastRegisterRequest(ADAPTER, fresh, 0x7FFF_FFFF, true))).isEqualTo(STATUS_IMPLEMENTATION_LIMIT);
        assertThat(POLICY.evaluate(Pieces.INITIALIZE_FAST_REGISTER,
                new InitializeFastRegisterRequest(ADAPTER, fresh, -1, true))).isEqualTo(STATUS_IMPLEMENTATION_LIMIT);
        assertThat(POLICY.evaluate(Pieces.INITIALIZE_FAST_REGISTER,
                new InitializeFastRegisterRequest(ADAPTER, fresh, 0, true))).isEqualTo(STATUS_INVALID_PARAMETER);
        assertThat(POLICY.evaluate(Pieces.INITIALIZE_FAST_REGISTER, new InitializeFastRegisterRequest(ADAPTER,
                new MrView(false, MrState.CREATED, false, 0, true), 16, true))).isEqualTo(STATUS_INVALID_PARAMETER);
    }

    @Test
    void registerLengthsAreComparedUnsigned() {
        Mdl m = Mdl.of(PS, 0x10000, 0x1000, new long[] {0x100});
        for (long length : new long[] {0x8000_0000L, 0x1_0000_0000L, 0x1_0000_0800L, Long.MIN_VALUE, -0x20000L}) {
            RegisterMrRequest r = new RegisterMrRequest(ADAPTER, new MrView(false, MrState.CREATED, false, 0, true),
                    m, MdlChainSummary.walk(m, length, PS), length, 0);
            assertThat(POLICY.firstFailure(Pieces.REGISTER_MR, r).map(ReferencePolicy.Failure::id))
                    .as("0x%X", length).hasValue("MR-REG-13");
        }
    }

    @Test
    void lamBufferSizeAndPagesNeeded() {
        Mdl m = Mdl.of(PS, 0x10F00, 0x200, new long[] {0x100, 0x101});
        BuildLamRequest small = new BuildLamRequest(ADAPTER, m, MdlChainSummary.walk(m, 0x200, PS), 0x200, 31);
        assertThat(small.pagesNeeded()).isEqualTo(2);
        assertThat(small.bytesNeeded()).isEqualTo(32);
        assertThat(POLICY.evaluate(Pieces.BUILD_LAM, small)).isEqualTo(STATUS_BUFFER_TOO_SMALL);
        BuildLamRequest enough = new BuildLamRequest(ADAPTER, m, MdlChainSummary.walk(m, 0x200, PS), 0x200, 32);
        assertThat(POLICY.evaluate(Pieces.BUILD_LAM, enough)).isEqualTo(NtStatus.STATUS_SUCCESS);
        BuildLamRequest huge = new BuildLamRequest(ADAPTER, m, MdlChainSummary.walk(m, -1L, PS), -1L, -1);
        assertThat(huge.pagesNeeded()).isEqualTo(0x10_0000_0000_0001L);
        assertThat(huge.bytesNeeded()).isEqualTo(16 + 8 * 0x10_0000_0000_0001L);
        assertThat(StandardChecks.lamBufferLargeEnough(huge)).as("a size no ULONG can carry")
                .isEqualTo(STATUS_INVALID_PARAMETER);
    }

    @Test
    void boundsAreByteExactAndUnsigned() {
        RegionView r = new RegionView() {
            public int token() { return 1; }
            public long base() { return 0xFFFF_FFFF_FFFF_F000L; }
            public long length() { return 0x1000; }
            public int firstByteOffset() { return 0; }
            public int pageSize() { return PS; }
            public int access() { return 0; }
            public boolean fastRegistered() { return false; }
            public boolean live() { return true; }
        };
        assertThat(StandardChecks.byteExactBounds(r, 0xFFFF_FFFF_FFFF_F000L, 0x1000)).isTrue();
        assertThat(StandardChecks.byteExactBounds(r, 0xFFFF_FFFF_FFFF_FFFFL, 1)).isTrue();
        assertThat(StandardChecks.byteExactBounds(r, 0xFFFF_FFFF_FFFF_FFFFL, 2)).isFalse();
        assertThat(StandardChecks.byteExactBounds(r, 0xFFFF_FFFF_FFFF_EFFFL, 1)).isFalse();
        assertThat(StandardChecks.byteExactBounds(r, 0, 0)).isFalse();
        assertThat(StandardChecks.byteExactBounds(r, 0xFFFF_FFFF_FFFF_F800L, -1L)).isFalse();
    }

    @Test
    void flagInterpretationTestsCompositesWhole() {
        assertThat(StandardChecks.mrFlagsToAccess(0x4)).isZero();
        assertThat(StandardChecks.mrFlagsToAccess(0x5)).isEqualTo(Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        assertThat(StandardChecks.mrFlagsToAccess(0xA)).isEqualTo(Access.REMOTE_READ | Access.READ_SINK);
        assertThat(StandardChecks.frFlagsToAccess(0x20)).isZero();
        assertThat(StandardChecks.frFlagsToAccess(0x30)).isEqualTo(Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        assertThat(StandardChecks.frFlagsToAccess(0x88)).isEqualTo(Access.REMOTE_READ | Access.READ_SINK);
    }

    @Test
    void theTokenAllocatorNeverRepeatsAndSkipsTokensInUse() {
        TokenAllocator a = StandardChecks.scramblingAllocator(42);
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            int t = a.allocate(new TokenRequest(TokenPurpose.REGISTER, 0, x -> false));
            assertThat(t).isNotZero();
            assertThat(seen.add(t)).isTrue();
        }
        TokenAllocator b = StandardChecks.scramblingAllocator(42);
        int first = b.allocate(new TokenRequest(TokenPurpose.REGISTER, 0, x -> false));
        TokenAllocator c = StandardChecks.scramblingAllocator(42);
        assertThat(c.allocate(new TokenRequest(TokenPurpose.REGISTER, 0, x -> x == first))).isNotEqualTo(first);
    }

    @Test
    void everyPieceHasAUniqueIdAndItsStandardImplementation() {
        assertThat(Pieces.ALL).extracting(Piece::id).doesNotHaveDuplicates();
        for (Piece<?> p : Pieces.ALL) {
            assertThat(POLICY.get(p)).isSameAs(p.standard());
            assertThat(Pieces.byId(p.id())).containsSame(p);
        }
        assertThat(Pieces.byId("no such piece")).isEmpty();
    }
}
