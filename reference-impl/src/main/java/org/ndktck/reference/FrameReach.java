package org.ndktck.reference;

/**
 * Data-path piece {@code frame-reach}: what the adapter's DMA does with the part of an access that lies past the
 * last page frame of its registration or LAM. No rule states this: every access the bounds allow lies inside the
 * frames (MR-REG-1, MR-FR-3, the bounds of each access), so only a variant that breaks a bounds check gets here.
 * The reference refuses such an access (STATUS_ACCESS_VIOLATION), a safety net of the model; a variant that
 * models a device without it names the frame its DMA uses instead, so a fault that removes a bounds check really
 * reaches the memory past the region (no hidden safety net decides a verdict). Called with the
 * adapter's lock held: must not block.
 */
@FunctionalInterface
public interface FrameReach {
    /** The reference's safety net: no frame past the last one; the access fails. */
    FrameReach REFUSE = (lastFrame, pagesPast) -> -1;

    /**
     * @param lastFrame the page frame number of the registration's (or LAM's) last frame
     * @param pagesPast 1 for the page right after it, 2 for the next, and so on
     * @return the page frame number the DMA uses for that page, or a negative value: the access fails
     */
    long frameBeyond(long lastFrame, long pagesPast);
}
