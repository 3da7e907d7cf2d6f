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
 * the run ledger) to every property in it, and makes each property's jqwik {@code @Tag("RULE-ID")} the one
 * place that ties it to its catalog rules ({@link KitLifecycle#ruleIds}): the runner, the reports, the
 * catalog's property lists and the mutation run read the rules from there, and a JUnit Platform tag filter
 * selects them. Every class in {@code org.ndktck.tck.properties} carries it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@AddLifecycleHook(value = KitLifecycle.class, propagateTo = PropagationMode.ALL_DESCENDANTS)
public @interface NdkKit {
}
