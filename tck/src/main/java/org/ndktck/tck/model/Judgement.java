package org.ndktck.tck.model;

/**
 * What the model allows for one access of {@code n} bytes at byte {@code k} of a registration (live or ended): the
 * access must succeed ({@code allowed}) or must fail and change no byte; the rule charged when it does otherwise.
 *
 * @param allowed      true when the access must succeed and move exactly its bytes
 * @param inBounds     true when bytes k .. k + n - 1 lie inside the region's Length
 * @param grantedRule  the rule a refusal of an allowed access (or wrong bytes) breaks
 * @param refusedRule  the rule a success of a forbidden access breaks
 * @param why          why it is forbidden, for messages (empty when allowed)
 */
public record Judgement(boolean allowed, boolean inBounds, String grantedRule, String refusedRule, String why) {

    /**
     * Judges an access as the pages allow it: only a live registration grants, within its bounds (MR-REG-4, MR-FR-10,
     * SGE-2), with the rights its flags give (MR-REG-8, MR-FR-12); an RDMA-read sink needs ALLOW_LOCAL_WRITE and, where
     * the adapter requires it, RDMA_READ_SINK (MR-TOK-2); an ended registration grants nothing (its rule).
     *
     * @param grant               the registration's grant (of a live or an ended registration)
     * @param ended               the ended registration, or null when it is live
     * @param kind                how the access reaches it
     * @param k                   the first byte, counted from the region's start (bytes, may reach past Length)
     * @param n                   bytes (at least 1)
     * @param readSinkNotRequired the adapter has RDMA_READ_SINK_NOT_REQUIRED
     * @param viaOtherConnection  a remote access through a connection other than the one that fast-registered it
     * @return the judgement
     */
    public static Judgement of(Grant grant, Revoked ended, AccessKind kind, long k, int n, boolean readSinkNotRequired,
                               boolean viaOtherConnection) {
        long length = grant.region().length();
        boolean inBounds = k >= 0 && k + n <= length;
        boolean rights = switch (kind) {
            case REMOTE_WRITE -> grant.remoteWrite();
            case REMOTE_READ -> grant.remoteRead();
            case LOCAL_SINK -> grant.localWrite() && (readSinkNotRequired || grant.readSink());
        };
        boolean allowed = ended == null && inBounds && rights;
        String refused = ended != null ? ended.rule()
                : !inBounds ? (kind == AccessKind.LOCAL_SINK ? "SGE-2" : grant.fast() ? "MR-FR-10" : "MR-REG-4")
                : grant.fast() || kind == AccessKind.LOCAL_SINK ? "MR-FR-12" : "MR-REG-8";
        String granted = kind == AccessKind.LOCAL_SINK ? "MR-TOK-2" : !grant.fast() ? "MR-REG-4" : viaOtherConnection ? "MR-FR-20" : "MR-FR-9";
        String why = allowed ? "" : ended != null ? "the registration was " + ended.why() : !inBounds ? "out of bounds" : "not permitted by the flags";
        return new Judgement(allowed, inBounds, granted, refused, why);
    }
}
