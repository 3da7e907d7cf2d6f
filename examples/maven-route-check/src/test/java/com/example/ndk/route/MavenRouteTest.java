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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The Maven route tests the provider its {@code @Suite} names: runs each suite of this build on
 * the JUnit Platform launcher, as Surefire would, and checks what the kit did.
 */
class MavenRouteTest {
    /** What one suite's run produced: each test (property) with its result. */
    record Outcome(List<String> succeeded, List<String> failed, List<String> failureMessages, List<String> skipped,
                   List<String> skipReasons) {
    }

    @TempDir
    static Path reports;

    /** @return report.json of a suite, as the kit's listener wrote it under ndk.tck.reportDir */
    private static JsonNode report(Class<?> suite) throws IOException {
        return new ObjectMapper().readTree(reports.resolve(suite.getSimpleName()).resolve("report.json").toFile());
    }

    private static JsonNode rule(JsonNode report, String id) {
        for (JsonNode r : report.get("rules")) {
            if (r.get("id").asText().equals(id)) {
                return r;
            }
        }
        throw new AssertionError("no rule " + id + " in report.json");
    }

    private static Outcome run(Class<?> suite) {
        return run(suite, Map.of());
    }

    private static Outcome run(Class<?> suite, Map<String, String> more) {
        Outcome o = new Outcome(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Launcher launcher = LauncherFactory.create();
        // as this build's Surefire configuration has them: jqwik reports only failures, to the platform
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(suite))
                        .configurationParameter("jqwik.reporting.onlyfailures", "true")
                        .configurationParameter("jqwik.reporting.usejunitplatform", "true")
                        .configurationParameters(more)
                        .configurationParameter("ndk.tck.reportDir", reports.toString()).build(),
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

    /** Whether the kit raises this property's tries to its coverage claim's least tries. */
    private static boolean raisedByACoverageClaim(String propertyId) {
        String[] cm = propertyId.split("#");
        try {
            for (java.lang.reflect.Method m : Class.forName("org.ndktck.tck.properties." + cm[0]).getDeclaredMethods()) {
                if (m.getName().equals(cm[1])) {
                    return m.isAnnotationPresent(org.ndktck.tck.harness.CoverageClasses.class)
                            || m.isAnnotationPresent(org.ndktck.tck.harness.LeastTries.class);
                }
            }
        } catch (ClassNotFoundException e) {
            throw new AssertionError("no property class for " + propertyId, e);
        }
        throw new AssertionError("no property method for " + propertyId);
    }

    @BeforeEach
    void forgetEarlierRuns() {
        RunLedger.reset();
    }

    @Test
    void aLegalProviderNamedBySuiteParametersPassesWithTheSuitesSeedAndTries() throws IOException {
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
            if (raisedByACoverageClaim(r.property())) {
                // a coverage claim's least tries (@CoverageClasses, @LeastTries) raise any asked-for count, so the
                // claim is checked on every route
                assertTrue(r.tries() >= 7, r.property() + " ran " + r.tries() + " tries, fewer than the suite's 7");
            } else {
                assertTrue(r.tries() <= 7, r.property() + " ran " + r.tries() + " tries, not the suite's 7");
            }
        }
        assertTrue(records.stream().anyMatch(r -> r.tries() == 7), "no property ran the suite's 7 tries");

        // the same per-rule reports as ./ndk-tck run, written by the kit's listener
        JsonNode report = report(LegalProviderSuite.class);
        assertEquals("legal:foreign-thread-completion", report.get("provider").get("name").asText());
        assertEquals("4242", report.get("seedText").asText());
        assertEquals(0, report.get("exitCode").asInt());
        assertEquals("PASS", rule(report, "MR-FR-4").get("verdict").asText());
        assertEquals("PASS", rule(report, "MR-TOK-2").get("verdict").asText());
        assertEquals("UNTESTED", rule(report, "MR-FR-10").get("verdict").asText(), "a rule the suite did not select");
        assertTrue(Files.isRegularFile(reports.resolve("LegalProviderSuite/report.html")));
        String junit = Files.readString(reports.resolve("LegalProviderSuite/junit/TEST-ndk-tck.xml"));
        assertTrue(junit.contains("name=\"MR-FR-4\""), junit);
        assertTrue(junit.contains("tests=\"2\" failures=\"0\""), "one test case per selected rule: " + junit);
    }

    @Test
    void aFaultNamedBySuiteParametersFailsTheRuleItBreaks() throws IOException {
        Outcome o = run(FaultProviderSuite.class);
        assertFalse(o.failed().isEmpty(), "fault:MR-FR-4 passed the Maven route: the suite's provider was not used");
        assertTrue(o.failureMessages().stream().anyMatch(m -> m.contains("MR-FR-4")), String.join("\n", o.failureMessages()));
        assertTrue(o.failureMessages().stream().noneMatch(m -> m.contains("setup error")), String.join("\n", o.failureMessages()));
        JsonNode report = report(FaultProviderSuite.class);
        assertEquals("fault:MR-FR-4", report.get("provider").get("name").asText());
        assertEquals("FAIL", rule(report, "MR-FR-4").get("verdict").asText());
        assertEquals(1, report.get("exitCode").asInt());
        assertTrue(rule(report, "MR-FR-4").get("replay").asText().contains("--provider fault:MR-FR-4 --rules MR-FR-4 --seed "));
    }

