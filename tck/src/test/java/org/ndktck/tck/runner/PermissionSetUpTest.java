package org.ndktck.tck.runner;

import org.junit.jupiter.api.Test;
import org.ndktck.spec.rules.Strength;
import org.ndktck.tck.harness.KitSetupError;

import java.util.LinkedHashSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A set-up error is charged at each rule's level: a MAY rule is ADVISORY like a SHOULD rule, never FAIL while the
 * SHOULD rule is ADVISORY; a MAY rule's own breach (a crash, a violation) stays FAIL.
 */
class PermissionSetUpTest {
    private static PropertyOutcome failed(Throwable t) {
        PropertyInfo p = new PropertyInfo("[uid:P]", "P#may", "x.P", "may", new LinkedHashSet<>(List.of("GEN-CB-5")));
        return new PropertyOutcome(p, "FAILED", 1, 1, "1", 5, t.getMessage(), t, "[true]", 5);
    }

    @Test
    void aSetUpErrorMakesAMayRuleAdvisoryAndOnlyThat() {
        PropertyOutcome setup = failed(new KitSetupError("NdkCreatePd()", "STATUS_NOT_IMPLEMENTED (0xC0000002)"));
        PropertyOutcome crash = failed(new IllegalStateException("leaked"));
        assertThat(Verdicts.setUpOnlyOfAPermission(Strength.MAY, List.of(setup))).isTrue();
        assertThat(Verdicts.setUpOnlyOfAPermission(Strength.MUST, List.of(setup))).isFalse();
        assertThat(Verdicts.setUpOnlyOfAPermission(Strength.MAY, List.of(setup, crash))).isFalse();
        assertThat(Verdicts.setUpOnlyOfAPermission(Strength.MAY, List.of())).isFalse();
    }
}
