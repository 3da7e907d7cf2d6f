package org.ndktck.tck.harness;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Hands the JUnit Platform configuration parameters of the running test plan to {@link TckConfig}.
 * Registered as a {@code TestExecutionListener} service, so it works under Surefire, a {@code @Suite}
 * class and the kit's runner alike.
 *
 * <p>When a test plan holds at least one kit property (a property of a class marked {@link NdkKit} with a rule tag, {@link KitLifecycle#ruleIds}), it prints the
 * run seed once to standard output, as {@code ndk-tck: run seed N (replay with -Dndk.tck.seed=N)}, so a
 * provider's own build (Surefire, a {@code @Suite} class) shows the seed that replays it. The kit's runner,
 * which prints the seed itself, turns this off with the configuration parameter
 * {@value #PRINT_SEED} {@code = false}.
 *
 * <p>A {@code @Suite} class's own configuration parameters ({@code @ConfigurationParameter},
 * {@code @ConfigurationParametersResource}) reach only the engines inside the suite, not this listener; so when a
 * suite class starts, the kit reads them from the class ({@link SuiteParameters}) and uses them, over the
 * parameters of the enclosing plan (unless the suite carries {@code @DisableParentConfigurationParameters}), until
 * the suite ends. Each suite is a run of its own: the provider is looked up and configured again, and the seed line
 * is printed for it.
 */
public final class ConfigCapture implements TestExecutionListener {
    /** Configuration parameter (or system property): {@code false} stops the seed line. Default {@code true}. */
    public static final String PRINT_SEED = "ndk.tck.printSeed";

    private static volatile PrintStream out = System.out;

    /** The open suites, innermost first, each with the parameters in force inside it. */
    private final Deque<Layer> suites = new ArrayDeque<>();
    private volatile TestPlan plan;
    private volatile Function<String, Optional<String>> planParameters = k -> Optional.empty();

    private record Layer(String uniqueId, Function<String, Optional<String>> parameters) {
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        suites.clear();
        planParameters = testPlan.getConfigurationParameters()::get;
        startRun(planParameters, testPlan.getRoots());
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        Optional<SuiteParameters.Declared> declared = suiteOf(id);
        if (declared.isEmpty()) {
            return;
        }
        Map<String, String> own = declared.get().parameters();
        Function<String, Optional<String>> outer = declared.get().disableParent() ? k -> Optional.empty() : current();
        Function<String, Optional<String>> inside = k -> own.containsKey(k) ? Optional.of(own.get(k)) : outer.apply(k);
        synchronized (suites) {
            suites.push(new Layer(id.getUniqueId(), inside));
        }
        startRun(inside, java.util.List.of(id));
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        synchronized (suites) {
            if (suites.isEmpty() || !suites.peek().uniqueId().equals(id.getUniqueId())) {
                return;
            }
            suites.pop();
        }
        PlatformJobs.stop();
        TckConfig.useParameters(current());
        ProviderUnderTest.reset();
    }

    private Function<String, Optional<String>> current() {
        synchronized (suites) {
            return suites.isEmpty() ? planParameters : suites.peek().parameters();
        }
    }

    private static Optional<SuiteParameters.Declared> suiteOf(TestIdentifier id) {
        if (id.getSource().isEmpty() || !(id.getSource().get() instanceof ClassSource cs)) {
            return Optional.empty();
        }
        try {
            return SuiteParameters.of(cs.getJavaClass());
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    /** Installs the parameters of a run (a test plan, or a suite inside it) and prints its seed line. */
    private void startRun(Function<String, Optional<String>> parameters, Iterable<TestIdentifier> roots) {
        // a fresh object for the run's late callbacks and quiet checks: what an earlier run left stays with it
        RunContext.start();
        TckConfig.useParameters(parameters);
        ProviderUnderTest.reset();
        Invoker.resetRun();
        LateCallbacks.reset();
        QuietWatch.reset();
        // the run's time budget, if any, is spread over the kit properties it holds
        TimeBudget.startRun(parameters, plan == null ? 0 : countKitProperties(plan, roots));
        boolean print = parameters.apply(PRINT_SEED)
                .or(() -> Optional.ofNullable(System.getProperty(PRINT_SEED)))
                .map(v -> !v.trim().equalsIgnoreCase("false")).orElse(true);
        if (print && plan != null && hasKitProperty(plan, roots)) {
            long seed;
            try {
                seed = TckConfig.current().seed();
            } catch (RuntimeException e) {
                return; // a bad configuration is reported by the properties themselves
            }
            out.println(seedLine(seed));
            PlatformJobs.notice(parameters).ifPresent(out::println);
            out.flush();
        }
        if (plan != null) {
            Path reports = Path.of(parameters.apply(REPORT_DIR).or(() -> Optional.ofNullable(System.getProperty(REPORT_DIR)))
                    .orElse("target/ndk-tck-report"));
            TestIdentifier first = roots.iterator().hasNext() ? roots.iterator().next() : null;
            if (first != null && suiteOf(first).isPresent() && first.getSource().get() instanceof ClassSource cs
                    && !suiteOf(first).get().parameters().containsKey(REPORT_DIR)) {
                reports = reports.resolve(cs.getJavaClass().getSimpleName()); // where PlatformReports puts a suite's reports
            }
            PlatformJobs.startRun(parameters, kitRules(plan, roots), reports);
        }
    }

    /** Configuration parameter of the reports' directory (as PlatformReports reads it). */
    private static final String REPORT_DIR = "ndk.tck.reportDir";

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        PlatformJobs.stop();
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

    private static int countKitProperties(TestPlan plan, Iterable<TestIdentifier> roots) {
        return kitProperties(plan, roots).size();
    }

    private static boolean hasKitProperty(TestPlan plan, Iterable<TestIdentifier> roots) {
        return !kitProperties(plan, roots).isEmpty();
    }

    /** @return the rules of the kit properties under the roots, outside suites nested in them */
    private static java.util.Set<String> kitRules(TestPlan plan, Iterable<TestIdentifier> roots) {
        java.util.Set<String> rules = new java.util.LinkedHashSet<>();
        kitProperties(plan, roots).forEach(rules::addAll);
        return rules;
    }

    /**
     * @return the rule IDs of each kit property under the roots, outside suites nested in them (a suite is a run of
     *     its own, with its own seed line and workers)
     */
    private static java.util.List<java.util.Set<String>> kitProperties(TestPlan plan, Iterable<TestIdentifier> roots) {
        java.util.List<java.util.Set<String>> out = new java.util.ArrayList<>();
        Deque<TestIdentifier> todo = new ArrayDeque<>();
        roots.forEach(todo::add);
        java.util.Set<TestIdentifier> rootSet = new java.util.HashSet<>(todo);
        while (!todo.isEmpty()) {
            TestIdentifier id = todo.pop();
            if (!rootSet.contains(id) && suiteOf(id).isPresent()) {
                continue;
            }
            if (id.isTest() && id.getSource().isPresent() && id.getSource().get() instanceof MethodSource ms) {
                try {
                    java.util.Set<String> ids = KitLifecycle.ruleIds(ms.getJavaMethod());
                    if (!ids.isEmpty()) {
                        out.add(ids);
                    }
                } catch (RuntimeException | LinkageError e) {
                    // not a method we can load: not a kit property
                }
            }
            todo.addAll(plan.getChildren(id));
        }
        return out;
    }
}
