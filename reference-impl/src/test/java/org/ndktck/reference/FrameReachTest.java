package org.ndktck.reference;

import org.junit.jupiter.api.Test;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.ndktck.reference.Fixture.pattern;
import static org.ndktck.reference.Fixture.sge;

/**
 * No hidden safety net: the reference's refusal of an access past the last page frame of its registration (piece
 * {@code frame-reach}) is a safety net no rule states. With a bounds check removed it is what stops the access; a
 * variant without it lets the same access reach the frame that follows, so a fault built on it really touches
 * memory outside the region (and the kit's guard and byte checks are what must catch it).
 */
class FrameReachTest {
    private static final long TARGET_VA = 0x3000_0000L;
    private static final long LOCAL_VA = 0x5550_0000L;
    /** The region: the first half of one page. */
    private static final int LENGTH = 0x800;
    /** A peer write of 16 bytes from 8 bytes before the end of the region's page: 8 bytes past its last frame. */
    private static final int N = 16;

    /** What a write past the region's frames did. */
    private record Outcome(NtStatus status, List<HostMemory.GuardAccess> guards, byte[] inFrameOutsideRegion) {
    }

    private static Outcome writePastTheFrames(ReferenceProvider provider) {
        try (Fixture f = Fixture.open(provider)) {
            Mdl target = f.buffer(TARGET_VA, LENGTH);
            long next = f.memory.allocate(1); // the frame after the region's: a guard, whose accesses are recorded
            assertThat(next).isEqualTo(target.pfns()[0] + 1);
            f.memory.markGuard(next);
            NdkMr t = f.registered(target, LENGTH, 0x7);
            Mdl local = f.buffer(LOCAL_VA, N);
            NdkMr l = f.registered(local, N, 0x1);
            f.poke(local, 0, pattern(N, 9));
            int page = f.memory.pageSize();
            NtStatus st = f.completionOf(ctx -> f.qpA.write(ctx, sge(LOCAL_VA, N, l.getLocalToken()), TARGET_VA + page - N / 2,
                    t.getRemoteToken(), 0));
            byte[] tail = java.util.Arrays.copyOfRange(f.memory.snapshot(target.pfns()[0]), page - N / 2, page);
            return new Outcome(st, f.memory.guardAccesses(), tail);
        }
    }

    @Test
    void theReferenceRefusesTheAccessByItsBoundsCheck() {
        Outcome o = writePastTheFrames(new ReferenceProvider());
        assertThat(o.status()).isNotEqualTo(NtStatus.STATUS_SUCCESS);
        assertThat(o.guards()).isEmpty();
        assertThat(o.inFrameOutsideRegion()).containsOnly((byte) 0);
    }

    @Test
    void withTheBoundsCheckRemovedTheSafetyNetIsWhatRefusesIt() {
        Outcome o = writePastTheFrames(ReferenceProvider.builder().replace(Pieces.BOUNDS, (region, address, length) -> true).build());
        assertThat(o.status()).isEqualTo(NtStatus.STATUS_ACCESS_VIOLATION);
        assertThat(o.guards()).isEmpty();
    }

    @Test
    void withoutTheSafetyNetTheSameFaultReachesTheNextFrameAndTheBytesOutsideTheRegion() {
        Outcome o = writePastTheFrames(ReferenceProvider.builder().replace(Pieces.BOUNDS, (region, address, length) -> true)
                .replace(Pieces.FRAME_REACH, (lastFrame, pagesPast) -> lastFrame + pagesPast).build());
        assertThat(o.status()).isEqualTo(NtStatus.STATUS_SUCCESS);
        assertThat(o.guards()).isNotEmpty().allSatisfy(g -> assertThat(g.write()).isTrue());
        assertThat(o.guards().get(0).offset()).isZero();
        assertThat(o.inFrameOutsideRegion()).isEqualTo(java.util.Arrays.copyOf(pattern(N, 9), N / 2));
    }

    @Test
    void withoutTheSafetyNetButWithItsBoundsCheckTheReferenceStillRefuses() {
        Outcome o = writePastTheFrames(ReferenceProvider.builder().replace(Pieces.FRAME_REACH, (lastFrame, pagesPast) -> lastFrame + pagesPast)
                .build());
        assertThat(o.status()).isNotEqualTo(NtStatus.STATUS_SUCCESS);
        assertThat(o.guards()).isEmpty();
    }
}
