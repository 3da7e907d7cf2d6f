package org.ndktck.tck.harness;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.ndktck.tck.properties.CreateMrProperties;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** A provider's build sees the run seed once per test plan that holds kit properties (examples/provider-build). */
class ConfigCaptureTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @AfterEach
    void restore() {
        ConfigCapture.printTo(System.out);
        TckConfig.useParameters(k -> Optional.empty());
        ProviderUnderTest.reset();
    }

    private String start(Class<?> testClass, Map<String, String> parameters) {
        ConfigCapture.printTo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        TestPlan plan = LauncherFactory.create().discover(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(testClass)).configurationParameters(parameters).build());
        new ConfigCapture().testPlanExecutionStarted(plan);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPlanWithKitPropertiesPrintsTheRunSeedOnceWithItsReplayFlag() {
        String out = start(CreateMrProperties.class, Map.of(TckConfig.SEED, "9007199254740991", ConfigCapture.PRINT_SEED, "true"));
        assertThat(out).isEqualTo("ndk-tck: run seed 9007199254740991 (replay with -Dndk.tck.seed=9007199254740991)"
                + System.lineSeparator());
    }

    @Test
    void aPlanWithoutKitPropertiesOrWithPrintSeedFalsePrintsNothing() {
        assertThat(start(ConfigCaptureTest.class, Map.of(ConfigCapture.PRINT_SEED, "true"))).isEmpty();
        assertThat(start(CreateMrProperties.class, Map.of(ConfigCapture.PRINT_SEED, "false"))).isEmpty();
    }

    @Test
    void randomSeedsAreExactJsonNumbers() {
        for (int i = 0; i < 1000; i++) {
            long s = TckConfig.randomSeed();
            assertThat(s).isBetween(0L, TckConfig.RANDOM_SEED_BOUND - 1);
            assertThat((long) (double) s).isEqualTo(s);
        }
    }

    @Test
    void aSystemPropertyProviderThatTheSuiteOverridesIsNamedAsIgnored() {
        assertThat(TckConfig.ignoredSystemProvider("fault:MR-FR-4", Optional.of("reference"))).get().asString()
                .contains("-Dndk.tck.provider=fault:MR-FR-4 is ignored").contains("names 'reference'");
        assertThat(TckConfig.ignoredSystemProvider("reference", Optional.of("reference"))).isEmpty();
        assertThat(TckConfig.ignoredSystemProvider("fault:MR-FR-4", Optional.empty())).as("the -D value is the one used").isEmpty();
        assertThat(TckConfig.ignoredSystemProvider(null, Optional.of("reference"))).isEmpty();
    }
}
