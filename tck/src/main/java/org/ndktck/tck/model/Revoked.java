package org.ndktck.tck.model;

/**
 * A registration that has ended and grants nothing any more, with the rule an access through its tokens breaks:
 * MR-DEREG-3 (deregistered), INV-4 (invalidated, locally or by the peer's NdkSendAndInvalidate), SEC-1 (its MR was
 * closed: the registration ends with the MR).
 *
 * @param grant what it granted while it lived (addresses and tokens an access still names)
 * @param rule  the rule an access that succeeds through it breaks
 * @param why   what ended it, for messages
 */
public record Revoked(Grant grant, String rule, String why) {
}
