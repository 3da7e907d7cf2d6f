package org.ndktck.tck.properties;

import net.jqwik.api.statistics.Statistics;
import org.ndktck.tck.harness.CurrentProperty;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.TimeBudget;
import org.ndktck.tck.harness.UnreachableClaim;

import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * The one place a coverage claim is demanded: after the property's tries, every class in the claim must have come at
 * least once (jqwik's statistics coverage check, run once the tries passed, so a miss is never shrunk). A claim is
 * never silently dropped:
 * <ul>
 *   <li>enough tries ran: a class that never came fails the property with {@code coverage: ...} (the generator
 *       stopped producing a class of input: a kit bug, which the kit's own build catches);</li>
 *   <li>fewer tries than the claim needs because the user asked for them ({@code --tries} / {@code ndk.tck.tries}):
 *       the checks that ran are judged, and the property's note ({@link UnreachableClaim#note}) says the claim was not
 *       checked and the tries that check it;</li>
 *   <li>fewer steps, or a class missing, because a provider's allowed refusals ended chains early: the property is
 *       UNTESTED with {@link UnreachableClaim}'s reason;</li>
 *   <li>fewer tries than the claim needs at a profile's own count: a kit bug (the property's
 *       {@code @CoverageClasses} or {@code @LeastTries} is too small), a {@code coverage: ...} failure naming it;</li>
 *   <li>the property was cut short by {@code --time-budget}: not demanded; the property's note already says
 *       {@code budget-limited: N of up to M tries ran}, which the report shows.</li>
 * </ul>
 */
final class CoverageClaims {
    /**
     * End of the reason of a claim the tries could not reach because the property's share of the time budget ran out
     * first ({@code --time-budget}, {@code ndk.tck.timeBudget}): its rules are UNTESTED with it, never PASS.
     */
    static final String BUDGET_CUT = " before the property's share of the time budget ran out (budget-limited); a larger"
            + " --time-budget, or none, checks it";

    private CoverageClaims() {
    }

    /**
     * Registers the claim's check for the running property (once per try is fine: jqwik keeps the last).
     *
     * @param label    the statistics label the classes are collected under
     * @param required the classes that must each come at least once
     * @param reached  the property's tries (or chain steps) so far, asked at the end of the property
     * @param least    the tries (or steps) the claim needs
     * @param unit     "tries" or "steps", for messages
     */
    static void demand(String label, Collection<String> required, java.util.function.IntSupplier reached, int least, String unit) {
        demand(label, required, reached, least, unit, () -> null);
    }

    /**
     * As {@link #demand(String, Collection, java.util.function.IntSupplier, int, String)}, for a claim a provider may
     * keep out of reach by what the pages allow it.
     *
     * @param providerShortfall asked at the end when fewer than {@code least} ran: why the provider's allowed behaviour
     *                          kept them fewer (the claim is then UNTESTED with it), or null when it did not
     */
    static void demand(String label, Collection<String> required, java.util.function.IntSupplier reached, int least, String unit,
                       java.util.function.Supplier<String> providerShortfall) {
        demand(label, required, reached, least, unit, providerShortfall, () -> false);
    }

    /**
     * As above, for a claim the property narrows away in a documented case.
     *
     * @param waived asked at the end: true when the property's own documented narrowing waives the claim (the
     *               adapter model chain's (phase, call) pairs for a provider that refused calls)
     */
    static void demand(String label, Collection<String> required, java.util.function.IntSupplier reached, int least, String unit,
                       java.util.function.Supplier<String> providerShortfall, java.util.function.BooleanSupplier waived) {
        if (CurrentProperty.get() == null) {
            return; // outside a kit property (a unit test calling a property method): nothing to demand
        }
        List<String> classes = List.copyOf(required);
        boolean explicit = TckConfig.current().tries().isPresent();
        Statistics.label(label).coverage(cov -> {
            if (waived.getAsBoolean()) {
                return; // the property's documented narrowing
            }
            // a property the time budget cut short ran fewer tries than planned: its claim is still checked on the
            // tries that ran, and one they did not reach leaves the rules UNTESTED with the reason, never PASS
            boolean cut = TimeBudget.cutShort();
            int n = reached.getAsInt();
            String provider = providerShortfall.get();
            if (n < least) {
                String why = classes.size() + " classes need " + least + " " + unit + " and " + n + " ran";
                if (provider != null) {
                    throw new UnreachableClaim(label, why + ": " + provider);
                }
                if (cut) {
                    throw new UnreachableClaim(label, why + BUDGET_CUT);
                }
                if (explicit) {
                    UnreachableClaim.note(label, why + " (the --tries / ndk.tck.tries asked for); run without --tries,"
                            + " or with at least " + least + ", to check it");
                    return; // the checks that ran are judged; the note says the claim was not checked
                }
                throw new AssertionError("coverage: the claim '" + label + "' is out of reach at this profile: " + why
                        + "; its property's @CoverageClasses or @LeastTries must give more tries");
            }
            for (String r : classes) {
                cov.check(r).count((Consumer<Integer>) k -> {
                    if (k >= 1) {
                        return;
                    }
                    if (provider != null) {
                        throw new UnreachableClaim(label, "no '" + r + "' in " + n + " " + unit + ": " + provider);
                    }
                    if (cut) {
                        throw new UnreachableClaim(label, "no '" + r + "' in " + n + " " + unit + BUDGET_CUT);
                    }
                    throw new AssertionError("coverage: the generator produced no '" + r + "' case in " + n + " " + unit);
                });
            }
        });
    }

    /**
     * The steps an action chain needs so that a kind of step chosen with probability {@code rarest} per step goes
     * missing by chance less than once in a million runs among {@code kinds} kinds:
     * {@code ceil(ln(kinds × 10^6) / -ln(1 - rarest))}. The chain's own preconditions (a deregistration needs a
     * registered MR) lower a kind's chance below its weight's share; the chains keep their weights high enough that the
     * kit's own build, which runs every chain at the smoke profile, shows the bound holds.
     *
     * @param kinds  the kinds of step claimed, at least 1
     * @param rarest the smallest weight's share of all the chain's weights, in (0, 1]
     * @return the least steps
     */
    static int leastSteps(int kinds, double rarest) {
        return (int) Math.ceil(Math.log(Math.max(1, kinds) * 1e6) / -Math.log1p(-Math.min(rarest, 0.999999)));
    }
}
