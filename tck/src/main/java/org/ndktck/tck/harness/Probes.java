package org.ndktck.tck.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * Peer accesses aimed at a {@link Region}, with data chosen so that a byte landing anywhere in the
 * target buffer is seen: the bytes written are the complement of what the kit expects at the place
 * they should land (inside the region), or at the place a zero-based or page-rounded provider would put
 * them (outside). A write the rules allow is declared with {@link HostBuffer#expectWrite}, so the
 * session's memory check ({@link NdkSession#checkMemory}) then finds any other change.
 */
public final class Probes {
    private Probes() {
    }

    /**
     * The peer writes {@code n} bytes at region byte {@code k} (address base + k); if it succeeds the kit
     * expects the bytes at buffer offset bufferOffset + k.
     *
     * @param s the session
     * @param r the region
     * @param k region offset (unsigned, k + n ≤ length)
     * @param n bytes (1 to {@link NdkSession#maxAccess()})
     * @return the access
     */
    public static Access writeInside(NdkSession s, Region r, long k, int n) {
        byte[] data = complement(r.buffer().expected(r.bufferOffset() + k, n));
        Access a = s.connectedPeer().write(r.base() + k, r.remoteToken(), data);
        if (a.succeeded()) {
            r.buffer().expectWrite(r.bufferOffset() + k, data);
        }
        return a;
    }

    /**
     * @return the bytes the kit expects at region byte k (n of them)
     */
    public static byte[] expectedAt(Region r, long k, int n) {
        return r.buffer().expected(r.bufferOffset() + k, n);
    }

    /**
     * @return the bytes now in memory at region byte k (the kit's own read)
     */
    public static byte[] actualAt(Region r, long k, int n) {
        return r.buffer().read(r.bufferOffset() + k, n);
    }

    /**
     * The peer reads {@code n} bytes at region byte {@code k}.
     *
     * @param s the session
     * @param r the region
     * @param k region offset
     * @param n bytes
     * @return the access (its data when it succeeded)
     */
    public static Access readInside(NdkSession s, Region r, long k, int n) {
        return s.connectedPeer().read(r.base() + k, r.remoteToken(), n);
    }

    /**
     * The peer writes {@code n} bytes at any address (outside the region, typically). The kit declares
     * nothing: the write must fail and change nothing.
     *
     * @param s       the session
     * @param r       the region
     * @param address the remote address (unsigned)
     * @param n       bytes
     * @return the access
     */
    public static Access writeAt(NdkSession s, Region r, long address, int n) {
        return s.connectedPeer().write(address, r.remoteToken(), dataFor(r, address, n));
    }

    /**
     * The peer reads {@code n} bytes at any address.
     *
     * @return the access
     */
    public static Access readAt(NdkSession s, Region r, long address, int n) {
        return s.connectedPeer().read(address, r.remoteToken(), n);
    }

    /**
     * Addresses just outside a region that a peer must not reach: base − 1 and a straddle of the start,
     * base + length and a straddle of the end (where they do not wrap), the zero-based address k
     * (when it is outside), and the page-rounded start and end.
     *
     * @param r        the region
     * @param k        a region offset used as a zero-based address
     * @param pageSize PAGE_SIZE
     * @return (address, bytes) pairs, each entirely or partly outside the region
     */
    public static List<long[]> outside(Region r, long k, int pageSize) {
        List<long[]> out = new ArrayList<>();
        long base = r.base();
        if (base != 0) {
            out.add(new long[]{base - 1, 1});
            if (r.length() >= 1) {
                out.add(new long[]{base - 1, 2});
            }
            long pageStart = base & -(long) pageSize;
            if (pageStart != base) {
                out.add(new long[]{pageStart, 1});
            }
        }
        r.end().ifPresent(end -> {
            out.add(new long[]{end, 1});
            if (r.length() >= 1) {
                out.add(new long[]{end - 1, 2});
            }
            long pageEnd = ((end + pageSize - 1) & -(long) pageSize) - 1;
            if (pageEnd != end - 1 && Long.compareUnsigned(pageEnd, end) >= 0) {
                out.add(new long[]{pageEnd, 1});
            }
        });
        if (!r.contains(k) && !r.contains(k + 1)) {
            out.add(new long[]{k, 1});
        }
        return out;
    }

    static byte[] dataFor(Region r, long address, int n) {
        long size = r.buffer().size();
        long rel = address - r.base() + r.bufferOffset();
        if (Long.compareUnsigned(rel, size - n) <= 0 && size >= n) {
            return complement(r.buffer().expected(rel, n));
        }
        long zeroBased = address + r.bufferOffset();
        if (Long.compareUnsigned(zeroBased, size - n) <= 0 && size >= n) {
            return complement(r.buffer().expected(zeroBased, n));
        }
        byte[] d = new byte[n];
        java.util.Arrays.fill(d, (byte) 0x5A);
        return d;
    }

    static byte[] complement(byte[] b) {
        byte[] c = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            c[i] = (byte) ~b[i];
        }
        return c;
    }
}
