package org.ndktck.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.tck.kit.KitRun;

/**
 * The legal providers of {@link LegalProvidersTest} over the reference's completion=pending (every request and
 * create completes through its callback after STATUS_PENDING): no FAIL either. A class of its own so that the
 * build's two test JVMs run it and the inline runs at once.
 */
class LegalProvidersPendingTest {
    @ParameterizedTest(name = "{0}, completion=pending")
    @MethodSource("org.ndktck.tck.faults.LegalProvidersTest#legalFast")
    void theKitGivesNoFailOverAPendingReference(String provider) {
        KitRun.Result r = KitRun.against(provider, KitRun.Preset.FAULTS).set("completion", "pending").tries(3).run();
        assertThat(r.properties()).as("properties ran").isNotEmpty();
        // a kit interpretation's finding is ADVISORY, not FAIL (Verdicts.kitInterpretationOnly)
        assertThat(r.failRules()).as(r.describe()).isEmpty();
        r.assertJudged(org.ndktck.tck.kit.Unjudged.DEFAULT_LIMITS);
    }
}
