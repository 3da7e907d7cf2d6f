package org.ndktck.tck.runner;

import net.jqwik.api.TooManyFilterMissesException;
import org.junit.jupiter.api.Test;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.KitSetupError;

import static org.assertj.core.api.Assertions.assertThat;

/** What counts as a catch: only a RuleViolation of the fault's rule as the property's first failure. */
class CatchesTest {
    @Test
    void aViolationOfTheRuleThrownAsTheFailureCatchesIt() {
        Catches.FirstFailure f = Catches.of("FAILED", new RuleViolation("MR-FR-4", "MUST: Length one past accepted"));
        assertThat(f.kind()).isEqualTo(Catches.Kind.VIOLATION);
        assertThat(f.describe()).isEqualTo("violation of MR-FR-4");
        assertThat(f.catches("MR-FR-4")).isTrue();
        assertThat(f.catches("MR-FR-3")).as("a violation of another rule").isFalse();
    }

    @Test
    void aViolationBuriedAsACauseOrSuppressedIsNoCatch() {
        IllegalStateException crash = new IllegalStateException("boom", new RuleViolation("MR-FR-4", "MUST: x"));
        crash.addSuppressed(new RuleViolation("MR-FR-4", "MUST: y"));
        Catches.FirstFailure f = Catches.of("FAILED", crash);
        assertThat(f.kind()).isEqualTo(Catches.Kind.CRASH);
        assertThat(f.catches("MR-FR-4")).isFalse();
        assertThat(f.describe()).isEqualTo("crash: java.lang.IllegalStateException: boom");
    }

    @Test
    void timeBoundsCoverageGeneratorAndSetUpErrorsAreNoCatch() {
        assertThat(Catches.of(PropertyOutcome.TIMED_OUT, null).kind()).isEqualTo(Catches.Kind.TIME_BOUND);
        assertThat(Catches.of("FAILED", new AssertionError("coverage: the generator produced no 'one past' case in 100 tries")).kind())
                .isEqualTo(Catches.Kind.COVERAGE);
        assertThat(Catches.of("FAILED", new TooManyFilterMissesException("filter")).kind()).isEqualTo(Catches.Kind.GENERATOR);
        assertThat(Catches.of("FAILED", new KitSetupError("NdkCreatePd()", "STATUS_INSUFFICIENT_RESOURCES")).kind())
                .isEqualTo(Catches.Kind.SETUP);
        assertThat(Catches.of("FAILED", new AssertionError("expected 1 but was 2")).kind()).isEqualTo(Catches.Kind.ASSERTION);
        for (Throwable t : new Throwable[]{new AssertionError("coverage: x"), new TooManyFilterMissesException("f"),
                new KitSetupError("c", "r"), new NullPointerException()}) {
            assertThat(Catches.of("FAILED", t).catches("MR-FR-4")).as(t.toString()).isFalse();
        }
        assertThat(Catches.of(PropertyOutcome.TIMED_OUT, new RuleViolation("MR-FR-4", "x")).catches("MR-FR-4"))
                .as("a property the runner abandoned").isFalse();
    }

    @Test
    void aPropertyThatDidNotFailHasNoFirstFailure() {
        assertThat(Catches.of("SUCCESSFUL", null)).isNull();
        assertThat(Catches.of("SKIPPED", null)).isNull();
    }
}
