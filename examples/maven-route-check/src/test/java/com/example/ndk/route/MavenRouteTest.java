package com.example.ndk.route;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.harness.TckConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The Maven route tests the provider its {@code @Suite} names (issue 14, point 1): runs each suite of this build on
 * the JUnit Platform launcher, as Surefire would, and checks what the kit did.
 */
class MavenRouteTest {
    /** What one suite's run produced: each test (property) with its result. */
    record Outcome(List<String> succeeded, List<String> failed, List<String> failureMessages, List<String> skipped,
                   List<String> skipReasons) {
    }

    private static Outcome run(Class<?> suite) {
        Outcome o = new Outcome(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Launcher launcher = LauncherFactory.create();
        // as this build's Surefire configuration has them: jqwik reports only failures, to the platform
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(suite))
                        .configurationParameter("jqwik.reporting.onlyfailures", "true")
                        .configurationParameter("jqwik.reporting.usejunitplatform", "true").build(),
                new TestExecutionListener() {
                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        if (!id.isTest()) {
                            return;
                        }
                        if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                            o.succeeded().add(id.getDisplayName());
                        } else {
                            o.failed().add(id.getDisplayName());
                            o.failureMessages().add(result.getThrowable().map(Throwable::getMessage).orElse(""));
                        }
                    }

                    @Override
                    public void executionSkipped(TestIdentifier id, String reason) {
                        if (id.isTest()) {
                            o.skipped().add(id.getDisplayName());
                            o.skipReasons().add(reason);
                        }
                    }
                });
        return o;
    }

    @BeforeEach
    void forgetEarlierRuns() {
        RunLedger.reset();
    }

    @Test
    void aLegalProviderNamedBySuiteParametersPassesWithTheSuitesSeedAndTries() {
        Outcome o = run(LegalProviderSuite.class);
        assertEquals(List.of(), o.failureMessages(), "a legal provider must pass");
        assertFalse(o.succeeded().isEmpty(), "no property ran");
        List<RunLedger.PropertyRecord> records = RunLedger.properties();
        assertFalse(records.isEmpty());
        TckConfig suiteConfig = new TckConfig("legal:foreign-thread-completion", Map.of(), 4242, true,
                TckConfig.Profile.STANDARD, Optional.of(7), 3.0);
        for (RunLedger.PropertyRecord r : records) {
            assertTrue(r.ruleIds().contains("MR-FR-4") || r.ruleIds().contains("MR-TOK-2"), r.property());
            assertEquals(Long.toString(suiteConfig.seedFor(r.property())), r.seed(), r.property() + ": not the suite's seed");
            assertTrue(r.tries() <= 7, r.property() + " ran " + r.tries() + " tries, not the suite's 7");
        }
        assertTrue(records.stream().anyMatch(r -> r.tries() == 7), "no property ran the suite's 7 tries");
    }

    @Test
    void aFaultNamedBySuiteParametersFailsTheRuleItBreaks() {
        Outcome o = run(FaultProviderSuite.class);
        assertFalse(o.failed().isEmpty(), "fault:MR-FR-4 passed the Maven route: the suite's provider was not used");
        assertTrue(o.failureMessages().stream().anyMatch(m -> m.contains("MR-FR-4")), String.join("\n", o.failureMessages()));
        assertTrue(o.failureMessages().stream().noneMatch(m -> m.contains("setup error")), String.join("\n", o.failureMessages()));
    }

    @Test
    void anUnknownProviderFailsWithOneSetupError() {
        Outcome o = run(UnknownProviderSuite.class);
        assertEquals(1, o.failed().size(), "failures: " + o.failed());
        String message = o.failureMessages().get(0);
        assertTrue(message.startsWith("ndk-tck setup error: unknown provider 'no-such-provider'; known providers: reference"), message);
        assertFalse(message.contains("\n"), message);
        assertEquals(List.of(), o.succeeded());
        assertFalse(o.skipped().isEmpty());
        assertTrue(o.skipReasons().stream().allMatch(r -> r.contains("unknown provider 'no-such-provider'")), o.skipReasons().toString());
    }
}
