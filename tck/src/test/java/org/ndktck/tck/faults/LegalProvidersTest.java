package org.ndktck.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.faults.LegalBehaviours;
import org.ndktck.spec.NdkProvider;
import org.ndktck.tck.kit.KitRun;

/**
 * The kit gives no FAIL to providers that behave in legal but unusual ways ({@link LegalBehaviours}): early
 * completions, completions on a foreign thread, slow calls, completions on the calling thread with the kit
 * calling back from inside them. Every property of the kit runs, with a few tries each.
 */
class LegalProvidersTest {
    static final int TRIES = 5;

    static Stream<String> legal() {
        return LegalBehaviours.providers().stream().map(NdkProvider::name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("legal")
    void theKitGivesNoFail(String provider) {
        KitRun.Result r = KitRun.against(provider, KitRun.Preset.FAULTS).tries(TRIES).run();
        assertThat(r.properties()).as("properties ran").isNotEmpty().hasSize((int) r.planned());
        assertThat(r.failedRules()).as(r.describe()).isEmpty();
    }

    @ParameterizedTest(name = "{0}, completion=pending")
    @MethodSource("legal")
    void theKitGivesNoFailOverAPendingReference(String provider) {
        KitRun.Result r = KitRun.against(provider, KitRun.Preset.FAULTS).set("completion", "pending").tries(3).run();
        assertThat(r.failedRules()).as(r.describe()).isEmpty();
    }
}
