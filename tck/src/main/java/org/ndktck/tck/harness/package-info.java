/**
 * The kit's harness: everything a property uses to talk to the provider under test.
 *
 * <h2>A try</h2>
 * A property runs one try's provider interaction with {@link org.ndktck.tck.harness.NdkSession#inTry}: a
 * fresh adapter over a fresh {@link org.ndktck.spec.HostMemory} (from
 * {@code ProviderUnderTest.get().factory()}), the target's PD (which owns the MRs under test), on first use
 * a CQ per side, the peer's PD and two QPs connected by loopback (the peer issues RDMA reads and writes at
 * the target), a QP that is never connected, and a registered scratch buffer for the peer. The session
 * tears everything down and runs the end-of-try checks when the try ends.
 *
 * <h2>The guarded invoker</h2>
 * Every provider call goes through {@link org.ndktck.tck.harness.Invoker}: a call that does not return
 * within its bound (5 s × {@code ndk.tck.timeoutFactor}) fails GEN-TIME-1 and the run goes on (the stuck
 * thread is abandoned, the next try opens a fresh adapter); an exception thrown by the provider fails
 * GEN-EXC-1. The jqwik property stays on its own thread (jqwik keeps state in thread-locals); the try's
 * provider interaction runs on a daemon caller thread in one hand-off, so a try costs one thread switch
 * while every call in it keeps its own bound. Measured on the 2-core machines with the reference provider
 * (completion=inline): a watchdog costs about 0.2 µs a call but cannot free a thread blocked in provider
 * code; a hand-off per call cost 1 µs when both threads spin and 60 µs when one parks; one hand-off per try
 * plus direct calls gives 0.1 to 0.8 ms per try (the provider's own work included).
 *
 * <h2>The parts of a try</h2>
 * The session is split by what it models; each part is one file, reached from the session, and the parts call
 * each other, never back into the session:
 * <ul>
 *   <li>the adapter and its objects with their lifetimes: {@link org.ndktck.tck.harness.AdapterObjects} (the
 *       adapter, the two {@link org.ndktck.tck.harness.Side}s, QPs, CQs, PDs), {@link org.ndktck.tck.harness.MrRequests}
 *       (MRs and the calls on them: MR-CREATE-2, OBJ-1, MR-REG-9, MR-DEREG-2, MR-FRI-8),
 *       {@link org.ndktck.tck.harness.Lams} (NdkBuildLam: LAM-4, LAM-7), and {@link org.ndktck.tck.harness.AsyncCalls}
 *       (completion callbacks per request context, {@link org.ndktck.tck.harness.AsyncOp}: exactly once after
 *       STATUS_PENDING with the kit's context, GEN-CB-1, GEN-CB-3 for creates, never after another return,
 *       GEN-CB-2, GEN-CB-4; also after the try ended, {@link org.ndktck.tck.harness.LateCallbacks});</li>
 *   <li>host memory and buffers: {@link org.ndktck.tck.harness.HostBuffers} ({@link org.ndktck.tck.harness.HostBuffer}s
 *       sit between guard frames and are painted; at the end of each try no guard frame may have been touched and
 *       every painted byte must be what the kit expects);</li>
 *   <li>work requests and completions: {@link org.ndktck.tck.harness.WorkRequests} posts,
 *       {@link org.ndktck.tck.harness.Completions} matches CQ entries by RequestContext
 *       ({@link org.ndktck.tck.harness.WorkRequest}): a foreign context is CQ-2, an entry for a request that
 *       failed inline is DEF-2;</li>
 *   <li>the connected peer: {@link org.ndktck.tck.harness.ConnectedPeer}, RDMA reads and writes at the target.</li>
 * </ul>
 * A property's own objects (beside the session's) are {@link org.ndktck.tck.harness.OwnedObjects}, its regions at
 * fresh VAs {@link org.ndktck.tck.harness.Registrations}; {@link org.ndktck.tck.harness.SessionTools} is the door to
 * both. The session and the tools keep one-line methods that hand a call on to its part, so properties written
 * against them keep working.
 *
 * <h2>Scenarios</h2>
 * {@link org.ndktck.tck.harness.FrScenario} and {@link org.ndktck.tck.harness.RegScenario} turn the
 * generators' plans into buffers, MDL chains, LAMs and MRs; {@link org.ndktck.tck.harness.Region} and
 * {@link org.ndktck.tck.harness.Probes} aim peer accesses at a registration.
 */
package org.ndktck.tck.harness;
