package org.ndktck.reference;

/**
 * The access rights of a registration in the model's own encoding, independent of the NDK flag encoding
 * they came from: {@link MrAccessFlags} maps NDK_MR_FLAG_* bits and {@link FrAccessFlags} maps NDK_OP_FLAG_*
 * bits to these. Local read is always granted and has no bit.
 */
public final class Access {
    private Access() {
    }

    /** The region may be a local sink: the target of a Read, the buffer of a Receive. */
    public static final int LOCAL_WRITE = 1;
    /** A peer may RDMA-read the region through its remote token. */
    public static final int REMOTE_READ = 2;
    /** A peer may RDMA-write the region through its remote token. */
    public static final int REMOTE_WRITE = 4;
    /** The region was registered as an RDMA-read sink (NDK_MR_FLAG_RDMA_READ_SINK / NDK_OP_FLAG_RDMA_READ_SINK). */
    public static final int READ_SINK = 8;

    /**
     * @param access access bits
     * @param right  one right
     * @return true when {@code access} has every bit of {@code right}
     */
    public static boolean has(int access, int right) {
        return (access & right) == right;
    }

    /** @return a readable list such as {@code LOCAL_WRITE|REMOTE_READ}, or {@code LOCAL_READ} */
    public static String toString(int access) {
        StringBuilder b = new StringBuilder();
        if (has(access, LOCAL_WRITE)) {
            b.append("|LOCAL_WRITE");
        }
        if (has(access, REMOTE_READ)) {
            b.append("|REMOTE_READ");
        }
        if (has(access, REMOTE_WRITE)) {
            b.append("|REMOTE_WRITE");
        }
        if (has(access, READ_SINK)) {
            b.append("|READ_SINK");
        }
        return b.length() == 0 ? "LOCAL_READ" : b.substring(1);
    }
}
