/**
 * The kit's properties: one class per catalog section, each annotated {@code @NdkKit}, each property
 * {@code @Property} with {@code @Tag("ID")}, once per rule it checks (the first is its primary rule).
 *
 * <ul>
 *   <li>{@link org.ndktck.tck.properties.GeneralAsyncProperties}: GEN-CB-1 to GEN-CB-5, GEN-LIFE-1,
 *       GEN-TIME-1, GEN-EXC-1;</li>
 *   <li>{@link org.ndktck.tck.properties.MrObjectHeaderProperties}: OBJ-1, OBJ-2;</li>
 *   <li>{@link org.ndktck.tck.properties.CreateMrProperties}: MR-CREATE-2;</li>
 *   <li>{@link org.ndktck.tck.properties.RegisterMrProperties}: MR-REG-2, MR-REG-4, MR-REG-7 to MR-REG-14;</li>
 *   <li>{@link org.ndktck.tck.properties.FastRegisterProperties}: MR-FR-3, MR-FR-4, MR-FR-6 to MR-FR-12,
 *       MR-FR-14 to MR-FR-19.</li>
 * </ul>
 *
 * <p>Conventions: a MUST (fail) / SHOULD (code) rule fails only when the call succeeds; another error code
 * is recorded as an advisory. A security rule (an access the flags, the bounds or the token do not allow)
 * fails when the access succeeds or when any byte outside what the rules allow changed. When a property
 * cannot reach its check because the provider refused a valid request, it charges the rule that requires
 * the request to work (MR-REG-10, MR-FRI-2), after ruling out the READ_SINK flags (MR-REG-7, MR-FR-11).
 */
package org.ndktck.tck.properties;
