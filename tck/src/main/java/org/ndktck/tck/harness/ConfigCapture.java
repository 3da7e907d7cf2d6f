package org.ndktck.tck.harness;

import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.ndktck.tck.NdkRule;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Hands the JUnit Platform configuration parameters of the running test plan to {@link TckConfig}.
 * Registered as a {@code TestExecutionListener} service, so it works under Surefire, a {@code @Suite}
 * class and the kit's runner alike.
 *
 * <p>When a test plan holds at least one kit property (a method annotated {@link NdkRule}), it prints the
 * run seed once to standard output, as {@code ndk-tck: run seed N (replay with -Dndk.tck.seed=N)}, so a
 * provider's own build (Surefire, a {@code @Suite} class) shows the seed that replays it. The kit's runner,
 * which prints the seed itself, turns this off with the configuration parameter
 * {@value #PRINT_SEED} {@code = false}.
 */
public final class ConfigCapture implements TestExecutionListener {
    /** Configuration parameter (or system property): {@code false} stops the seed line. Default {@code true}. */
    public static final String PRINT_SEED = "ndk.tck.printSeed";

    private static volatile PrintStream out = System.out;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        TckConfig.useParameters(testPlan.getConfigurationParameters()::get);
        ProviderUnderTest.reset();
        Invoker.resetRun();
        LateCallbacks.reset();
        QuietWatch.reset();
        boolean print = testPlan.getConfigurationParameters().get(PRINT_SEED)
                .or(() -> Optional.ofNullable(System.getProperty(PRINT_SEED)))
                .map(v -> !v.trim().equalsIgnoreCase("false")).orElse(true);
        if (print && hasKitProperty(testPlan)) {
            long seed;
            try {
                seed = TckConfig.current().seed();
            } catch (RuntimeException e) {
                return; // a bad configuration is reported by the properties themselves
            }
            out.println(seedLine(seed));
            out.flush();
        }
    }

    /**
     * @param seed the run seed
     * @return the line printed when a test plan with kit properties starts
     */
    public static String seedLine(long seed) {
        return "ndk-tck: run seed " + seed + " (replay with -Dndk.tck.seed=" + seed + ")";
    }

    /** For tests: where the seed line goes (standard output by default). */
    static void printTo(PrintStream stream) {
        out = stream;
    }

    private static boolean hasKitProperty(TestPlan plan) {
        Deque<TestIdentifier> todo = new ArrayDeque<>(plan.getRoots());
        while (!todo.isEmpty()) {
            TestIdentifier id = todo.pop();
            if (id.isTest() && id.getSource().isPresent() && id.getSource().get() instanceof MethodSource ms) {
                try {
                    Method m = ms.getJavaMethod();
                    if (m.getAnnotationsByType(NdkRule.class).length > 0) {
                        return true;
                    }
                } catch (RuntimeException | LinkageError e) {
                    // not a method we can load: not a kit property
                }
            }
            todo.addAll(plan.getChildren(id));
        }
        return false;
    }
}
