package org.ndktck.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The host's physical memory as the kit simulates it: page frames of {@link #pageSize()} bytes, numbered
 * by page frame number (PFN, an unsigned 64-bit value in a long). The kit owns it, builds {@link Mdl}s over
 * it and hands it to the adapter when it opens it; a provider moves data only through these page frames
 * (the DMA of a real adapter), never through an MDL's virtual address (MR-REG-3, LAM-5).
 *
 * <p>Memory is sparse: a frame takes storage only once written, and reads of a never-written frame
 * give zeros, so arrays of 2^20 pages (4 GiB at 4096 bytes a page) cost nothing until touched.
 *
 * <p>Guard frames: the kit marks frames around every buffer as guards. Any read or write of a guard
 * frame by the provider is recorded as a {@link GuardAccess} (and still performed), so an access outside
 * a region is caught even when it lands in memory the kit never looks at. Thread-safe.
 */
public final class HostMemory {

    /** One access of a guard frame: which frame, the byte offset in it, the length, and whether it wrote. */
    public record GuardAccess(long pfn, int offset, int length, boolean write) {
        @Override
        public String toString() {
            return String.format("%s of %d bytes at PFN 0x%X + 0x%X", write ? "write" : "read", length, pfn, offset);
        }
    }

    private final int pageSize;
    private final AtomicLong nextPfn;
    private final ConcurrentHashMap<Long, byte[]> frames = new ConcurrentHashMap<>();
    private final Set<Long> guards = ConcurrentHashMap.newKeySet();
    private final List<GuardAccess> guardAccesses = new ArrayList<>();

    /**
     * @param pageSize PAGE_SIZE in bytes: a power of two, at least 4096
     * @throws IllegalArgumentException when {@code pageSize} is not a power of two of at least 4096
     */
    public HostMemory(int pageSize) {
        if (pageSize < 4096 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("PAGE_SIZE must be a power of two >= 4096, got " + pageSize);
        }
        this.pageSize = pageSize;
        this.nextPfn = new AtomicLong(0x100);
    }

    /** @return PAGE_SIZE in bytes */
    public int pageSize() {
        return pageSize;
    }

