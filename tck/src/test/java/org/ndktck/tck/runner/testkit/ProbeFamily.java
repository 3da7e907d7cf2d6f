package org.ndktck.tck.runner.testkit;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Fault and legal probes for the selftest tests. */
public class ProbeFamily implements NdkProviderSource {
    @Override
    public Collection<NdkProvider> providers() {
        return List.of(
                new ProbeProvider("fault:MR-CREATE-2/probe", Map.of("fail", "MR-CREATE-2")),
                new ProbeProvider("fault:GEN-CB-2/probe-crash", Map.of("crash", "GEN-CB-2")),
                new ProbeProvider("fault:GEN-CB-2/probe-buried", Map.of("bury", "GEN-CB-2")),
                new ProbeProvider("fault:MR-CREATE-2/probe-other-rule", Map.of("violate", "MR-CREATE-2>GEN-CB-2")),
                new ProbeProvider("fault:GEN-CB-1/probe-uncaught", Map.of()),
                new ProbeProvider("fault:GEN-CB-1/probe-hang", Map.of("hang", "GEN-CB-1")),
                new ProbeProvider("fault:NO-SUCH-RULE/probe", Map.of()),
                new ProbeProvider("fault:GEN-TIME-1/probe-in-passing", Map.of("violate", "MR-CREATE-2>GEN-TIME-1")),
                new ProbeProvider("legal:probe", Map.of()),
                new ProbeProvider("legal:GEN-CB-2/probe-bad", Map.of("fail", "GEN-CB-2")));
    }
}
