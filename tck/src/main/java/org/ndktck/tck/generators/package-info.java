/**
 * Generators of NdkFastRegister ({@link org.ndktck.tck.generators.FastRegisterPlans}) and NdkRegisterMr
 * ({@link org.ndktck.tck.generators.RegisterPlans}) requests: valid ones, and ones that break exactly one
 * rule ({@link org.ndktck.tck.generators.FrCase}, {@link org.ndktck.tck.generators.RegCase}), so that a
 * rejection can be attributed. Each generator's edge cases are an explicit list of the values that catch
 * real bugs, run first (the kit sets {@code EdgeCasesMode.FIRST}); every plan names its edge class, which
 * the properties collect with {@code Statistics} and guard with {@code coverage} so a generator that stops
 * producing a class fails the property. Limits come from the adapter ({@link org.ndktck.tck.generators.Limits}):
 * 2^20-entry page arrays appear only when FRMRPageCount allows them.
 */
package org.ndktck.tck.generators;
