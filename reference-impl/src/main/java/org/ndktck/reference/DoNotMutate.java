package org.ndktck.reference;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method (or type) of the reference model whose behaviour no conformance kit can check, with the
 * reason: what it decides is equivalent to its fallback, left to the provider, bound by no catalog rule, or
 * plumbing. Mutants that break everything around it (a negation that refuses every QP, a null where an object
 * is needed) are still caught by the kit incidentally (32 of the 127 in BENCHMARKS.md's run 7), but they test
 * no rule. PIT's mutation run ({@code mvn -Pmutation}, BENCHMARKS.md "Mutation score") skips code carrying an
 * annotation of this simple name (its {@code FANN} filter), so the score measures how well the kit sees the
 * behaviour the NDKPI pages bind.
 *
 * <p>Rules for its use: the whole method must be in one {@link Scope}; code that mixes checked behaviour with
 * such code is split first, so the checked part stays mutated. Every use is listed, with its reason, by
 * {@code benchmarks/pit-survivors.py} under "Not mutated", and BENCHMARKS.md gives the score with and without
 * these methods.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.TYPE})
public @interface DoNotMutate {
    /** Why the kit cannot tell a mutant of this code apart from the reference. */
    enum Scope {
        /**
         * Equivalent: a cache, a fast path or a repeated guard whose fallback gives the same observable result,
         * so a mutant that keeps the code working behaves like the reference.
         */
        EQUIVALENT,
        /**
         * The NDKPI pages leave this to the provider (for example STATUS_PENDING or inline completion, the token
         * values, which optional adapter capabilities are advertised): any choice the code could make is one a
         * conformant provider may make.
         */
        PROVIDER_CHOICE,
        /**
         * Behaviour no rule of the catalog binds: what the model does after consumer misuse that the pages
         * forbid (a call on a closed object, CL-7; a cyclic MDL chain), its resource limits, and data-path
         * behaviour outside the memory-region pages (send/receive matching).
         */
        OUTSIDE_CATALOG,
        /** The model's own plumbing for fault injection and settings, not NDKPI behaviour. */
        PLUMBING
    }

    /** @return the scope that puts this code outside what a conformance kit can check */
    Scope value();

    /** @return one sentence saying why, for this code in particular */
    String why();
}
