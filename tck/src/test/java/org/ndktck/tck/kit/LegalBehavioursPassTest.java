package org.ndktck.tck.kit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behaviours that are unusual but legal pass the kit: a completion that arrives before the call
 * returns, a completion on a foreign thread, a slow provider within the bound. (Calls made from inside a
 * completion are exercised by GEN-LIFE-1 against the reference in pending mode, {@link ReferencePassesTest}.)
 */
class LegalBehavioursPassTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(classes = {LegalVariants.CompletionBeforeReturn.class, LegalVariants.CompletionOnAForeignThread.class,
            LegalVariants.SlowWithinTheBound.class})
    void legalBehaviourPasses(Class<?> provider) {
        KitRun.Result r = KitRun.against(provider.getName()).tries(15).classes(KitProperties.seedPages()).run();
        assertThat(r.failed()).as(r.describe()).isEmpty();
        r.assertJudged(Unjudged.INLINE_DEFAULTS);
        assertThat(r.passed()).as(r.describe()).hasSizeGreaterThanOrEqualTo(37);
    }
}
