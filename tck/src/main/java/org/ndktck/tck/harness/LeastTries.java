package org.ndktck.tck.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a kit property whose coverage claim is not over equally likely classes (an action chain's step mix, where the
 * claim counts steps: the chain's length times its tries, and the rarest action's weight decides how many are
 * needed): the fewest tries it runs at every profile and at any {@code --tries} / {@code ndk.tck.tries} (a smaller
 * count is raised to it, and the property's record shows the tries it ran). Set it from the claim's least steps
 * divided by the chain's length at the smoke profile, so the claim is checked at every profile, never switched off.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface LeastTries {
    /** @return the fewest tries (at least 1) */
    int value();
}
