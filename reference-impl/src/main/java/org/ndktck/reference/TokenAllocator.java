package org.ndktck.reference;

/**
 * Data-path piece {@code token-allocator} (through its {@link Factory}): chooses 32-bit tokens. The reference
 * gives every registration and every fast registration a fresh token that no live registration and no
 * privileged token of the adapter holds (MR-TOK-6, PRIV-2), never 0, and does not reuse a retired token
 * until 2^32 tokens have been issued. Faulty variants reuse tokens or keep an MR's token across fast
 * registrations. Called with the adapter's lock held: must not block.
 */
@FunctionalInterface
public interface TokenAllocator {
    /**
     * @param request why, and which tokens are in use
     * @return the token (UINT32 in an int)
     */
    int allocate(TokenRequest request);

    /** Makes one allocator per adapter, so allocators may keep state. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param seed the adapter's {@code seed} setting
         * @return a new allocator for one adapter
         */
        TokenAllocator newAllocator(long seed);
    }
}
