package org.ndktck.tck.plumbing;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import org.ndktck.tck.harness.NdkKit;

@NdkKit
class PlumbingProbe {
    static final java.util.List<Integer> SEEN = new java.util.ArrayList<>();

    @Property
    @Tag("MR-CREATE-2")
    void probe(@ForAll int x) {
        SEEN.add(x);
    }
}
