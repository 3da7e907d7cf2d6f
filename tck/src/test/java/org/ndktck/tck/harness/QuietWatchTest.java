package org.ndktck.tck.harness;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ndktck.tck.RuleViolation;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quiet watch runs each check once, never before its quiet period has passed, and a property's
 * end runs what is still pending: a late callback is judged as when the try waited.
 */
class QuietWatchTest {
    @AfterEach
    void clear() {
        QuietWatch.reset();
    }

    private static RuleViolation broken() {
        return new RuleViolation("GEN-CB-2", "NdkRegisterMr()\n  expected: no completion\n  actual:   the completion was called 1 time(s)");
    }

    @Test
    void aCheckWhoseQuietPeriodHasNotPassedDoesNotRunYet() {
        AtomicInteger runs = new AtomicInteger();
        QuietWatch.after(TimeUnit.HOURS.toNanos(1), () -> {
            runs.incrementAndGet();
            return broken();
        });
        assertThat(QuietWatch.due()).isNull();
        assertThat(runs).hasValue(0);
    }

    @Test
    void aDueCheckRunsOnceAndKeepsItsRule() {
        AtomicInteger runs = new AtomicInteger();
        QuietWatch.after(0, () -> {
            runs.incrementAndGet();
            return broken();
        });
        RuleViolation v = QuietWatch.due();
        assertThat(v).isNotNull();
        assertThat(v.ruleId()).isEqualTo("GEN-CB-2");
        assertThat(v.getMessage()).startsWith("[GEN-CB-2] NdkRegisterMr()").contains("the completion was called 1 time(s)")
                .contains("seen after the try that made the call had ended");
        assertThat(QuietWatch.due()).isNull();
        assertThat(QuietWatch.settle()).isNull();
        assertThat(runs).hasValue(1);
    }

    @Test
    void theEndOfAPropertyRunsWhatIsPendingAfterItsQuietPeriod() {
        long[] ranAt = new long[1];
        long start = System.nanoTime();
        long quiet = TimeUnit.MILLISECONDS.toNanos(2);
        QuietWatch.after(quiet, () -> {
            ranAt[0] = System.nanoTime();
            return null;
        });
        QuietWatch.after(0, () -> null);
        QuietWatch.after(quiet, QuietWatchTest::broken);
        RuleViolation v = QuietWatch.settle();
        assertThat(v).isNotNull();
        assertThat(v.ruleId()).isEqualTo("GEN-CB-2");
        assertThat(ranAt[0] - start).as("never before the quiet period").isGreaterThanOrEqualTo(quiet);
        assertThat(QuietWatch.settle()).isNull();
    }

    @Test
    void aCheckThatHoldsGivesNoViolation() {
        QuietWatch.after(0, () -> null);
        assertThat(QuietWatch.due()).isNull();
    }
}
