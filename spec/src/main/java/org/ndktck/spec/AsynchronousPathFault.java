package org.ndktck.spec;

/**
 * Optional mark of an {@link NdkProvider} of the kit's own proof (a {@code fault:RULE[/variant]} provider): its fault
 * lives on the asynchronous path (a request or create that returns STATUS_PENDING and its completion callback), so
 * {@code ./ndk-tck selftest} proves the kit against it with the provider setting {@code completion=pending} as well
 * as with its default (inline) completions, as an extra matrix row named {@code <provider> [completion=pending]}.
 * A provider under test has no reason to implement it.
 */
public interface AsynchronousPathFault {
}
