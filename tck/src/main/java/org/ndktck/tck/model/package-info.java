/**
 * The kit's one executable model of an NDK adapter as the NDKPI pages allow it to behave, in the manner of SibylFS:
 * for each call it gives what the pages allow (the refusals a table lists, success or failure of an access, the
 * rule charged otherwise), and after the provider chose one allowed outcome the model follows that one.
 *
 * <ul>
 *   <li>{@link org.ndktck.tck.model.MrModel}: the MRs of one adapter, both kinds (NdkRegisterMr; NdkInitializeFastRegisterMr,
 *       NdkFastRegister, NdkInvalidate, remote invalidation), their phases ({@link org.ndktck.tck.model.MrPhase}), the
 *       calls a consumer may make in each ({@link org.ndktck.tck.model.MrCall}), live registrations
 *       ({@link org.ndktck.tck.model.Grant}) and ended ones ({@link org.ndktck.tck.model.Revoked}, deregistered,
 *       invalidated, or closed with the MR), and remote-token uniqueness (MR-TOK-6).</li>
 *   <li>{@link org.ndktck.tck.model.Judgement}: whether an access through a token must succeed or must fail, and the
 *       rule charged otherwise.</li>
 *   <li>{@link org.ndktck.tck.model.QpModel}: the QPs of one adapter in every phase ({@link org.ndktck.tck.model.QpPhase}:
 *       unconnected, connected, flushed, peer closed, closed), the receives pending on each, and what the pages allow a
 *       request posted in each phase ({@link org.ndktck.tck.model.QpCall#allowed}, an {@link org.ndktck.tck.model.Allowed}:
 *       succeed, fail, or either in the declared unspecified mode, where only "nothing exposed" is judged).</li>
 *   <li>{@link org.ndktck.tck.model.LamModel}: LAMs built and released in any order, and what a privileged-token SGE
 *       at a live or a released LAM's address may reach.</li>
 *   <li>{@link org.ndktck.tck.model.Coverage}: the (state, call) pairs a chain exercised.</li>
 * </ul>
 *
 * <p>The model is not the reference provider (which is one legal implementation): it never picks an outcome, it
 * only says which ones are allowed. It holds no tool bookkeeping; the properties in
 * {@code org.ndktck.tck.properties} drive the provider through the harness and report each outcome to it.
 */
package org.ndktck.tck.model;
