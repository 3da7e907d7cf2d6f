package org.ndktck.tck.gaps;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.RedTeamFaults;

/**
 * The kit fails the rule in the name of every fault of {@link RedTeamFaults} (faults of providers written outside
 * the repository that the kit once passed), running only the properties of that rule at the smoke profile's 50
 * tries: the register and fast-register plans put regions across 2^63 often enough for a smoke run to meet one,
 * and COV-3's property names a fast registration of another PD in about one try of five; the token-table fault
 * runs at the standard profile's 1000 tries.
 */
class RedTeamGapsTest {
    static final int TRIES = 50;
    /** Faults that only a standard-profile run reaches (LiveScaleProperties keeps 2^12 + 64 registrations live from 1000 tries on). */
    static final java.util.Map<String, Integer> STANDARD = java.util.Map.of("fault:COV-1/token-table-4096", 1000);

    static Stream<String> faults() {
        return GapFaults.names(new RedTeamFaults());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault) {
        GapFaults.assertCaughtByItsRule(fault, STANDARD.getOrDefault(fault, TRIES));
    }
}
