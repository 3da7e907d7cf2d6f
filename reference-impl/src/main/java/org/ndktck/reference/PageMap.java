package org.ndktck.reference;

import java.util.Arrays;

import org.ndktck.spec.Mdl;

/**
 * The page frames behind a registration or a LAM, in the order of its addresses.
 *
 * <p>Positions are byte offsets from the start of the region's first page (the page-aligned address
 * {@code base - firstByteOffset}); position p lies in frame {@code p / PAGE_SIZE + (joins at or before p)}
 * at offset {@code p mod PAGE_SIZE}. A join is a position where an MDL of a chain starts in the middle of a
 * page with a page frame other than the one the previous MDL ended in: from there on the frame index is one
 * higher. Chains whose MDLs meet at page boundaries (or share the frame of the page they meet in) have no
 * joins.
 *
 * <p>Memory: 8 bytes per frame plus 8 bytes per join, and every join adds a frame, so at most 16 bytes per
 * frame plus a constant. Lookups are O(log joins). Immutable.
 */
final class PageMap {
    /** The most frames one registration or LAM may hold: 2^24 (128 MiB of frame numbers). */
    static final long MAX_FRAMES = 1L << 24;

    private static final long[] NO_JOINS = new long[0];

    private final int pageSize;
    private final long[] frames;
    private final long[] joins;

    private PageMap(int pageSize, long[] frames, long[] joins) {
        this.pageSize = pageSize;
        this.frames = frames;
        this.joins = joins;
    }

    /**
     * @param pageSize PAGE_SIZE
     * @param frames   page frame numbers, one per page, already copied (the map keeps the array)
     * @return a map without joins
     */
    static PageMap ofFrames(int pageSize, long[] frames) {
        return new PageMap(pageSize, frames, NO_JOINS);
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
        long firstOffset = first.virtualAddress() & mask;
        long[] frames = new long[16];
        int frameCount = 0;
        long[] joins = NO_JOINS;
        int joinCount = 0;
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
            int from = 0;
            if (walked > 1 && (m.byteOffset() & mask) != 0 && frameCount > 0) {
                if (pfns.length > 0 && pfns[0] == frames[frameCount - 1]) {
                    from = 1;
                } else {
                    if (joinCount == joins.length) {
                        joins = Arrays.copyOf(joins, Math.max(4, joinCount * 2));
                    }
                    joins[joinCount++] = firstOffset + covered;
                }
            }
            int adding = pagesTaken - from;
            if (adding > 0) {
                if ((long) frameCount + adding > MAX_FRAMES) {
                    return null;
                }
                if (frameCount + adding > frames.length) {
                    frames = Arrays.copyOf(frames, Math.max(frameCount + adding, frames.length * 2));
                }
                System.arraycopy(pfns, from, frames, frameCount, adding);
                frameCount += adding;
            }
            covered = Unsigned.saturatingAdd(covered, take);
        }
        return new PageMap(pageSize, Arrays.copyOf(frames, frameCount), Arrays.copyOf(joins, joinCount));
    }

    /** @return the number of frames */
    int frameCount() {
        return frames.length;
    }

    /** @return a copy of frames [from, to) (indices of frames, not bytes) */
    long[] framesCopy(int from, int to) {
        return Arrays.copyOfRange(frames, from, to);
    }

    /** @return a copy of the frames */
    long[] framesCopy() {
        return frames.clone();
    }

    /** @return the number of joins */
    int joinCount() {
        return joins.length;
    }

    /**
     * @param position byte offset from the start of the first page (unsigned)
     * @return the index of the frame holding that byte, or -1 when no frame backs it
     */
    int frameIndex(long position) {
        long virtualPage = Long.divideUnsigned(position, pageSize);
        if (virtualPage >= frames.length) {
            return -1;
        }
        long index = virtualPage + joinsAtOrBefore(position);
        return index < frames.length ? (int) index : -1;
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
        return frameIndex(position) >= 0 && frameIndex(position + length - 1) >= 0;
    }

    /**
     * @param position byte offset from the start of the first page (unsigned), backed by a frame
     * @return how many bytes from {@code position} on lie in the same frame, contiguously: up to the end of
     *     the page or the next join, whichever comes first (at least 1)
     */
    long runFrom(long position) {
        long toPageEnd = pageSize - Long.remainderUnsigned(position, pageSize);
        int k = joinsAtOrBefore(position);
        if (k < joins.length) {
            long toJoin = joins[k] - position;
            if (Long.compareUnsigned(toJoin, toPageEnd) < 0) {
                return toJoin;
            }
        }
        return toPageEnd;
    }

    private int joinsAtOrBefore(long position) {
        if (joins.length == 0 || Long.compareUnsigned(position, joins[0]) < 0) {
            return 0;
        }
        int lo = 0;
        int hi = joins.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Long.compareUnsigned(joins[mid], position) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo + 1;
    }
}
