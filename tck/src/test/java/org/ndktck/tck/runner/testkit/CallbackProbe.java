package org.ndktck.tck.runner.testkit;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.tck.harness.NdkKit;

@NdkKit
class CallbackProbe {
    @Property
    @Tag("GEN-CB-1")
    void completionComesOnce(@ForAll @IntRange(min = 0, max = 100) int x) {
        Probe.act("GEN-CB-1", x);
    }

    @Property
    @Tag("GEN-CB-2")
    void noCompletionAfterInlineReturn(@ForAll @IntRange(min = 0, max = 100) int x) {
        Probe.act("GEN-CB-2", x);
    }
}
