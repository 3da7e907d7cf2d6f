package org.ndktck.tck.gaps;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.BoundaryFaults;

/**
 * The kit fails the rule in the name of every fault of {@link BoundaryFaults} (a limit of a provider-checked rule
 * moved by one at exactly its boundary value), running only the properties of that rule at the smoke profile's
 * 50 tries, as the PIT run does.
 */
class BoundaryGapsTest {
    static final int TRIES = 50;

    static Stream<String> faults() {
        return GapFaults.names(new BoundaryFaults());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault) {
        GapFaults.assertCaughtByItsRule(fault, TRIES);
    }
}
