package org.ndktck.spec;

/**
 * Optional mark of an {@link NdkProvider} of the kit's own proof (a {@code fault:RULE[/variant]} provider): its fault
 * shows only at {@code --profile deep}, where the kit's concurrent tries use more threads, its chains are longer and
 * its properties run more tries than at the standard profile (deep is deeper everywhere). {@code
 * ./ndk-tck selftest} proves the kit against it at the deep profile whatever profile the selftest runs at, as a row
 * named {@code <provider> [profile=deep]} when that differs from the selftest's own. A provider under test has no
 * reason to implement it.
 */
public interface DeepProfileFault {
}
