package org.ndktck.reference;

import java.util.List;

import org.ndktck.spec.HostMemory;

/**
 * Moves bytes between page frames of {@link HostMemory}, page by page (the adapter's DMA). Never touches an
 * MDL's virtual address. Callers check everything first, so a move never fails half way.
 */
final class DataMover {
    private DataMover() {
    }

    /** A position in a list of spans. */
    private static final class Cursor {
        private final List<Span> spans;
        private int index;
        private long done;

        Cursor(List<Span> spans) {
            this.spans = spans;
        }

        /** @return false when every span is used up */
        boolean ready() {
            while (index < spans.size() && done == spans.get(index).length()) {
                index++;
                done = 0;
            }
            return index < spans.size();
        }

        long position() {
            return spans.get(index).position() + done;
        }

        PageMap map() {
            return spans.get(index).map();
        }

        /** @return bytes available in one frame from here */
        long run() {
            long inSpan = spans.get(index).length() - done;
            long inFrame = map().runFrom(position());
            return Long.compareUnsigned(inSpan, inFrame) < 0 ? inSpan : inFrame;
        }

        long frame() {
            return map().frame(map().frameIndex(position()));
        }

        int offset(int pageSize) {
            return (int) Long.remainderUnsigned(position(), pageSize);
        }

        void advance(long bytes) {
            done += bytes;
        }
    }

    /** Copies min(bytes of {@code from}, bytes of {@code to}) bytes, in order. */
    static void copy(HostMemory memory, List<Span> from, List<Span> to) {
        int pageSize = memory.pageSize();
        byte[] buffer = new byte[pageSize];
        Cursor src = new Cursor(from);
        Cursor dst = new Cursor(to);
        while (src.ready() && dst.ready()) {
            int chunk = (int) Math.min(src.run(), dst.run());
            memory.read(src.frame(), src.offset(pageSize), buffer, 0, chunk);
            memory.write(dst.frame(), dst.offset(pageSize), buffer, 0, chunk);
            src.advance(chunk);
            dst.advance(chunk);
        }
    }

    /** Copies {@code bytes} (captured INLINE data) into {@code to}, in order. */
    static void copyIn(HostMemory memory, byte[] bytes, List<Span> to) {
        int pageSize = memory.pageSize();
        Cursor dst = new Cursor(to);
        int done = 0;
        while (done < bytes.length && dst.ready()) {
            int chunk = (int) Math.min(bytes.length - done, dst.run());
            memory.write(dst.frame(), dst.offset(pageSize), bytes, done, chunk);
            dst.advance(chunk);
            done += chunk;
        }
    }

    /** Reads the {@code total} bytes of {@code from}, the sum of its span lengths (INLINE data at post time). */
    static byte[] gather(HostMemory memory, List<Span> from, int total) {
        int pageSize = memory.pageSize();
        byte[] bytes = new byte[total];
        Cursor src = new Cursor(from);
        int done = 0;
        while (src.ready()) {
            int chunk = (int) src.run();
            memory.read(src.frame(), src.offset(pageSize), bytes, done, chunk);
            src.advance(chunk);
            done += chunk;
        }
        return bytes;
    }
}
