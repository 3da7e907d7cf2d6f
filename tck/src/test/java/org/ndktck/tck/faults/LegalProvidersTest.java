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
 * calling back from inside them, and judges them: every provider-checked rule runs checks, except the adapter limits
 * {@link org.ndktck.tck.kit.Unjudged} documents. Every property of the kit runs, with a few tries each. The same providers over
 * the reference's completion=pending: {@link LegalProvidersPendingTest}.
 */
class LegalProvidersTest {
    static final int TRIES = 5;

    /**
     * The legal providers this build runs at a few tries. {@code legal:slow-completion} (every completion 3 ms late)
     * is left out: the kit's scale properties make thousands of calls whatever the tries, so it needs the run's time
     * budget ({@code --time-budget}, TimeBudgetTest and the selftest), which this launcher route does not end hard.
     */
    static Stream<String> legal() {
        return LegalBehaviours.providers().stream().map(NdkProvider::name).filter(n -> !n.equals("legal:slow-completion"));
    }

    /** As {@link #legal}, without {@code legal:slow} too, whose pending run repeats its inline run's cost. */
    static Stream<String> legalFast() {
        return legal().filter(n -> !n.equals("legal:slow"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("legal")
    void theKitGivesNoFail(String provider) {
        KitRun.Result r = KitRun.against(provider, KitRun.Preset.FAULTS).tries(TRIES).run();
        assertThat(r.properties()).as("properties ran").isNotEmpty().hasSize((int) r.planned());
        // a kit interpretation's finding is ADVISORY, not FAIL (Verdicts.kitInterpretationOnly)
        assertThat(r.failRules()).as(r.describe()).isEmpty();
        r.assertJudged(org.ndktck.tck.kit.Unjudged.INLINE_DEFAULTS);
    }
}
