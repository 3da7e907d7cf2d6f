package org.ndktck.tck.kit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which UNTESTED reasons the kit's proofs accept as a refusing provider's documented outcome. */
class EveryDiscardARefusalTest {
    private static final String FLOOR = "its property LamProperties#aSuccessfulLamDescribesTheChainsPages ended ABORTED: "
            + "UNTESTED: too few judged tries: 0 of 3 tries judged (floor 1, one in 10); ";

    @Test
    void onlyAFloorReachedThroughRefusalsAlone() {
        assertThat(KitRun.Result.everyDiscardARefusal(FLOOR + "3 discarded, 3 of them because the provider refused a call for "
                + "lack of resources (STATUS_INSUFFICIENT_RESOURCES), which the pages allow")).isTrue();
        assertThat(KitRun.Result.everyDiscardARefusal(FLOOR + "3 discarded, 1 of them because the provider refused a call for "
                + "lack of resources (STATUS_INSUFFICIENT_RESOURCES), which the pages allow")).isFalse();
        assertThat(KitRun.Result.everyDiscardARefusal(FLOOR + "3 discarded, 0 of them because the provider refused a call for "
                + "lack of resources")).isFalse();
        assertThat(KitRun.Result.everyDiscardARefusal("no try reached the rule's check")).isFalse();
    }

    @Test
    void triesLeftOutForAnAdvertisedLimitCountAsDocumentedDiscards() {
        String limited = org.ndktck.tck.harness.KitLifecycle.BEYOND_LIMIT_DISCARDS + "an NdkRegisterMr of Length 0x3000 bytes lies past"
                + " MaxRegistrationSize 0x2000";
        assertThat(KitRun.Result.everyDiscardARefusal(FLOOR + "3 discarded, 1 of them because the provider refused a call for "
                + "lack of resources (STATUS_INSUFFICIENT_RESOURCES), which the pages allow; 2" + limited)).isTrue();
        assertThat(KitRun.Result.everyDiscardARefusal(FLOOR + "3 discarded, 0 of them because the provider refused a call for "
                + "lack of resources (STATUS_INSUFFICIENT_RESOURCES), which the pages allow; 3" + limited)).isTrue();
        // a try discarded for another reason (an assumption of the property's own) is still no documented outcome
        assertThat(KitRun.Result.everyDiscardARefusal(FLOOR + "3 discarded, 0 of them because the provider refused a call for "
                + "lack of resources (STATUS_INSUFFICIENT_RESOURCES), which the pages allow; 2" + limited)).isFalse();
    }
}
