package org.ndktck.tck.harness;

/**
 * A peer's (or the target's) RDMA access: the work request's end and, for a read, the bytes read.
 *
 * @param outcome the work request's end
 * @param data    for a successful read the bytes read, else empty
 */
public record Access(WrOutcome outcome, byte[] data) {
    /** @return true when the access completed with STATUS_SUCCESS */
    public boolean succeeded() {
        return outcome.succeeded();
    }

    /** @return the call and how it ended */
    public String describe() {
        return outcome.call() + " " + outcome.describe();
    }
}