    /**
     * Allocates {@code count} fresh page frames with consecutive PFNs (content zero).
     *
     * @param count number of frames, ≥ 1
     * @return the PFN of the first frame
     * @throws IllegalArgumentException when {@code count} &lt; 1
     */
    public long allocate(long count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1: " + count);
        }
        return nextPfn.getAndAdd(count);
    }

    /**
     * How the page frames of one {@link #allocate(int, FrameLayout, long)} lie in PFN space. Real hosts hand a
     * driver frames in any order with holes between them; a provider that assumes the frames of a region, of a
     * page run or of one access follow each other is wrong on every layout but {@link #CONSECUTIVE}.
     */
    public enum FrameLayout {
        /** Consecutive ascending PFNs (one run), as {@link #allocate(long)} gives. */
        CONSECUTIVE,
        /** Ascending PFNs with one to three guard frames between pages (or between runs of a large allocation). */
        ASCENDING_WITH_GAPS,
        /** Consecutive PFNs in descending order: page i is frame (last − i). */
        DESCENDING,
        /** Every page (or run of a large allocation) in a random order, one to three guard frames between them. */
        SHUFFLED,
        /** Runs of one to four consecutive frames in a random order, one to three guard frames between runs. */
        SHUFFLED_RUNS
    }

    /** The most runs (and so the most gaps of guard frames) one scattered allocation is split into. */
    public static final int MAX_RUNS = 64;

    /**
     * Allocates {@code count} fresh page frames (content zero) laid out as {@code layout} says, reproducibly
     * from {@code seed}. Frames are reserved in one block of fresh PFNs; every frame of the block that is not
     * returned (a gap between runs, one before the block's first run and one after its last) is marked as a
     * guard ({@link #markGuard}), so a provider that steps from a returned frame to its PFN neighbour
     * touches a guard frame or another page of the same allocation, never memory the kit does not watch.
     * An allocation of more than {@link #MAX_RUNS} pages is split into at most {@code MAX_RUNS} runs of
     * consecutive frames, so the guards of a 2^20-page allocation stay few.
     *
     * @param count  number of frames, 1 ≤ count ≤ 2^30
     * @param layout the layout
     * @param seed   seeds the run lengths, the order and the gaps
     * @return the PFNs, entry i the frame of page i (a fresh array)
     * @throws IllegalArgumentException when {@code count} is out of range or {@code layout} is null
     */
    public long[] allocate(int count, FrameLayout layout, long seed) {
        if (count < 1 || count > (1 << 30) || layout == null) {
            throw new IllegalArgumentException("count must be in [1, 2^30] and layout given: " + count + ", " + layout);
        }
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        long[] pfns = new long[count];
        if (layout == FrameLayout.CONSECUTIVE || layout == FrameLayout.DESCENDING || count == 1) {
            long guardBefore = nextPfn.getAndAdd(count + 2L);
            markGuard(guardBefore);
            markGuard(guardBefore + count + 1);
            for (int i = 0; i < count; i++) {
                pfns[i] = layout == FrameLayout.DESCENDING ? guardBefore + count - i : guardBefore + 1 + i;
            }
            return pfns;
        }
        // run lengths, in page order
        int unit = (count + MAX_RUNS - 1) / MAX_RUNS;
        List<int[]> runs = new ArrayList<>(); // {first page, pages}
        for (int page = 0; page < count; ) {
            int len = layout == FrameLayout.SHUFFLED_RUNS ? unit * (1 + rnd.nextInt(4)) : unit;
            len = Math.min(len, count - page);
            runs.add(new int[]{page, len});
            page += len;
        }
        int[] order = new int[runs.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        if (layout != FrameLayout.ASCENDING_WITH_GAPS) {
            for (int i = order.length - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            if (order.length > 1 && isIdentity(order)) {
                int t = order[0];
                order[0] = order[1];
                order[1] = t;
            }
        }
        int[] gaps = new int[order.length + 1];
        long total = 0;
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = 1 + rnd.nextInt(3);
            total += gaps[i];
        }
        total += count;
        long at = nextPfn.getAndAdd(total);
        for (int i = 0; i < order.length; i++) {
            for (int g = 0; g < gaps[i]; g++) {
                markGuard(at++);
            }
            int[] run = runs.get(order[i]);
            for (int k = 0; k < run[1]; k++) {
                pfns[run[0] + k] = at++;
            }
        }
        for (int g = 0; g < gaps[order.length]; g++) {
            markGuard(at++);
        }
        return pfns;
    }

    private static boolean isIdentity(int[] order) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] != i) {
                return false;
            }
        }
        return true;
    }

    /**
     * Marks a frame as a guard: every later provider access of it is recorded.
     *
     * @param pfn the frame
     */
    public void markGuard(long pfn) {
        guards.add(pfn);
    }

    /** @return true when {@code pfn} is a guard frame */
    public boolean isGuard(long pfn) {
        return guards.contains(pfn);
    }

    /** @return the guard accesses so far, oldest first (a copy) */
    public List<GuardAccess> guardAccesses() {
        synchronized (guardAccesses) {
            return List.copyOf(guardAccesses);
        }
    }

    /**
     * Copies bytes out of one frame.
     *
     * @param pfn    the frame
     * @param offset byte offset in the frame, 0 ≤ offset; offset + length ≤ PAGE_SIZE
     * @param dst    destination
     * @param dstOff offset in {@code dst}
     * @param length bytes to copy
     * @throws IndexOutOfBoundsException when the range leaves the frame or {@code dst}
     */
    public void read(long pfn, int offset, byte[] dst, int dstOff, int length) {
        checkRange(offset, length);
        noteGuard(pfn, offset, length, false);
        peek(pfn, offset, dst, dstOff, length);
    }

    /**
     * Copies bytes into one frame.
     *
     * @param pfn    the frame
     * @param offset byte offset in the frame; offset + length ≤ PAGE_SIZE
     * @param src    source
     * @param srcOff offset in {@code src}
     * @param length bytes to copy
     * @throws IndexOutOfBoundsException when the range leaves the frame or {@code src}
     */
    public void write(long pfn, int offset, byte[] src, int srcOff, int length) {
        checkRange(offset, length);
        noteGuard(pfn, offset, length, true);
        byte[] frame = frames.computeIfAbsent(pfn, k -> new byte[pageSize]);
        synchronized (frame) {
            System.arraycopy(src, srcOff, frame, offset, length);
        }
    }

    /**
     * Kit side: fills a frame with one byte value without recording a guard access (used to paint
     * buffers and guard frames before a test).
     *
     * @param pfn   the frame
     * @param value the byte to fill with
     */
    public void fill(long pfn, byte value) {
        byte[] frame = frames.computeIfAbsent(pfn, k -> new byte[pageSize]);
        synchronized (frame) {
            java.util.Arrays.fill(frame, value);
        }
    }

    /**
     * Kit side: reads a frame's bytes without recording a guard access.
     *
     * @param pfn the frame
     * @return a copy of the frame, PAGE_SIZE bytes
     */
    public byte[] snapshot(long pfn) {
        byte[] frame = frames.get(pfn);
        if (frame == null) {
            return new byte[pageSize];
        }
        synchronized (frame) {
            return frame.clone();
        }
    }

    /**
     * Kit side: copies bytes out of one frame without recording a guard access (as {@link #read}, for the
     * kit's own looks at memory).
     *
     * @param pfn    the frame
     * @param offset byte offset in the frame, 0 ≤ offset; offset + length ≤ PAGE_SIZE
     * @param dst    destination
     * @param dstOff offset in {@code dst}
     * @param length bytes to copy
     * @throws IndexOutOfBoundsException when the range leaves the frame or {@code dst}
     */
    public void peek(long pfn, int offset, byte[] dst, int dstOff, int length) {
        checkRange(offset, length);
        byte[] frame = frames.get(pfn);
        if (frame == null) {
            java.util.Arrays.fill(dst, dstOff, dstOff + length, (byte) 0);
        } else {
            synchronized (frame) {
                System.arraycopy(frame, offset, dst, dstOff, length);
            }
        }
    }

    /**
     * Kit side: compares a frame's bytes with {@code expected} without recording a guard access or copying the
     * frame (a frame never written reads as zeros).
     *
     * @param pfn      the frame
     * @param expected PAGE_SIZE bytes
     * @return the first byte offset at which the frame differs from {@code expected}, or −1 when it equals it
     * @throws IllegalArgumentException when {@code expected} is not PAGE_SIZE bytes long
     */
    public int mismatch(long pfn, byte[] expected) {
        if (expected.length != pageSize) {
            throw new IllegalArgumentException("expected must be PAGE_SIZE (" + pageSize + ") bytes, got " + expected.length);
        }
        byte[] frame = frames.get(pfn);
        if (frame == null) {
            return java.util.Arrays.mismatch(new byte[pageSize], expected);
        }
        synchronized (frame) {
            return java.util.Arrays.mismatch(frame, expected);
        }
    }

    /**
     * Kit side: writes bytes into a frame without recording a guard access.
     *
     * @param pfn    the frame
     * @param offset byte offset in the frame
     * @param src    the bytes
     */
    public void poke(long pfn, int offset, byte[] src) {
        checkRange(offset, src.length);
        if (offset == 0 && src.length == pageSize && frames.putIfAbsent(pfn, src.clone()) == null) {
            return; // a fresh frame, all of it given: no zeroing first
        }
        byte[] frame = frames.computeIfAbsent(pfn, k -> new byte[pageSize]);
        synchronized (frame) {
            System.arraycopy(src, 0, frame, offset, src.length);
        }
    }

    private void checkRange(int offset, int length) {
        if (offset < 0 || length < 0 || offset > pageSize - length) {
            throw new IndexOutOfBoundsException("offset " + offset + " + length " + length + " leaves a page of " + pageSize);
        }
    }

    private void noteGuard(long pfn, int offset, int length, boolean write) {
        if (!guards.isEmpty() && guards.contains(pfn)) {
            synchronized (guardAccesses) {
                guardAccesses.add(new GuardAccess(pfn, offset, length, write));
            }
        }
    }
}
