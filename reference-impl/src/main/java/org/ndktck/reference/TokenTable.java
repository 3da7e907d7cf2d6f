package org.ndktck.reference;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The token table of one {@link ReferenceAdapter}: what each 32-bit token names (a Region, a ReferencePd's privileged
 * token or an initialized fast-register ReferenceMr), fresh tokens from the {@code token-allocator} piece, the
 * retirement of a registration's token by the {@code token-retirement} piece, and the INLINE lookup of a registration
 * by address. A token is a UINT32 carried in a Java int (compared for equality only); addresses are unsigned 64-bit
 * values in a Java long, lengths bytes. Every method runs under the adapter's lock (MR-TOK-6, PRIV-2: uniqueness is
 * within one PD; the allocator sees both the adapter-wide and the PD's tokens in use).
 */
final class TokenTable {
    private final ReferencePolicy policy;
    private final TokenAllocator tokenAllocator;

    /**
     * Token → what it names: Region, ReferencePd (privileged token) or ReferenceMr (token of an initialized
     * fast-register MR). A token is scoped by the PD of the QP it is used through (MR-TOK-6 asks uniqueness within
     * one PD only), so one value may name one holder of each PD; the list holds them in the order they were put.
     */
    private final Map<Integer, List<Object>> tokens = new HashMap<>();

    /**
     * @param policy         the adapter's data-path pieces ({@code token-retirement}, {@code bounds})
     * @param tokenAllocator the adapter's allocator, from its {@code token-allocator} piece
     */
    TokenTable(ReferencePolicy policy, TokenAllocator tokenAllocator) {
        this.policy = policy;
        this.tokenAllocator = tokenAllocator;
    }

    /**
     * Under the lock: a fresh token from the {@code token-allocator} piece for a holder of {@code pd}. The request's
     * {@code inUse} is adapter-wide, its {@code inUseOnPd} only the tokens of {@code pd}.
     */
    int allocateToken(ReferencePd pd, TokenPurpose purpose, int previous) {
        return tokenAllocator.allocate(new TokenRequest(purpose, previous, tokens::containsKey, pd.ordinal,
                t -> holderOn(t, pd) != null));
    }

    /** Under the lock. */
    void putToken(int token, Object holder) {
        tokens.computeIfAbsent(token, k -> new ArrayList<>(1)).add(holder);
    }

    /** Under the lock: removes the token only while it still names {@code holder}. */
    void removeToken(int token, Object holder) {
        List<Object> holders = tokens.get(token);
        if (holders != null && holders.remove(holder) && holders.isEmpty()) {
            tokens.remove(token);
        }
    }

    /**
     * Under the lock: what the token names for a request made through a QP of {@code pd} (Region, ReferencePd,
     * ReferenceMr) or null. A holder of {@code pd} comes first; else a holder of another PD, so that the PD checks
     * of the access pieces still see (and refuse) a token of another PD. O(holders of the value).
     */
    Object tokenHolder(int token, ReferencePd pd) {
        List<Object> holders = tokens.get(token);
        if (holders == null) {
            return null;
        }
        Object own = holderOn(token, pd);
        return own != null ? own : holders.get(0);
    }

    /** Under the lock: the holder of {@code token} that belongs to {@code pd}, or null. */
    private Object holderOn(int token, ReferencePd pd) {
        List<Object> holders = tokens.get(token);
        if (holders == null) {
            return null;
        }
        for (Object h : holders) {
            if (pdOf(h) == pd) {
                return h;
            }
        }
        return null;
    }

    private static ReferencePd pdOf(Object holder) {
        if (holder instanceof Region r) {
            return r.pd;
        }
        if (holder instanceof ReferenceMr m) {
            return m.pd;
        }
        return holder instanceof ReferencePd p ? p : null;
    }

    /**
     * Under the lock: retires a registration's token if the {@code token-retirement} piece says the event
     * does; a registration still pending (a fast registration not yet processed) always dies.
     *
     * @return true when the registration no longer grants access
     */
    boolean retire(Region region, RetireEvent event) {
        if (region.state == Region.State.DEAD) {
            return true;
        }
        if (region.state == Region.State.PENDING || policy.get(Pieces.TOKEN_RETIREMENT).retires(event)) {
            region.state = Region.State.DEAD;
            removeToken(region.token(), region);
            return true;
        }
        return false;
    }

    /**
     * Under the lock: a live registration of {@code pd} holding [address, address + length), found by address
     * (for INLINE requests, whose token is ignored). Linear in the number of tokens; used only for INLINE.
     */
    Span findRegion(ReferencePd pd, long address, long length) {
        RegionBounds bounds = policy.get(Pieces.BOUNDS);
        for (List<Object> holders : tokens.values()) {
            for (Object holder : holders) {
                if (holder instanceof Region r && r.live() && r.pd == pd && bounds.permits(r, address, length)) {
                    return new Span(r.pages, r.position(address), length);
                }
            }
        }
        return null;
    }
}
