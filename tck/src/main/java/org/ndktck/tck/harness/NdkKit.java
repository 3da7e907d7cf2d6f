package org.ndktck.tck.harness;

import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.PropagationMode;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class of kit properties: attaches {@link KitLifecycle} (seed, tries, capability gating,
 * the run ledger) to every property in it. Every class in {@code org.ndktck.tck.properties} carries it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@AddLifecycleHook(value = KitLifecycle.class, propagateTo = PropagationMode.ALL_DESCENDANTS)
public @interface NdkKit {
}
