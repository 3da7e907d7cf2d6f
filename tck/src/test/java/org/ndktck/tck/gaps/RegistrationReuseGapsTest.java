package org.ndktck.tck.gaps;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.RegistrationReuseFaults;
import org.ndktck.tck.kit.KitRun;
import org.ndktck.tck.properties.MrLifecycleStateProperties;

/**
 * The kit fails the rule in the name of every fault of {@link RegistrationReuseFaults} (an MR registered,
 * deregistered and registered again keeps its earlier remote rights, or its remote token getter keeps the first
 * registration's token): only the MR life-cycle chain re-registers a deregistered MR (MR-DEREG-4, in the model's
 * unspecified mode), so it runs alone, with the fault's rule's tag. A chain meets "re-register, then access the new
 * region" in some tries only: 2000 tries (twice the standard profile) run the chain's declared 100 twice over, 200
 * chains. {@code legal:reregistration-refused}, which refuses every re-registration, is proved by the legal-provider
 * tests (LegalProvidersTest) with the rest of the legal providers.
 */
class RegistrationReuseGapsTest {
    static final int TRIES = 2000;

    static Stream<String> faults() {
        return GapFaults.names(new RegistrationReuseFaults());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void theLifeCycleChainFailsTheRuleInTheFaultsName(String fault) {
        String rule = GapFaults.ruleOf(fault);
        KitRun.Result r = KitRun.against(fault, KitRun.Preset.FAULTS).classes(MrLifecycleStateProperties.class).tags(rule)
                .tries(TRIES).run();
        r.assertCaught(rule);
    }
}
