package org.ndktck.spec;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The kit-side looks at host memory (peek, mismatch, whole-frame poke) see what the provider wrote and record no guard access. */
class HostMemoryTest {
    private static final int PAGE = 4096;

    @Test
    void mismatchFindsTheFirstDifferentByteAndMinusOneWhenEqual() {
        HostMemory m = new HostMemory(PAGE);
        long pfn = m.allocate(1);
        byte[] expected = new byte[PAGE];
        assertThat(m.mismatch(pfn, expected)).as("a frame never written reads as zeros").isEqualTo(-1);
        m.write(pfn, 100, new byte[] {7, 8}, 0, 2);
        assertThat(m.mismatch(pfn, expected)).isEqualTo(100);
        expected[100] = 7;
        expected[101] = 8;
        assertThat(m.mismatch(pfn, expected)).isEqualTo(-1);
        expected[PAGE - 1] = 1;
        assertThat(m.mismatch(pfn, expected)).isEqualTo(PAGE - 1);
        assertThatThrownBy(() -> m.mismatch(pfn, new byte[PAGE - 1])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWholeFramePokeKeepsItsOwnCopyAndAPartialOneKeepsTheRest() {
        HostMemory m = new HostMemory(PAGE);
        long pfn = m.allocate(1);
        byte[] all = new byte[PAGE];
        Arrays.fill(all, (byte) 0x5A);
        m.poke(pfn, 0, all);
        all[0] = 0; // the caller's array is not the frame
        assertThat(m.snapshot(pfn)[0]).isEqualTo((byte) 0x5A);
        m.poke(pfn, 10, new byte[] {1, 2, 3});
        byte[] now = m.snapshot(pfn);
        assertThat(now[9]).isEqualTo((byte) 0x5A);
        assertThat(Arrays.copyOfRange(now, 10, 13)).containsExactly(1, 2, 3);
        assertThat(now[13]).isEqualTo((byte) 0x5A);
        m.poke(pfn, 0, new byte[PAGE]); // a whole-frame poke of a frame that exists overwrites it
        assertThat(m.mismatch(pfn, new byte[PAGE])).isEqualTo(-1);
    }

    @Test
    void peekReadsARangeWithoutRecordingAGuardAccessAndReadRecordsIt() {
        HostMemory m = new HostMemory(PAGE);
        long pfn = m.allocate(1);
        m.markGuard(pfn);
        m.poke(pfn, 20, new byte[] {9, 9, 4});
        byte[] dst = new byte[5];
        m.peek(pfn, 20, dst, 1, 3);
        assertThat(dst).containsExactly(0, 9, 9, 4, 0);
        assertThat(m.guardAccesses()).isEmpty();
        m.read(pfn, 20, dst, 0, 3);
        assertThat(m.guardAccesses()).hasSize(1);
        assertThatThrownBy(() -> m.peek(pfn, PAGE - 1, dst, 0, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        long fresh = m.allocate(1);
        byte[] z = {1, 1};
        m.peek(fresh, 0, z, 0, 2);
        assertThat(z).containsExactly(0, 0);
    }
}
