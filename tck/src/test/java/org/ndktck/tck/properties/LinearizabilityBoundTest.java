package org.ndktck.tck.properties;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.kit.KitRun;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A round of {@link ConcurrentModelProperties} whose linearizability search reaches its step bound is not judged, and
 * a property none of whose tries judged a round leaves its rules UNTESTED with the reason, never PASS: run against the
 * reference with a bound of one step (every round of two or more calls reaches it), the property passes but its rules
 * ran no check, each with the reason naming the bound; with the default bound the same seed judges them.
 */
class LinearizabilityBoundTest {
    private static KitRun.Result run(String steps) {
        KitRun run = KitRun.against("reference", KitRun.Preset.SECTIONS).classes(ConcurrentModelProperties.class)
                .tries(6).param("ndk.tck.seed", "31").param("ndk.tck.profile", "smoke");
        if (steps != null) {
            run.param(ConcurrentModelRounds.SEARCH_STEPS_KEY, steps);
        }
        return run.run();
    }

    @Test
    void aRoundThatReachesTheSearchBoundIsNotJudged() {
        KitRun.Result bounded = run("1");
        assertThat(bounded.failed()).as(bounded.describe()).isEmpty();
        Map<String, String> unjudged = bounded.unjudged();
        assertThat(unjudged).as(bounded.describe()).containsKeys("MR-TOK-6", "MR-DEREG-3", "MR-REG-4");
        assertThat(unjudged.get("MR-TOK-6")).startsWith(ConcurrentModelRounds.SEARCH_BOUND).contains("bound of 1 steps")
                .contains(ConcurrentModelRounds.SEARCH_STEPS_KEY);
    }

    @Test
    void withTheDefaultBoundTheSameRoundsAreJudged() {
        KitRun.Result judged = run(null);
        assertThat(judged.failed()).as(judged.describe()).isEmpty();
        assertThat(judged.unjudged()).as(judged.describe()).doesNotContainKeys("MR-TOK-6", "MR-DEREG-3", "MR-REG-4");
    }
}
