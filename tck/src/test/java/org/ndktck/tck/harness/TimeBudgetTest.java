package org.ndktck.tck.harness;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link TimeBudget}: parsing of ndk.tck.timeBudget and the budget-limited mark. */
class TimeBudgetTest {
    @Test
    void secondsAreParsedAndBadValuesNamed() {
        assertThat(TimeBudget.parseSeconds("--time-budget", "60")).isEqualTo(60_000);
        assertThat(TimeBudget.parseSeconds("--time-budget", "1.5")).isEqualTo(1_500);
        assertThatThrownBy(() -> TimeBudget.parseSeconds(TimeBudget.KEY, "0")).hasMessageContaining(TimeBudget.KEY);
        assertThatThrownBy(() -> TimeBudget.parseSeconds(TimeBudget.KEY, "abc")).hasMessageContaining("positive number");
        Map<String, String> p = Map.of(TimeBudget.KEY, "30", TimeBudget.START, "1000");
        assertThat(TimeBudget.budgetMillis(k -> Optional.ofNullable(p.get(k)))).contains(30_000L);
        assertThat(TimeBudget.startMillis(k -> Optional.ofNullable(p.get(k)))).contains(1000L);
    }

    @Test
    void aBudgetLimitedMessageIsRecognisedOnAnyLine() {
        assertThat(TimeBudget.isLimited(null)).isFalse();
        assertThat(TimeBudget.isLimited("all fine")).isFalse();
        assertThat(TimeBudget.isLimited(TimeBudget.LIMITED + "A#b: 3 of 1000 tries ran")).isTrue();
        assertThat(TimeBudget.isLimited("other\n" + TimeBudget.LIMITED + "x")).isTrue();
    }

    @Test
    void withoutABudgetNoPropertyIsCutShort() {
        TimeBudget.startRun(k -> Optional.empty(), 3);
        long claim = TimeBudget.claim();
        assertThat(TimeBudget.shareSpent()).isFalse();
        assertThat(TimeBudget.propertyEndMillis()).isEqualTo(Long.MAX_VALUE);
        TimeBudget.endProperty(claim);
        TimeBudget.endRun();
    }

    @Test
    void aWorkerExpectsToRunItsFractionOfThePropertiesLeft() {
        assertThat(TimeBudget.ownShareOf(10, 1, 0)).as("alone so far: all of them").isEqualTo(10);
        assertThat(TimeBudget.ownShareOf(10, 5, 5)).as("half of those before").isEqualTo(5);
        assertThat(TimeBudget.ownShareOf(9, 5, 5)).as("rounded up").isEqualTo(5);
        assertThat(TimeBudget.ownShareOf(1, 1, 40)).as("never below one").isEqualTo(1);
        assertThat(TimeBudget.ownShareOf(4, 3, 1)).isEqualTo(3);
    }

    @Test
    void propertiesClaimedElsewhereLeaveTheirTimeToThisWorkersShares() {
        long now = System.currentTimeMillis();
        Map<String, String> p = Map.of(TimeBudget.KEY, "100", TimeBudget.START, Long.toString(now));
        TimeBudget.startRun(k -> Optional.ofNullable(p.get(k)), 10);
        TimeBudget.endProperty(TimeBudget.claim()); // this worker: 1 of 10
        for (int i = 0; i < 7; i++) {
            TimeBudget.claimedElsewhere(); // the other worker ran 7
        }
        long claim = TimeBudget.claim(); // 2 left, this worker ran 2 of 9: expects to run 1 of them
        // the soft end is 90 s after the start; divided by 2 left it would be about 45 s, by this worker's 1 about 90 s
        assertThat(TimeBudget.propertyShareMillis()).isGreaterThan(80_000).isLessThanOrEqualTo(90_000);
        TimeBudget.endProperty(claim);
        TimeBudget.endRun();
    }
}
