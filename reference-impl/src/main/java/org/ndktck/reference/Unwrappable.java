package org.ndktck.reference;

import org.ndktck.spec.NdkObject;

/**
 * Lets a wrapper around a reference object be passed back to the reference provider. The reference never
 * type-checks the objects the consumer hands it (the NdkMr of NdkFastRegister, the CQs of NdkCreateQp, the
 * QPs of connectLoopback) with a plain {@code instanceof}: it asks {@link #unwrap()} of every object that
 * implements this interface, repeatedly (at most 64 levels), until it reaches one of its own objects. An
 * object that is neither the reference's own nor unwraps to one is foreign: the call fails with
 * STATUS_INVALID_PARAMETER.
 *
 * <p>A wrapper in the fault catalogue (for example one that calls a completion twice) implements this
 * interface on each wrapped PD, MR, QP and CQ and returns the object it delegates to.
 */
public interface Unwrappable {
    /** @return the object this one wraps (one level), never null */
    NdkObject unwrap();
}
