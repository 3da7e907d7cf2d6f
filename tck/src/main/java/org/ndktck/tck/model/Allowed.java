package org.ndktck.tck.model;

/**
 * The set of outcomes the pages allow a request posted in one QP phase, coarse enough to judge from outside: it must
 * be carried out (success inline or after STATUS_PENDING, its CQ entry with success unless SILENT_SUCCESS, every byte
 * moved), it must fail (an inline error with no CQ entry, or success inline and one error CQ entry; no byte moved), or
 * the pages do not say, and then either outcome is accepted as long as a success moved exactly its bytes and a failure
 * moved none (the declared unspecified mode: only "nothing exposed, exactly one entry for an accepted request, no hang"
 * is judged).
 */
public enum Allowed {
    /** Only success is allowed. */
    SUCCEED,
    /** Only failure is allowed. */
    FAIL,
    /** The pages leave it open: success (exactly its bytes) or failure (no byte). */
    EITHER
}
