package org.ndktck.tck.harness;

import org.ndktck.spec.HostMemory;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The try's host memory and the buffers the kit lays in it: each {@link HostBuffer} sits between guard frames
 * and is painted; its frames lie as the session's seeded layout stream says ({@link MemoryLayouts}). The memory
 * check finds any guard frame read or written and any painted byte that is not what the kit expects.
 */
public final class HostBuffers {
    private final HostMemory memory;
    private final List<HostBuffer> buffers = new ArrayList<>();
    /** Seeds the frame layout of each buffer of this session. */
    private final SplittableRandom layouts;

    HostBuffers(int pageSize) {
        this.memory = new HostMemory(pageSize);
        this.layouts = MemoryLayouts.forSession();
    }

    /** @return the try's host memory (the adapter is opened over it) */
    public HostMemory memory() {
        return memory;
    }

    /** @return how many buffers were allocated so far */
    int count() {
        return buffers.size();
    }

    /**
     * Allocates a guarded, painted buffer (see {@link HostBuffer}); it is checked when the session closes. Its
     * frames lie as the session's seeded layout stream says ({@link MemoryLayouts}): scattered in most
     * buffers, consecutive in some.
     *
     * @param pages data pages
     * @return the buffer
     */
    public HostBuffer allocate(int pages) {
        return allocate(pages, MemoryLayouts.next(layouts));
    }

    /**
     * Allocates a guarded, painted buffer whose frames lie as {@code layout} says.
     *
     * @param pages  data pages
     * @param layout how its frames lie ({@link HostMemory.FrameLayout})
     * @return the buffer
     */
    public HostBuffer allocate(int pages, HostMemory.FrameLayout layout) {
        HostBuffer b = new HostBuffer(memory, pages, buffers.size() + 1, layout, layouts.nextLong());
        buffers.add(b);
        return b;
    }

    /**
     * Checks the memory now: no guard frame touched and every painted byte as expected.
     *
     * @param ruleId the rule a breach breaks
     * @param what   what the kit did, built only on a failure
     */
    public void check(String ruleId, Supplier<String> what) {
        List<HostMemory.GuardAccess> g = memory.guardAccesses();
        if (!g.isEmpty()) {
            throw Violations.of(ruleId, what.get(), "no access outside the buffers the kit handed over (guard frames untouched)",
                    g.size() + " guard-frame access(es), first: " + g.get(0));
        }
        for (HostBuffer b : buffers) {
            String diff = b.firstDifference();
            if (diff != null) {
                throw Violations.of(ruleId, what.get(), "no byte changed that the rules do not allow to change", diff);
            }
        }
    }
}
