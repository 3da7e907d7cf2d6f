package org.ndktck.tck.runner.testkit;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import org.ndktck.tck.harness.NdkKit;

@NdkKit
class CreateMrProbe {
    @Property
    @Tag("MR-CREATE-2")
    void createSucceeds(@ForAll @IntRange(min = 0, max = 100) int x) {
        Probe.act("MR-CREATE-2", x);
    }
}
