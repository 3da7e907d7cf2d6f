package org.ndktck.tck.gaps;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.MutationGapFaults;

/**
 * The kit fails the rule in the name of every fault of {@link MutationGapFaults} (surviving PIT mutants of the
 * reference provider turned into faults), running only the properties of that rule, as {@code selftest} does.
 * Each of these faults survived the kit before its gap was closed.
 */
class MutationGapsTest {
    /**
     * Tries per fault: the rarest of these faults (MR-REG-4/mdl-boundary-in-page, caught when a chain's inner MDL
     * boundary falls inside a page and the probe reaches past it) took 14 to 113 tries over five seeds, so 400
     * keeps the chance of a miss below 10^-4 while a caught fault stops at its first failure.
     */
    static final int TRIES = 400;

    static Stream<String> faults() {
        return GapFaults.names(new MutationGapFaults());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault) {
        GapFaults.assertCaughtByItsRule(fault, TRIES);
    }
}
