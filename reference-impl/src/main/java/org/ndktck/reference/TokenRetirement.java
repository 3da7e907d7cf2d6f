package org.ndktck.reference;

/**
 * Data-path piece {@code token-retirement}: whether an event retires the registration's token, so that it
 * grants nothing from then on. The reference retires on every event (MR-DEREG-3, INV-4, INV-5, RW-4); a
 * faulty variant keeps a token alive after deregistration or invalidation.
 */
@FunctionalInterface
public interface TokenRetirement {
    /**
     * @param event what happened to the registration
     * @return true when the token stops granting access
     */
    boolean retires(RetireEvent event);
}
