package org.ndktck.tck.harness;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a run leaves behind stays with it: a forbidden callback that comes after its run ended, and a quiet check an
 * ended run left, are never reported by the run after it in the same JVM, and within one run they still are.
 */
class RunContextTest {
    @AfterEach
    void fresh() {
        RunContext.start();
    }

    /** A call that returned STATUS_SUCCESS inline and whose completion then came anyway (GEN-CB-2). */
    private static AsyncOp<?> forbiddenCallback() {
        AsyncOp<?> op = new AsyncOp<>(AsyncOp.Flavor.REQUEST, "NdkRegisterMr", () -> "NdkRegisterMr(...)");
        op.returned(NtStatus.STATUS_SUCCESS);
        op.requestCompletion().complete(op.context(), NtStatus.STATUS_SUCCESS);
        return op;
    }

    @Test
    void aLateCallbackIsReportedInItsOwnRun() {
        RunContext.start();
        forbiddenCallback();
        RuleViolation v = LateCallbacks.takeForeign(java.util.Set.of());
        assertThat(v).as("the run that made the call reports its late callback").isNotNull();
        assertThat(v.ruleId()).isEqualTo("GEN-CB-2");
    }

    @Test
    void aLateCallbackOfAnEndedRunIsNotTheNextRunsFailure() {
        RunContext.start();
        AsyncOp<?> op = new AsyncOp<>(AsyncOp.Flavor.REQUEST, "NdkRegisterMr", () -> "NdkRegisterMr(...)");
        op.returned(NtStatus.STATUS_SUCCESS);
        RunContext.start(); // the next run starts before the provider thread completes the earlier run's call
        op.requestCompletion().complete(op.context(), NtStatus.STATUS_SUCCESS);
        assertThat(LateCallbacks.takeForeign(java.util.Set.of())).isNull();
    }

    @Test
    void aQuietCheckOfAnEndedRunDoesNotRunInTheNextRun() {
        RunContext ended = RunContext.start();
        AtomicInteger runs = new AtomicInteger();
        QuietWatch.after(ended, 0, () -> {
            runs.incrementAndGet();
            return new RuleViolation("GEN-CB-2", "NdkRegisterMr()\n  expected: no completion\n  actual:   a completion");
        });
        RunContext.start();
        assertThat(QuietWatch.settle()).isNull();
        assertThat(runs).hasValue(0);
        QuietWatch.after(RunContext.current(), 0, () -> {
            runs.incrementAndGet();
            return new RuleViolation("GEN-CB-2", "NdkRegisterMr()\n  expected: no completion\n  actual:   a completion");
        });
        assertThat(QuietWatch.settle()).as("the run's own check still runs").isNotNull();
        assertThat(runs).hasValue(1);
    }
}
