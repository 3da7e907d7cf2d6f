package org.ndktck.tck.properties;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.harness.TimeBudget;
import org.ndktck.tck.harness.UnreachableClaim;
import org.ndktck.tck.kit.KitRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A property the time budget cuts short before its tries reach its coverage claim is aborted with the claim's reason,
 * so its rule is UNTESTED (the runner's verdict for {@code coverage claim not reached}), never PASS on a claim nobody
 * checked: against legal:slow-completion (every call pends 3 ms) COV-3's property claims each of its five kinds of bad
 * token at least once. The run's start ({@link TimeBudget#START}) is set two seconds in the past with a budget of 1 s, so
 * the share's soft end has passed before the property starts and the budget cuts it after its first judged try, so
 * its tries hold fewer than five kinds: the claim is out of reach whatever the machine's speed. (With the start left to the launch, a fast machine
 * ran eight tries within the share; when those happened to hold all five kinds the claim was met and the property
 * rightly passed, so the test's outcome hung on the machine.) Before, such a property passed budget-limited with the
 * claim unchecked. The launcher route has no hard end, so the property always ends by its share; its record keeps the
 * {@code budget-limited: } line (report.json {@code budgetLimited}).
 */
class BudgetCutClaimTest {
    @Test
    void aClaimTheBudgetCutShortIsUntestedWithItsReason() {
        KitRun.Result r = KitRun.against("legal:slow-completion", KitRun.Preset.SECTIONS)
                .classes(RemoteInvalidateTokenProperties.class).tags("COV-3").param(TimeBudget.KEY, "1")
                .param(TimeBudget.START, String.valueOf(System.currentTimeMillis() - 2000)).run();
        assertThat(r.properties()).as(r.describe()).hasSize(1);
        RunLedger.PropertyRecord p = r.properties().get(0);
        assertThat(p.status()).as(r.describe()).isEqualTo("ABORTED");
        assertThat(p.message()).as(r.describe()).startsWith(UnreachableClaim.PREFIX).contains(CoverageClaims.BUDGET_CUT);
        assertThat(TimeBudget.isLimited(p.message())).as(p.message()).isTrue();
        // ended after its first judged try (a try an assumption discarded before it does not end the property)
        assertThat(p.tries()).as(r.describe()).isLessThan(RemoteInvalidateTokenProperties.BadToken.values().length);
        assertThat(r.failed()).as(r.describe()).isEmpty();
    }
}
