package org.ndktck.tck.harness;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.ndktck.spec.HostMemory;

/**
 * Chooses how the page frames of the kit's buffers lie ({@link HostMemory.FrameLayout}), reproducibly: each
 * property starts from a seed derived from its own seed ({@link KitLifecycle}), each session of the property
 * draws the next seed of that stream, and each buffer of a session the next layout. A run with the same run
 * seed lays out every buffer the same way. Consecutive frames stay one layout among five, so most buffers of
 * more than one page are scattered (COV-2: a provider that assumes contiguous frames FAILs).
 */
public final class MemoryLayouts {
    private static volatile long propertySeed;
    private static final AtomicLong sessions = new AtomicLong();

    private MemoryLayouts() {
    }

    /**
     * Starts the layout stream of a property.
     *
     * @param seed the property's seed
     */
    static void startProperty(long seed) {
        propertySeed = seed;
        sessions.set(0);
    }

    /** @return a fresh layout random for one session */
    static SplittableRandom forSession() {
        return new SplittableRandom(propertySeed * 0x9E3779B97F4A7C15L + sessions.incrementAndGet());
    }

    /**
     * @param rnd the session's layout random
     * @return the layout of the session's next buffer: consecutive in one case of six, each scattered layout
     *     otherwise (shuffled pages twice as often as each other kind)
     */
    static HostMemory.FrameLayout next(SplittableRandom rnd) {
        return switch (rnd.nextInt(6)) {
            case 0 -> HostMemory.FrameLayout.CONSECUTIVE;
            case 1 -> HostMemory.FrameLayout.ASCENDING_WITH_GAPS;
            case 2 -> HostMemory.FrameLayout.DESCENDING;
            case 3, 4 -> HostMemory.FrameLayout.SHUFFLED;
            default -> HostMemory.FrameLayout.SHUFFLED_RUNS;
        };
    }
}
