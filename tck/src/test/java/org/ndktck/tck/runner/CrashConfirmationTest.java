package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.ProviderProcessEnded;
import org.ndktck.tck.RuleViolation;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The end of the provider's process stays charged to the property's rule only when the property, rerun alone in a
 * fresh process, ends it again; otherwise GEN-EXC-1 carries it. Every end of the same bug is one cause.
 */
class CrashConfirmationTest {
    private static final String CAUSE = "SUMMARY: AddressSanitizer: attempting double-free sample.c:495 in retire";
    private static final PropertyInfo DEREG = new PropertyInfo("[engine:jqwik]/d", "DeregisterProperties#x", "D", "x", Set.of("MR-DEREG-2"));
    private static final PropertyInfo FR = new PropertyInfo("[engine:jqwik]/f", "FastRegisterProperties#y", "F", "y", Set.of("MR-FR-4"));

    private static PropertyOutcome failed(PropertyInfo p, Throwable t) {
        return new PropertyOutcome(p, "FAILED", 3, 3, "42", 100, t.getMessage(), t, "[cx]", 200);
    }

    private static ProviderProcessEnded ended(String rule) {
        return new ProviderProcessEnded(rule, "the C provider's host process ended during NdkDeregisterMr: crash log /r/h-1.log", CAUSE, false);
    }

    @Test
    void aRerunThatEndsTheProcessAgainConfirmsTheCharge() {
        PropertyOutcome o = failed(DEREG, ended("MR-DEREG-2"));
        PropertyOutcome judged = CrashConfirmation.judge(o, failed(DEREG, ended("MR-DEREG-2")), null);
        assertThat(judged.failure()).isSameAs(o.failure());
        assertThat(judged.message()).contains("confirmed: rerun alone in a fresh host process with seed 42").contains("the same cause");
        Catches.FirstFailure f = Catches.of(judged);
        assertThat(f.kind()).isEqualTo(Catches.Kind.PROCESS_END);
        assertThat(f.catches("MR-DEREG-2")).isTrue();
        assertThat(f.describe()).isEqualTo("provider process ended: " + CAUSE);
    }

    @Test
    void aRerunThatPassesMovesTheChargeToGenExc1() {
        PropertyOutcome o = failed(FR, ended("MR-FR-4"));
        PropertyOutcome passed = new PropertyOutcome(FR, "SUCCESSFUL", 50, 50, "42", 90, "", null, "", 300);
        PropertyOutcome judged = CrashConfirmation.judge(o, passed, null);
        Catches.FirstFailure f = Catches.of(judged);
        assertThat(f.rule()).isEqualTo("GEN-EXC-1");
        assertThat(f.catches("MR-FR-4")).as("an unconfirmed end is no catch of the property's rule").isFalse();
        assertThat(f.describe()).as("still the same cause, so it groups with the confirmed ones")
                .isEqualTo("provider process ended: " + CAUSE);
        assertThat(judged.message()).contains("not confirmed").contains("it passed").contains("crash log /r/h-1.log");
        assertThat(Failures.violatedRules(judged.failure())).containsExactly("GEN-EXC-1");
    }

    @Test
    void aPropertyNotRerunIsUnconfirmedWithTheReason() {
        PropertyOutcome judged = CrashConfirmation.judge(failed(FR, ended("MR-FR-4")), null, "at most 8 properties are rerun per run");
        assertThat(Catches.of(judged).rule()).isEqualTo("GEN-EXC-1");
        assertThat(judged.message()).contains("not rerun: at most 8 properties are rerun per run");
    }

    @Test
    void aHungCallKilledIsNotRerunAndOtherFailuresAreLeftAsTheyAre() {
        PropertyOutcome hang = failed(DEREG, new ProviderProcessEnded("GEN-TIME-1", "killed", "the relay killed it", true));
        assertThat(CrashConfirmation.toConfirm(hang)).isNull();
        assertThat(Catches.of(hang).catches("GEN-TIME-1")).isTrue();
        PropertyOutcome plain = failed(FR, new RuleViolation("MR-FR-4", "Length one past accepted"));
        assertThat(CrashConfirmation.toConfirm(plain)).isNull();
        assertThat(CrashConfirmation.judge(plain, null, "x")).isSameAs(plain);
    }

    @Test
    void anEndRethrownAsAPlainViolationByTheHarnessIsStillFound() {
        ProviderProcessEnded e = ended("MR-TOK-6");
        // as a worker thread's violation is re-thrown: the rule and the message kept, a description appended
        RuleViolation again = new RuleViolation("MR-TOK-6", e.getMessage().substring("[MR-TOK-6] ".length()) + "\n  thread 2, step 3");
        ProviderProcessEnded found = ProviderProcessEnded.in(again);
        assertThat(found).isNotNull();
        assertThat(found.cause()).isEqualTo(CAUSE);
        assertThat(found.hang()).isFalse();
        assertThat(Catches.of("FAILED", again).describe()).isEqualTo("provider process ended: " + CAUSE);
        assertThat(ProviderProcessEnded.in(new RuleViolation("MR-TOK-6", "two MRs share a token"))).isNull();
    }
}
