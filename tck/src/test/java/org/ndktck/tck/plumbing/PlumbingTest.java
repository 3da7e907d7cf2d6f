package org.ndktck.tck.plumbing;

import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherFactory;
import org.ndktck.tck.RunLedger;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/** The kit hook sets tries and a seed derived from ndk.tck.seed, and records into the RunLedger. */
class PlumbingTest {
    private List<Integer> run(long seed) {
        RunLedger.reset();
        PlumbingProbe.SEEN.clear();
        LauncherDiscoveryRequest req = request().selectors(selectClass(PlumbingProbe.class))
                .configurationParameter("ndk.tck.seed", Long.toString(seed))
                .configurationParameter("ndk.tck.tries", "17")
                .configurationParameter("jqwik.database", "target/jqwik-plumbing-db" + System.getProperty("ndk.test.fork", ""))
                .build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(req);
        return new ArrayList<>(PlumbingProbe.SEEN);
    }

    @Test
    void seedAndTriesComeFromTheRunConfiguration() {
        List<Integer> a = run(42);
        assertThat(RunLedger.properties()).singleElement().satisfies(r -> {
            assertThat(r.tries()).isEqualTo(17);
            assertThat(r.ruleIds()).containsExactly("MR-CREATE-2");
            assertThat(r.status()).isEqualTo("SUCCESSFUL");
        });
        List<Integer> b = run(42);
        List<Integer> c = run(43);
        assertThat(a).hasSize(17).isEqualTo(b).isNotEqualTo(c);
    }
}
