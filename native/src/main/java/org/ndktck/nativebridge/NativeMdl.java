package org.ndktck.nativebridge;

import com.sun.jna.Memory;

import java.util.IdentityHashMap;
import java.util.Map;

import org.ndktck.spec.Mdl;

/**
 * A copy of a kit {@link Mdl} chain in native memory as NDK_TCK_MDL structures (Next, StartVa, ByteCount,
 * ByteOffset, PfnCount, PfnArray), Next pointers included: a cyclic chain stays cyclic. The copy lives as
 * long as this object (the bridge keeps it until the request that got it has completed).
 */
final class NativeMdl {
    private final Map<Mdl, Memory> copies = new IdentityHashMap<>();
    final Memory first;
    /** Page frames over every MDL of the chain (each MDL once), for sizing a LAM buffer. */
    final long frameCount;

    NativeMdl(Mdl mdl) {
        long frames = 0;
        for (Mdl m = mdl; m != null && !copies.containsKey(m); m = m.next()) {
            long[] pfns = m.pfns();
            Memory mem = new Memory(Layout.MDL_HEADER + 8L * Math.max(1, pfns.length));
            mem.setPointer(0, null);
            mem.setLong(8, m.startVa());
            mem.setInt(16, m.byteCount());
            mem.setInt(20, m.byteOffset());
            mem.setInt(24, pfns.length);
            mem.setInt(28, 0);
            if (pfns.length > 0) {
                mem.write(Layout.MDL_HEADER, pfns, 0, pfns.length);
            }
            copies.put(m, mem);
            frames += pfns.length;
        }
        for (Map.Entry<Mdl, Memory> e : copies.entrySet()) {
            Mdl next = e.getKey().next();
            e.getValue().setPointer(0, next == null ? null : copies.get(next));
        }
        this.first = copies.get(mdl);
        this.frameCount = frames;
    }
}
