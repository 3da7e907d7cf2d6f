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
 * checked: against legal:slow-completion (every call pends 3 ms) COV-3's property needs its 77 tries of many pending
 * calls each, seconds of completions, and a budget of 1 s cuts it short after its first tries. Before, such a property
 * passed budget-limited with the claim unchecked. The launcher route has no hard end, so the property always ends by
 * its share; its record keeps the {@code budget-limited: } line (report.json {@code budgetLimited}).
 */
class BudgetCutClaimTest {
    @Test
    void aClaimTheBudgetCutShortIsUntestedWithItsReason() {
        KitRun.Result r = KitRun.against("legal:slow-completion", KitRun.Preset.SECTIONS)
                .classes(RemoteInvalidateTokenProperties.class).tags("COV-3").param(TimeBudget.KEY, "1").run();
        assertThat(r.properties()).as(r.describe()).hasSize(1);
        RunLedger.PropertyRecord p = r.properties().get(0);
        assertThat(p.status()).as(r.describe()).isEqualTo("ABORTED");
        assertThat(p.message()).as(r.describe()).startsWith(UnreachableClaim.PREFIX).contains(CoverageClaims.BUDGET_CUT);
        assertThat(TimeBudget.isLimited(p.message())).as(p.message()).isTrue();
        assertThat(r.failed()).as(r.describe()).isEmpty();
    }
}
