package org.ndktck.tck.runner;

import java.util.Set;

/**
 * One kit property as discovered on the JUnit Platform.
 *
 * @param uniqueId   the JUnit Platform unique ID
 * @param propertyId {@code SimpleClassName#method}, as the kit's {@code RunLedger} names it
 * @param className  the property's class
 * @param methodName the property's method
 * @param ruleIds    the rules it checks (its rule tags, {@code KitLifecycle.ruleIds}, else its tags), in declaration order
 */
public record PropertyInfo(String uniqueId, String propertyId, String className, String methodName, Set<String> ruleIds) {
    /** Copies the set. */
    public PropertyInfo {
        ruleIds = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(ruleIds));
    }
}
