package org.ndktck.tck;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the catalog rule a kit property checks. Repeatable: a property that checks two rules carries two.
 * Every kit property also carries a jqwik {@code @Tag} with the same ID, so a JUnit Platform tag filter
 * selects rules, and a build-time test checks that both agree and that the ID exists in the catalog.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD})
@Repeatable(NdkRules.class)
public @interface NdkRule {
    /** @return a rule ID of the catalog, e.g. {@code MR-FR-4} */
    String value();
}
