package org.ndktck.tck.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.Providers;
import org.ndktck.tck.kit.KitRun;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every fault of {@code faults/} runs in the build and is caught by its own rule. The "is caught" tests each take their
 * faults from a list ({@link #CAUGHT_ELSEWHERE}: the test class and the static method that lists its faults); every
 * fault no such list holds runs here, against the properties of its own rule only with {@value #TRIES} tries (a cheap
 * targeted run), and must be caught: a property's first failure is a violation of the fault's rule
 * ({@link KitRun.Result#assertCaught}), not a crash or another rule.
 */
class EveryFaultRunsTest {
    /** Tries per property of the targeted runs. */
    static final int TRIES = 200;
    /** A fixed run seed, so a fault is met by the same tries in every build (a random one made the catch a matter of luck). */
    static final String SEED = "20261203";

    /** The "is caught" tests of this module and the method that lists their faults. */
    static final List<String[]> CAUGHT_ELSEWHERE = List.of(
            new String[]{"org.ndktck.tck.kit.FaultsAreCaughtTest", "faults"},
            new String[]{"org.ndktck.tck.sections.SectionFaultsTest", "cases"},
            new String[]{"org.ndktck.tck.faults.MisbehavingProvidersTest", "faults"},
            new String[]{"org.ndktck.tck.faults.AuditFaultsTest", "faults"},
            new String[]{"org.ndktck.tck.faults.CatalogueGapsTest", "faults"},
            new String[]{"org.ndktck.tck.gaps.BoundaryGapsTest", "faults"},
            new String[]{"org.ndktck.tck.gaps.MutationGapsTest", "faults"},
            new String[]{"org.ndktck.tck.gaps.RedTeamGapsTest", "faults"});

    /** @return the fault names the other "is caught" tests run */
    static Set<String> caughtElsewhere() {
        Set<String> out = new TreeSet<>();
        for (String[] source : CAUGHT_ELSEWHERE) {
            try {
                Method m = Class.forName(source[0]).getDeclaredMethod(source[1]);
                m.setAccessible(true);
                Object listed = m.invoke(null);
                Stream<?> items = listed instanceof Stream<?> s ? s : ((Collection<?>) listed).stream();
                items.forEach(x -> out.add(faultName(x)));
            } catch (ReflectiveOperationException e) {
                throw new AssertionError("cannot read the faults of " + source[0] + "#" + source[1], e);
            }
        }
        return out;
    }

    /** A fault name from an entry of a list: a name, JUnit {@code Arguments} (the name first) or a record whose first component is it. */
    private static String faultName(Object x) {
        if (x instanceof String s) {
            return s;
        }
        if (x instanceof org.junit.jupiter.params.provider.Arguments a) {
            return String.valueOf(a.get()[0]);
        }
        if (x.getClass().isRecord()) {
            try {
                var c = x.getClass().getRecordComponents()[0].getAccessor();
                c.setAccessible(true);
                return String.valueOf(c.invoke(x));
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("not a fault entry: " + x);
    }

    /**
     * Faults only one property of their rule reaches, and only with the standard profile's tries: a token counter of 16
     * or 17 bits repeats a live token only after 2^16 (2^17) registrations on one adapter, which the token scale
     * property makes when the run gives each property at least 1000 tries (it has one try; the others of MR-TOK-6
     * are not run).
     */
    static final java.util.Map<String, String> SCALE = java.util.Map.of(
            "fault:MR-TOK-6/counter-16-bit", "org.ndktck.tck.properties.TokenScaleProperties",
            "fault:MR-TOK-6/counter-17-bit", "org.ndktck.tck.properties.TokenScaleProperties");

    /**
     * Faults that only a long action chain meets, with the tries their chain needs to meet them in nearly every run (at
     * {@value #TRIES} tries the chain's declared count is cut to {@value #TRIES} too).
     */
    static final java.util.Map<String, Integer> CHAIN_TRIES = java.util.Map.of("fault:COV-3/stale-token-by-slot", 1000);

    private static NdkProvider provider(String name) {
        return Providers.all(EveryFaultRunsTest.class.getClassLoader()).stream().filter(p -> p.name().equals(name))
                .findFirst().orElseThrow();
    }

    /** @return every fault the other tests do not run */
    static Stream<String> runHere() {
        Set<String> elsewhere = caughtElsewhere();
        List<String> out = new ArrayList<>();
        for (NdkProvider p : Providers.all(EveryFaultRunsTest.class.getClassLoader())) {
            if (p.name().startsWith("fault:") && !elsewhere.contains(p.name())) {
                out.add(p.name());
            }
        }
        return out.stream().sorted();
    }

    @Test
    void theListsNameOnlyFaultsThatExist() {
        Set<String> all = new TreeSet<>();
        Providers.all(getClass().getClassLoader()).forEach(p -> all.add(p.name()));
        assertThat(all).containsAll(caughtElsewhere());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runHere")
    void aFaultNoOtherTestRunsIsCaughtByItsOwnRule(String fault) throws ClassNotFoundException {
        String rule = MisbehavingProvidersTest.ruleOf(fault);
        assertThat(KitRun.propertiesOf(rule)).as("properties tagged " + rule + " (a fault needs one to be caught)").isPositive();
        KitRun k = KitRun.against(fault, KitRun.Preset.FAULTS).tries(TRIES).timeoutFactor(0.4).param("ndk.tck.seed", SEED);
        if (SCALE.containsKey(fault)) {
            k.classes(Class.forName(SCALE.get(fault))).tries(1000);
        } else {
            k.rules(rule).tries(CHAIN_TRIES.getOrDefault(fault, TRIES));
        }
        if (provider(fault) instanceof org.ndktck.spec.DeepProfileFault) {
            k.param("ndk.tck.profile", "deep"); // a fault the kit proves only at the deep profile (selftest runs it there too)
        }
        KitRun.Result r = k.run();
        r.assertCaught(rule);
    }
}
