package org.ndktck.tck.harness;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link TimeBudget}: parsing of ndk.tck.timeBudget and the budget-limited mark (issue 20, item 6). */
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
}
