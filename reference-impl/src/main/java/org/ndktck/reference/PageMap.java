package org.ndktck.reference;

import java.util.Arrays;

import org.ndktck.spec.Mdl;

/**
 * The page frames behind a registration or a LAM, in the order of its addresses.
 *
 * <p>Positions are byte offsets from the start of the region's first page (the page-aligned address
 * {@code base - firstByteOffset}); position p lies in frame {@code p / PAGE_SIZE} at offset
 * {@code p mod PAGE_SIZE}. An MDL of a chain that starts in the middle of a page continues the page the
 * previous MDL ended in, so its first PFN is that page's frame and is not added again. (A chain whose MDLs meet
 * mid-page with different PFNs puts one page in two frames; NdkRegisterMr and NdkBuildLam refuse it before a
 * map is built: MR-REG-2/split-page, LAM-2/split-page.)
 *
 * <p>Memory: 8 bytes per frame plus a constant. Immutable.
 */
final class PageMap {
    /** The most frames one registration or LAM may hold: 2^24 (128 MiB of frame numbers). */
    static final long MAX_FRAMES = 1L << 24;

    private final int pageSize;
    private final long[] frames;

    private PageMap(int pageSize, long[] frames) {
        this.pageSize = pageSize;
        this.frames = frames;
    }

    /**
     * @param pageSize PAGE_SIZE
     * @param frames   page frame numbers, one per page, already copied (the map keeps the array)
     * @return the map
     */
    static PageMap ofFrames(int pageSize, long[] frames) {
        return new PageMap(pageSize, frames);
    }

    /**
     * Collects the frames of the first {@code extent} bytes of an MDL chain. Walks at most {@code maxMdls}
     * MDLs (so a cyclic chain that a faulty check let through still ends) and stops early when the chain
     * ends; the map then simply has fewer frames.
     *
     * @param first    the first MDL
     * @param extent   bytes to cover (unsigned)
     * @param maxMdls  the most MDLs to walk
     * @param pageSize PAGE_SIZE
     * @return the map, or null when it would need more than {@link #MAX_FRAMES} frames
     */
    static PageMap fromChain(Mdl first, long extent, long maxMdls, int pageSize) {
        long mask = pageSize - 1L;
        long[] frames = new long[16];
        int frameCount = 0;
        long covered = 0;
        long walked = 0;
        for (Mdl m = first; m != null && walked < maxMdls && Long.compareUnsigned(covered, extent) < 0;
             m = m.next()) {
            walked++;
            long bytes = m.unsignedByteCount();
            if (bytes == 0) {
                continue;
            }
            long take = Long.compareUnsigned(bytes, extent - covered) < 0 ? bytes : extent - covered;
            long[] pfns = m.pfns();
            int pagesTaken = (int) Math.min(pfns.length, Mdl.spanPages(m.byteOffset(), take, pageSize));
            // An MDL that starts mid-page continues the previous MDL's last page: its first frame is already there.
            int from = frameCount > 0 && (m.byteOffset() & mask) != 0 ? 1 : 0;
            // take > 0 and an MDL with bytes has a PFN, so pagesTaken >= 1 >= from: adding >= 0
            int adding = pagesTaken - from;
            if ((long) frameCount + adding > MAX_FRAMES) {
                return null;
            }
            if (frameCount + adding > frames.length) {
                frames = Arrays.copyOf(frames, Math.max(frameCount + adding, frames.length * 2));
            }
            System.arraycopy(pfns, from, frames, frameCount, adding);
            frameCount += adding;
            covered = Unsigned.saturatingAdd(covered, take);
        }
        return new PageMap(pageSize, Arrays.copyOf(frames, frameCount));
    }

    /** @return the number of frames */
    int frameCount() {
        return frames.length;
    }

    /** @return a copy of frames [from, to) (indices of frames, not bytes) */
    long[] framesCopy(int from, int to) {
        return Arrays.copyOfRange(frames, from, to);
    }

    /**
     * @param position byte offset from the start of the first page (unsigned)
     * @return the index of the frame holding that byte, or -1 when no frame backs it
     */
    int frameIndex(long position) {
        long virtualPage = Long.divideUnsigned(position, pageSize);
        return virtualPage < frames.length ? (int) virtualPage : -1;
    }

    /** @return the page frame number of frame {@code index} */
    long frame(int index) {
        return frames[index];
    }

    /**
     * @param position byte offset from the start of the first page (unsigned)
     * @param length   bytes (unsigned)
     * @return true when a frame backs every byte of [position, position + length); true for length 0
     */
    boolean backs(long position, long length) {
        if (length == 0) {
            return true;
        }
        if (Unsigned.lastByteWraps(position, length)) {
            return false;
        }
        return frameIndex(position + length - 1) >= 0;
    }

    /** The most pages past its last frame that {@link #reaching} extends a map by. */
    static final int MAX_REACH_PAGES = 16;

    /**
     * A map that also backs [position, position + length) with the frames {@code reach} names past the last one
     * (piece {@code frame-reach}).
     *
     * @param position byte offset from the start of the first page (unsigned)
     * @param length   bytes (unsigned, at least 1)
     * @param reach    the piece
     * @return the wider map, or null when the range starts before the map, wraps, needs more than
     *         {@link #MAX_REACH_PAGES} pages more, or {@code reach} refuses a page
     */
    PageMap reaching(long position, long length, FrameReach reach) {
        if (frames.length == 0 || length == 0 || Unsigned.lastByteWraps(position, length)) {
            return null;
        }
        long lastPage = Long.divideUnsigned(position + length - 1, pageSize);
        if (lastPage < frames.length || lastPage < 0 || lastPage - frames.length >= MAX_REACH_PAGES) {
            return null;
        }
        long[] wider = Arrays.copyOf(frames, (int) lastPage + 1);
        for (int i = frames.length; i < wider.length; i++) {
            long f = reach.frameBeyond(frames[frames.length - 1], i - frames.length + 1L);
            if (f < 0) {
                return null;
            }
            wider[i] = f;
        }
        return new PageMap(pageSize, wider);
    }

    /**
     * @param position byte offset from the start of the first page (unsigned), backed by a frame
     * @return how many bytes from {@code position} on lie in the same frame: up to the end of the page (at least 1)
     */
    long runFrom(long position) {
        return pageSize - Long.remainderUnsigned(position, pageSize);
    }
}
