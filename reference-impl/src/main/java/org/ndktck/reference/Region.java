package org.ndktck.reference;

/**
 * One registration: made by NdkRegisterMr (live at once) or by NdkFastRegister (pending until its work
 * request is processed). Guarded by the adapter's lock.
 */
final class Region implements RegionView {
    /** Where a registration is in its life. */
    enum State {
        /** A fast registration posted and not yet processed: its token is reserved but grants nothing. */
        PENDING,
        /** In effect. */
        LIVE,
        /** Retired or cancelled: its token grants nothing. */
        DEAD
    }

    final ReferenceMr mr;
    final ReferencePd pd;
    private final int token;
    private final long base;
    private final long length;
    private final int firstByteOffset;
    private final int access;
    private final boolean fastRegistered;
    final PageMap pages;
    State state;

    Region(ReferenceMr mr, int token, long base, long length, int firstByteOffset, int access,
           boolean fastRegistered, PageMap pages, State state) {
        this.mr = mr;
        this.pd = mr.pd;
        this.token = token;
        this.base = base;
        this.length = length;
        this.firstByteOffset = firstByteOffset;
        this.access = access;
        this.fastRegistered = fastRegistered;
        this.pages = pages;
        this.state = state;
    }

    @Override
    public int token() {
        return token;
    }

    @Override
    public long base() {
        return base;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int firstByteOffset() {
        return firstByteOffset;
    }

    @Override
    public int pageSize() {
        return mr.adapter.pageSize();
    }

    @Override
    public int access() {
        return access;
    }

    @Override
    public boolean fastRegistered() {
        return fastRegistered;
    }

    @Override
    public boolean live() {
        return state == State.LIVE;
    }

    /**
     * @param address an address of the region's address space (unsigned)
     * @return its position: the byte offset from the start of the region's first page, through the
     *     {@code addressing} piece (unsigned; wraps for addresses below that page, which then no frame backs)
     */
    long position(long address) {
        return firstByteOffset + mr.adapter.policy.get(Pieces.ADDRESSING).offsetOf(this, address);
    }

    @Override
    public String toString() {
        return String.format("Region{token=0x%08X, base=0x%X, length=0x%X, fbo=0x%X, %s, %s%s}", token, base,
                length, firstByteOffset, Access.toString(access), state, fastRegistered ? ", fast" : "");
    }
}
