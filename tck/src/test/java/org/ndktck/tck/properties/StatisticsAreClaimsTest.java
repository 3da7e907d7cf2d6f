package org.ndktck.tck.properties;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.harness.LeastTries;
import org.ndktck.tck.harness.TckConfig.Profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * No statistic of the kit is only printed: every one either is a coverage claim, demanded at every profile
 * ({@link CoverageClaims}, through {@code Checks.cover}, {@code SectionChecks.cover}, {@link StepClaims}), or is listed
 * in {@link Observations} with the reason it cannot be one (what the provider chose, or an adapter limit). The scan
 * reads the kit's sources: a property that calls jqwik's {@code Statistics.label} itself, with a label its own file
 * does not demand, fails it.
 */
class StatisticsAreClaimsTest {
    /** Files whose {@code Statistics.label} calls take the label as a parameter and demand it (or list it). */
    private static final Set<String> HELPERS = Set.of("Checks.java", "SectionChecks.java", "StepClaims.java",
            "CoverageClaims.java", "Observations.java");

    private static final Pattern LABEL = Pattern.compile("Statistics\\.label\\(([^)]*)\\)");

    /**
     * @param file   a source file's name
     * @param source its text
     * @return each {@code Statistics.label} call the file makes without demanding its label, as "file: call"
     */
    static List<String> unclaimed(String file, String source) {
        List<String> out = new ArrayList<>();
        if (HELPERS.contains(file)) {
            return out;
        }
        Matcher m = LABEL.matcher(source);
        while (m.find()) {
            String arg = m.group(1).trim(); // a literal or a constant; the same file must demand it
            if (arg.isEmpty() || !source.contains("CoverageClaims.demand(" + arg + ",")) {
                out.add(file + ": " + m.group());
            }
        }
        return out;
    }

    @Test
    void everyStatisticOfTheKitIsAClaimOrAListedObservation() throws IOException {
        Path root = Path.of("src/main/java/org/ndktck/tck");
        List<String> bad = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(f -> f.toString().endsWith(".java")).toList()) {
                files++;
                bad.addAll(unclaimed(p.getFileName().toString(), Files.readString(p)));
            }
        }
        assertThat(files).as("the kit's sources were found").isGreaterThan(50);
        assertThat(bad).as("statistics printed and never asserted (claim them, or list them in Observations with why)").isEmpty();
    }

    @Test
    void theScanFlagsAStatisticThatIsOnlyPrinted() {
        assertThat(unclaimed("X.java", "Statistics.label(\"kind\").collect(k);")).containsExactly("X.java: Statistics.label(\"kind\")");
        assertThat(unclaimed("X.java", "Statistics.label(LABEL).collect(k);")).hasSize(1);
        assertThat(unclaimed("X.java", "Statistics.label(\"p\").collect(k); CoverageClaims.demand(\"p\", all, n, 3, \"tries\");")).isEmpty();
    }

    @Test
    void anUnlistedObservationIsRefused() {
        assertThatThrownBy(() -> Observations.collect("case of nothing", "x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("neither a coverage claim nor a listed observation");
        assertThat(Observations.WHY).allSatisfy((label, why) -> assertThat(why).as(label).isNotBlank());
    }

    @Test
    void aStepOfNoClaimedKindIsRefused() {
        assertThatThrownBy(() -> OneAdapterChainProperties.STEP_MIX.kindOf("teleport an MR (pick 3)"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("no kind the chain's step claim names");
        assertThat(OneAdapterChainProperties.STEP_MIX.kindOf("a peer read through a live or stale registration (pick 1)"))
                .isEqualTo("a peer ");
    }

    @Test
    void theLeastStepsFollowTheRarestWeight() {
        // ceil(ln(k x 10^6) / -ln(1 - p)): a kind of weight 1 in 28 among 11 goes missing less than once in a million runs
        assertThat(CoverageClaims.leastSteps(11, 1.0 / 28)).isEqualTo(446);
        assertThat(CoverageClaims.leastSteps(1, 1.0)).isPositive();
        double miss = 11 * Math.pow(1 - 1.0 / 28, CoverageClaims.leastSteps(11, 1.0 / 28));
        assertThat(miss).isLessThan(1e-6);
    }

    /** Each chain's smoke tries (its @LeastTries, raised to by every profile) times its smoke length reach its claims. */
    @Test
    void everyChainReachesItsClaimsAtTheSmokeProfile() throws NoSuchMethodException {
        int one = LeastTries.class.cast(OneAdapterChainProperties.class.getDeclaredMethod("longInterleavingsOnOneAdapterFollowTheModel",
                net.jqwik.api.state.ActionChain.class).getAnnotation(LeastTries.class)).value();
        assertThat(one * OneAdapterChainProperties.STEPS).isGreaterThanOrEqualTo(OneAdapterChainProperties.STEP_MIX.leastSteps());
        int life = MrLifecycleStateProperties.class.getDeclaredMethod("theLifeCycleFollowsTheModel", net.jqwik.api.state.ActionChain.class)
                .getAnnotation(LeastTries.class).value();
        assertThat(life * Profile.SMOKE.size(24)).isGreaterThanOrEqualTo(MrLifecycleStateProperties.STEP_MIX.leastSteps());
        int model = AdapterModelChainProperties.class.getDeclaredMethod("everyCallInEveryStateFollowsTheModel", net.jqwik.api.state.ActionChain.class)
                .getAnnotation(LeastTries.class).value();
        assertThat(model * Profile.SMOKE.size(24)).isGreaterThanOrEqualTo(AdapterModelChainProperties.STEP_MIX.leastSteps())
                .isGreaterThanOrEqualTo(AdapterModelChainProperties.PAIR_STEPS);
    }
}
