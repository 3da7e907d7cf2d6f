package org.ndktck.spec.rules;

/** How the kit checks a rule. */
public enum Check {
    /** One or more jqwik properties test the provider. */
    PROVIDER_PROPERTY,
    /** A consumer obligation the kit honours (and its own tests guard). */
    CONSUMER_OBLIGATION,
    /** Cannot be observed from outside the provider (IRQL, locking, pool use). */
    NOT_BLACK_BOX_TESTABLE,
    /** A fact or an unspecified behaviour, reported for information. */
    INFORMATIONAL
}
