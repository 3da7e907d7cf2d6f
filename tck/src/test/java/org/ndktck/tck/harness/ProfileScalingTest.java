package org.ndktck.tck.harness;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.harness.TckConfig.Profile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deep is deeper: a property's declared tries and the kit's scaled sizes grow with the profile, so deep is
 * deeper everywhere and no declared count is a cap that ignores the profile.
 */
class ProfileScalingTest {
    @Test
    void declaredTriesAreTheStandardCountHalvedAtSmokeAndTenTimesAtDeep() {
        for (int declared : new int[]{10, 25, 30, 50, 60, 100, 120, 200, 300}) {
            assertThat(Profile.STANDARD.tries(declared)).as("standard, declared %d", declared).isEqualTo(declared);
            assertThat(Profile.SMOKE.tries(declared)).as("smoke, declared %d", declared).isLessThan(declared);
            assertThat(Profile.DEEP.tries(declared)).as("deep, declared %d", declared).isEqualTo(10 * declared);
        }
    }

    @Test
    void scaledTriesStayWithinEachProfilesOwnCount() {
        assertThat(Profile.SMOKE.tries(5000)).isEqualTo(50);
        assertThat(Profile.STANDARD.tries(5000)).isEqualTo(1000);
        assertThat(Profile.DEEP.tries(5000)).isEqualTo(10000);
        assertThat(Profile.SMOKE.tries(1)).isEqualTo(1);
        assertThat(Profile.DEEP.tries(1)).isEqualTo(10);
    }

    @Test
    void sizesGrowFromSmokeToDeep() {
        assertThat(Profile.SMOKE.size(24)).isEqualTo(12);
        assertThat(Profile.STANDARD.size(24)).isEqualTo(24);
        assertThat(Profile.DEEP.size(24)).isEqualTo(48);
        assertThat(Profile.SMOKE.size(1)).isEqualTo(1);
    }

    @Test
    void anOverrideScalesDeclaredCountsAsTheProfilesDo() {
        java.util.Optional<Integer> none = java.util.Optional.empty();
        assertThat(TckConfig.overriddenTries(5, none)).as("no declared count: the override").isEqualTo(5);
        assertThat(TckConfig.overriddenTries(5000, none)).isEqualTo(5000);
        assertThat(TckConfig.overriddenTries(5, java.util.Optional.of(1))).as("a scale property's one try stays one").isEqualTo(1);
        assertThat(TckConfig.overriddenTries(5, java.util.Optional.of(100))).as("a quick look").isEqualTo(5);
        assertThat(TckConfig.overriddenTries(200, java.util.Optional.of(100))).as("up to standard: at most the declared").isEqualTo(100);
        assertThat(TckConfig.overriddenTries(1000, java.util.Optional.of(100))).isEqualTo(100);
        assertThat(TckConfig.overriddenTries(2000, java.util.Optional.of(100))).as("deeper than standard: in proportion").isEqualTo(200);
        assertThat(TckConfig.overriddenTries(10000, java.util.Optional.of(1))).isEqualTo(10);
        assertThat(TckConfig.overriddenTries(3000, java.util.Optional.of(2000))).as("never above the override").isEqualTo(3000);
    }
}
