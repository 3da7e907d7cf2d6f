package org.ndktck.tck.gaps;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.AddressWidthFaults;

/**
 * The kit fails the rule in the name of every fault of {@link AddressWidthFaults} (addresses compared as signed
 * 64-bit values), running only the properties of that rule at the smoke profile's 50 tries: the register and
 * fast-register plans put regions across 2^63 often enough for a smoke run to meet one.
 */
class AddressWidthGapsTest {
    static final int TRIES = 50;

    static Stream<String> faults() {
        return GapFaults.names(new AddressWidthFaults());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theKitFailsTheRuleInTheFaultsName(String fault) {
        GapFaults.assertCaughtByItsRule(fault, TRIES);
    }
}