    /**
     * ndk.tck.jobs on the Maven route (the kit-run budgets): with 2, two worker JVMs run the suite's properties and this JVM
     * mirrors them, so every property is still a test of this build, with the verdicts, tries and seeds of jobs 1,
     * for a legal provider (passes) and a fault (fails its rule, with the worker's message).
     */
    @Test
    void jobsOnTheMavenRouteRunWorkersWithTheVerdictsOfJobsOne() throws IOException {
        Outcome oneRun = run(LegalProviderSuite.class);
        JsonNode one = report(LegalProviderSuite.class);
        RunLedger.reset();
        Outcome two = run(LegalProviderSuite.class, Map.of("ndk.tck.jobs", "2"));
        assertEquals(List.of(), two.failureMessages(), "a legal provider must pass with ndk.tck.jobs=2");
        assertEquals(oneRun.succeeded(), two.succeeded(), "the same properties, each a test of this build");
        JsonNode withJobs = report(LegalProviderSuite.class);
        for (String id : List.of("MR-FR-4", "MR-TOK-2", "MR-FR-10")) {
            assertEquals(rule(one, id).get("verdict").asText(), rule(withJobs, id).get("verdict").asText(), id);
            assertEquals(rule(one, id).get("tries").asLong(), rule(withJobs, id).get("tries").asLong(), id);
        }
        TckConfig suiteConfig = new TckConfig("legal:foreign-thread-completion", Map.of(), 4242, true,
                TckConfig.Profile.STANDARD, Optional.of(7), 3.0);
        for (RunLedger.PropertyRecord r : RunLedger.properties()) {
            assertEquals(Long.toString(suiteConfig.seedFor(r.property())), r.seed(), r.property() + ": not the suite's seed");
        }
        // the work was done in the workers: each wrote its report, and together they ran every property once
        List<String> ran = new ArrayList<>();
        for (String k : List.of("1", "2")) {
            Path w = reports.resolve("LegalProviderSuite/workers/" + k + "/report.json");
            assertTrue(Files.isRegularFile(w), "no report of worker " + k);
            new ObjectMapper().readTree(w.toFile()).get("properties").forEach(p -> ran.add(p.get("property").asText()));
        }
        assertEquals(two.succeeded().size(), ran.size(), "properties the workers ran: " + ran);

        Outcome fault = run(FaultProviderSuite.class, Map.of("ndk.tck.jobs", "2"));
        assertTrue(fault.failureMessages().stream().anyMatch(m -> m.contains("MR-FR-4")), String.join("\n", fault.failureMessages()));
        JsonNode faultReport = report(FaultProviderSuite.class);
        assertEquals("FAIL", rule(faultReport, "MR-FR-4").get("verdict").asText());
        assertEquals(1, faultReport.get("exitCode").asInt());
        assertTrue(Files.isRegularFile(reports.resolve("FaultProviderSuite/workers/1/report.json")));
    }

    /** A build's own plain JUnit test, no kit property (as examples/provider-build's KitJarTest). */
    static class PlainJupiterTest {
        @Test
        void plain() {
            assertTrue(true);
        }
    }

    @Test
    void aTestPlanWithoutKitPropertiesWritesNoKitReport() {
        Outcome o = run(PlainJupiterTest.class);
        assertEquals(List.of("plain()"), o.succeeded(), "the plain test ran");
        assertFalse(Files.exists(reports.resolve("report.json")),
                "a plan in which no kit property ran got a kit report (all rules UNTESTED) in the report directory");
    }

    @Test
    void anUnknownProviderFailsWithOneSetupError() throws IOException {
        Outcome o = run(UnknownProviderSuite.class);
        assertEquals(1, o.failed().size(), "failures: " + o.failed());
        String message = o.failureMessages().get(0);
        assertTrue(message.startsWith("ndk-tck setup error: unknown provider 'no-such-provider'; known providers: reference"), message);
        assertFalse(message.contains("\n"), message);
        assertEquals(List.of(), o.succeeded());
        assertFalse(o.skipped().isEmpty());
        assertTrue(o.skipReasons().stream().allMatch(r -> r.contains("unknown provider 'no-such-provider'")), o.skipReasons().toString());
        JsonNode report = report(UnknownProviderSuite.class);
        assertEquals(2, report.get("exitCode").asInt());
        assertTrue(report.get("notes").get(0).asText().startsWith("setup error: unknown provider 'no-such-provider'"),
                report.get("notes").toString());
    }
}
