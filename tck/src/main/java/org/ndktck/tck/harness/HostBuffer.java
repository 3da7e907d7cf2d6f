package org.ndktck.tck.harness;

import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A buffer of page frames in {@link HostMemory}, consecutive or scattered ({@link HostMemory.FrameLayout}:
 * not adjacent, not in order), with guard frames before, after and between its frames
 * ({@link HostMemory#markGuard}), painted with a known pattern so the kit can tell afterwards
 * that no byte outside what a rule allows was changed.
 *
 * <p>Offsets into the buffer are byte offsets from the start of its first data frame (unsigned, in a
 * long: a buffer of 2^20 pages is 2^32 bytes). Small buffers ({@link #PAINT_LIMIT} pages or fewer) have
 * every frame painted and checked; larger ones are left sparse (zero, never stored) and only their guard
 * frames are checked, which keeps 2^20-page buffers free.
 *
 * <p>The kit declares the changes it expects ({@link #expectWrite}); {@link #firstDifference()} compares
 * every painted frame with the pattern plus those expected writes.
 */
public final class HostBuffer {
    /** Buffers of at most this many pages are painted and checked byte by byte. */
    public static final int PAINT_LIMIT = 64;

    private final HostMemory memory;
    private final int pageSize;
    private final int pages;
    private final long firstPfn;
    private final long[] pfns;
    private final boolean painted;
    private final int salt;
    private final HostMemory.FrameLayout layout;
    private final Map<Integer, byte[]> expected = new HashMap<>();

    /**
     * Allocates and paints a buffer of consecutive page frames (one guard frame before, one after).
     *
     * @param memory the session's host memory
     * @param pages  data pages, ≥ 1
     * @param salt   varies the pattern between buffers of one session
     */
    public HostBuffer(HostMemory memory, int pages, int salt) {
        this(memory, pages, salt, HostMemory.FrameLayout.CONSECUTIVE, 0);
    }

    /**
     * Allocates and paints a buffer whose page frames lie as {@code layout} says
     * ({@link HostMemory#allocate(int, HostMemory.FrameLayout, long)}: every frame between and around them
     * is a guard).
     *
     * @param memory the session's host memory
     * @param pages  data pages, ≥ 1
     * @param salt   varies the pattern between buffers of one session
     * @param layout how the frames lie
     * @param seed   seeds the layout
     */
    public HostBuffer(HostMemory memory, int pages, int salt, HostMemory.FrameLayout layout, long seed) {
        if (pages < 1) {
            throw new IllegalArgumentException("pages must be >= 1: " + pages);
        }
        this.memory = memory;
        this.pageSize = memory.pageSize();
        this.pages = pages;
        this.salt = salt;
        this.layout = layout;
        this.pfns = memory.allocate(pages, layout, seed);
        this.firstPfn = pfns[0];
        this.painted = pages <= PAINT_LIMIT;
        if (painted) {
            for (int i = 0; i < pages; i++) {
                memory.poke(pfns[i], 0, sharedPattern(i));
            }
        }
    }

    /** @return how the buffer's frames lie */
    public HostMemory.FrameLayout layout() {
        return layout;
    }

    /** @return true when page i + 1's frame is page i's frame + 1 for every page (one ascending run) */
    public boolean consecutive() {
        for (int i = 1; i < pages; i++) {
            if (pfns[i] != pfns[i - 1] + 1) {
                return false;
            }
        }
        return true;
    }

    /** @return a guard frame next to the first data frame (PFN − 1 or, for a descending buffer, PFN + 1) */
    public long guardNextToFirst() {
        return memory.isGuard(firstPfn - 1) ? firstPfn - 1 : firstPfn + 1;
    }

    /**
     * The kit's own write of buffer bytes (no guard access recorded), declared as expected: the source of a
     * peer's request, which may cross page boundaries of the buffer.
     *
     * @param offset buffer offset (unsigned), offset + data.length ≤ {@link #size()}
     * @param data   the bytes
     */
    public void put(long offset, byte[] data) {
        int done = 0;
        while (done < data.length) {
            long o = offset + done;
            int page = (int) (o / pageSize);
            int off = (int) (o % pageSize);
            int n = Math.min(data.length - done, pageSize - off);
            memory.poke(pfns[page], off, Arrays.copyOfRange(data, done, done + n));
            done += n;
        }
        expectWrite(offset, data);
    }

    /** @return data pages */
    public int pages() {
        return pages;
    }

    /** @return bytes: pages × PAGE_SIZE */
    public long size() {
        return (long) pages * pageSize;
    }

    /** @return whether every frame is painted and checked */
    public boolean painted() {
        return painted;
    }

    /** @return PFN of the first data frame (page 0; the other pages' frames need not follow it: {@link #pfn}) */
    public long firstPfn() {
        return firstPfn;
    }

    /** @param page a data page index @return its PFN */
    public long pfn(int page) {
        return pfns[page];
    }

    /**
     * Builds one MDL over part of the buffer.
     *
     * @param virtualAddress MmGetMdlVirtualAddress of the MDL (unsigned); its offset in the page is where the
     *                       region starts in the first frame
     * @param firstPage      the buffer page the MDL starts in
     * @param byteCount      ByteCount (ULONG in an int, unsigned)
     * @return the MDL; its PFNs are the buffer pages from {@code firstPage}
     * @throws IllegalArgumentException when the MDL would run past the buffer
     */
    public Mdl mdl(long virtualAddress, int firstPage, int byteCount) {
        int fbo = (int) (virtualAddress & (pageSize - 1));
        long span = Mdl.spanPages(fbo, Integer.toUnsignedLong(byteCount), pageSize);
        if (firstPage < 0 || firstPage + span > pages) {
            throw new IllegalArgumentException("MDL of " + span + " pages from page " + firstPage + " leaves a buffer of " + pages);
        }
        return Mdl.of(pageSize, virtualAddress, byteCount, Arrays.copyOfRange(pfns, firstPage, (int) (firstPage + span)));
    }

    /**
     * @param page   data page
     * @param offset byte in it
     * @return the byte the kit expects there now
     */
    public byte expectedByte(int page, int offset) {
        byte[] e = expected.get(page);
        return e != null ? e[offset] : sharedPattern(page)[offset];
    }

    /**
     * Declares a change the kit expects (a write the rules allow).
     *
     * @param offset buffer offset of the first byte
     * @param data   the bytes expected there
     */
    public void expectWrite(long offset, byte[] data) {
        if (!painted) {
            return;
        }
        int done = 0;
        while (done < data.length) {
            long o = offset + done;
            int page = (int) (o / pageSize);
            int off = (int) (o % pageSize);
            int n = Math.min(data.length - done, pageSize - off);
            System.arraycopy(data, done, expected.computeIfAbsent(page, this::pattern), off, n);
            done += n;
        }
    }

    /**
     * The kit's own read of buffer bytes (no guard access recorded).
     *
     * @param offset buffer offset
     * @param length bytes
     * @return the bytes now in memory
     */
    public byte[] read(long offset, int length) {
        byte[] out = new byte[length];
        int done = 0;
        while (done < length) {
            long o = offset + done;
            int page = (int) (o / pageSize);
            int off = (int) (o % pageSize);
            int n = Math.min(length - done, pageSize - off);
            memory.peek(pfns[page], off, out, done, n);
            done += n;
        }
        return out;
    }

    /**
     * The bytes the kit expects at a range now.
     *
     * @param offset buffer offset
     * @param length bytes
     * @return the expected bytes
     */
    public byte[] expected(long offset, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            long o = offset + i;
            out[i] = painted ? expectedByte((int) (o / pageSize), (int) (o % pageSize)) : 0;
        }
        return out;
    }

    /** Accepts whatever a range holds now as expected (a local sink after a read whose result is not judged). */
    public void acceptActual(long offset, int length) {
        expectWrite(offset, read(offset, length));
    }

    /**
     * @return the first byte of a painted frame that differs from what the kit expects, described with
     *     its buffer offset, PFN, expected and actual value; or null when none does
     */
    public String firstDifference() {
        if (!painted) {
            return null;
        }
        for (int p = 0; p < pages; p++) {
            byte[] exp = expected.get(p);
            if (exp == null) {
                exp = sharedPattern(p);
            }
            if (memory.mismatch(pfns[p], exp) >= 0) {
                byte[] actual = memory.snapshot(pfns[p]);
                int i = Arrays.mismatch(actual, exp);
                if (i < 0) {
                    continue; // changed back between the two looks: the frame holds what is expected
                }
                int end = i;
                while (end < pageSize && actual[end] != exp[end]) {
                    end++;
                }
                return String.format("buffer byte 0x%X (PFN 0x%X + 0x%X): expected 0x%02X, found 0x%02X (%d changed byte(s) in a row from there)",
                        (long) p * pageSize + i, pfns[p], i, exp[i] & 0xFF, actual[i] & 0xFF, end - i);
            }
        }
        return null;
    }

    /**
     * The pattern of one page: a xorshift stream seeded by the page, the buffer's salt and PAGE_SIZE, so
     * every byte differs from its neighbours and from the same byte of other pages with high probability.
     */
    byte[] pattern(int page) {
        return PATTERNS.computeIfAbsent(((long) pageSize << 40) ^ ((long) salt << 20) ^ page, k -> makePattern(page)).clone();
    }

    private byte[] sharedPattern(int page) {
        return PATTERNS.computeIfAbsent(((long) pageSize << 40) ^ ((long) salt << 20) ^ page, k -> makePattern(page));
    }

    /** Patterns are pure functions of (PAGE_SIZE, salt, page): computed once per run. */
    private static final java.util.concurrent.ConcurrentHashMap<Long, byte[]> PATTERNS = new java.util.concurrent.ConcurrentHashMap<>();

    private byte[] makePattern(int page) {
        byte[] b = new byte[pageSize];
        long x = 0x9E3779B97F4A7C15L * (page + 1) ^ ((long) salt << 32) ^ 0x5DEECE66DL;
        for (int i = 0; i < pageSize; i += 8) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            for (int k = 0; k < 8; k++) {
                b[i + k] = (byte) (x >>> (k * 8));
            }
        }
        return b;
    }
}
