package org.ndktck.faults;

import org.junit.jupiter.api.Test;
import org.ndktck.spec.NdkProvider;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A fault that needs a setting carries it as its own default; the user's value wins. */
class FaultDefaultsTest {
    private static NdkProvider fault(String name) {
        return new SeedPageFaults().providers().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void faultsCarryTheSettingsTheirRuleNeeds() throws Exception {
        assertThat(fault("fault:GEN-CB-5").configure(Map.of()).effectiveSettings()).containsEntry("maxObjects", "16");
        assertThat(fault("fault:MR-REG-10").configure(Map.of()).effectiveSettings()).containsEntry("maxRegistrationSize", "1048576");
        assertThat(FaultDefaults.defaultsOf(fault("fault:GEN-CB-5"))).containsEntry("maxObjects", "16");
        assertThat(FaultDefaults.defaultsOf(fault("fault:MR-FR-4"))).isEmpty();
    }

    @Test
    void theUsersValueWins() throws Exception {
        assertThat(fault("fault:GEN-CB-5").configure(Map.of("maxObjects", "99")).effectiveSettings()).containsEntry("maxObjects", "99");
        assertThat(fault("fault:GEN-CB-5").name()).isEqualTo("fault:GEN-CB-5");
        assertThat(fault("fault:GEN-CB-5").description()).contains("STATUS_INSUFFICIENT_RESOURCES");
    }
}
