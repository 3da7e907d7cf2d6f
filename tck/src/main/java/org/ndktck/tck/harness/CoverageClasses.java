package org.ndktck.tck.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a kit property that claims coverage (every class of input its generator must produce appears at least once in
 * its tries): the number of classes of its largest claim. At every profile the property runs at least
 * {@link CoverageTries#leastTries(int)} tries for that many classes (the smoke profile's halved tries are raised to it), so the
 * claim is checked at every profile, never switched off; only an explicit {@code --tries} / {@code ndk.tck.tries}
 * below it, or the run's time budget, leaves it unchecked (a quick look the user asked for).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CoverageClasses {
    /** @return the classes of the property's largest coverage claim (at least 1) */
    int value();
}
