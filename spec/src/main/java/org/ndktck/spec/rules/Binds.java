package org.ndktck.spec.rules;

/** Who a rule binds. */
public enum Binds {
    /** The provider (the driver under test). */
    PROVIDER,
    /** The consumer (the kit itself obeys it). */
    CONSUMER,
    /** Both: the consumer must obey it and the provider must not be harmed or fooled when it is broken. */
    BOTH
}
