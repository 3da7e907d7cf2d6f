package org.ndktck.tck.sections;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.ndktck.tck.properties.DeregisterProperties;
import org.ndktck.tck.properties.FastRegisterInitProperties;
import org.ndktck.tck.properties.TokenProperties;
import org.ndktck.tck.properties.PrivilegedTokenProperties;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each fault of {@code org.ndktck.faults.SectionFaults} is caught: the kit, run through the JUnit Platform
 * Launcher against {@code fault:RULE-ID/variant} with the rule's tag selected and at most 200 tries,
 * reports that rule as failed.
 */
class SectionFaultsTest {

    /** One fault and how to catch it. */
    record Case(String fault, String rule, Class<?> properties, Map<String, String> settings, int tries) {
        Case(String fault, Class<?> properties) {
            this(fault, fault.substring("fault:".length(), fault.indexOf('/') < 0 ? fault.length() : fault.indexOf('/')),
                    properties, Map.of(), 50);
        }

        Case with(String key, String value) {
            Map<String, String> m = new java.util.LinkedHashMap<>(settings);
            m.put(key, value);
            return new Case(fault, rule, properties, m, tries);
        }
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("fault:MR-DEREG-2/refuses", DeregisterProperties.class));
        c.add(new Case("fault:MR-DEREG-3/token-kept", DeregisterProperties.class));
        for (String f : List.of("fault:MR-FRI-2/off-by-one", "fault:MR-FRI-3/no-limit", "fault:MR-FRI-4/limit-at-frmr",
                "fault:MR-FRI-6/not-reentrant", "fault:MR-FRI-7/first-fast-register-refused", "fault:MR-FRI-8/informational-status")) {
            c.add(new Case(f, FastRegisterInitProperties.class));
        }
        for (String f : List.of("fault:MR-TOK-1/token-late", "fault:MR-TOK-2/wrong-local-token", "fault:MR-TOK-5/changes-on-reread",
                "fault:MR-TOK-6/shared-token")) {
            c.add(new Case(f, TokenProperties.class));
        }
        for (String f : List.of("fault:PRIV-1/privileged-refused", "fault:PRIV-2/pd-wide-key", "fault:PRIV-3/privileged-read-sink-refused")) {
            c.add(new Case(f, PrivilegedTokenProperties.class));
        }
        return c;
    }

    @TestFactory
    Stream<DynamicTest> everySectionFaultIsCaught() {
        return cases().stream().map(k -> DynamicTest.dynamicTest(k.fault() + " fails " + k.rule(), () -> {
            SectionRun run = SectionRun.against(k.fault()).tries(k.tries()).classes(k.properties()).tags(k.rule())
                    .param("ndk.tck.timeoutFactor", "0.2");
            k.settings().forEach(run::set);
            SectionRun.Result r = run.run();
            assertThat(r.failedRules()).as(r.describe()).contains(k.rule());
        }));
    }
}
