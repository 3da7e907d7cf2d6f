package org.ndktck.tck.runner;

import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;
import org.ndktck.tck.RunLedger;
import org.ndktck.tck.harness.ProviderUnderTest;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.TimeBudget;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

/**
 * Runs kit properties in-process on the JUnit Platform launcher, on a daemon thread whose context class
 * loader is the provider loader, and watches it:
 * <ul>
 *   <li>a property that runs longer than the property bound is abandoned (its rules FAIL with a message
 *       saying so) and the remaining properties run on a fresh launcher thread, so a stuck provider costs
 *       one property, not the run;</li>
 *   <li>an overall deadline (used by {@code selftest}, one per fault) abandons the whole execution;</li>
 *   <li>the hard end of the run's time budget ({@link TimeBudget}, configuration parameter {@value TimeBudget#KEY})
 *       ends the whole execution too; the property then running is reported ABORTED as budget-limited;</li>
 *   <li>a crash of a property, of its class or of the engine becomes a FAILED outcome carrying the
 *       exception; properties that never ran are reported as such, never silently dropped.</li>
 * </ul>
 * Outcomes come from the kit's {@link RunLedger} (tries, seed, counterexample) where the kit recorded the
 * property, else from the platform's execution result.
 */
public final class KitExecution {

    /** Receives progress events; every method may be called from the launcher thread. */
    public interface Progress {
        /** @param property a property that starts */
        default void started(PropertyInfo property) {
        }

        /** @param outcome a property that ended */
        default void finished(PropertyOutcome outcome) {
        }

        /** Called about five times a second from the watching thread. */
        default void tick() {
        }
    }

    /**
     * What to run.
     *
     * @param kitPackage            package of the properties
     * @param loader                provider class loader (thread context class loader of the kit)
     * @param parameters            JUnit Platform configuration parameters (ndk.tck.*, jqwik.*)
     * @param ruleTags              rule IDs to include by tag
     * @param planned               the properties those tags select (for progress and "did not run")
     * @param propertyTimeoutMillis bound of one property, in milliseconds
     * @param deadlineMillis        bound of the whole execution, in milliseconds, or 0 for none
     * @param legacyXmlDir          where the platform's legacy XML report goes, or null
     * @param progress              progress sink
     */
    public record Request(String kitPackage, ClassLoader loader, Map<String, String> parameters, Set<String> ruleTags,
                          List<PropertyInfo> planned, long propertyTimeoutMillis, long deadlineMillis,
                          Path legacyXmlDir, Progress progress) {
    }

    /**
     * What happened.
     *
     * @param outcomes      one per property that started or was skipped, in order
     * @param advisories    SHOULD-level findings the kit recorded
     * @param notes         remarks for the report (abandoned properties, engine errors)
     * @param deadlineHit   whether the overall deadline ended the execution
     * @param wallMillis    wall time of the execution, in milliseconds
     */
    public record Result(List<PropertyOutcome> outcomes, List<RunLedger.Advisory> advisories, List<String> notes,
                         boolean deadlineHit, long wallMillis) {
    }

    private KitExecution() {
    }

    /**
     * @param r what to run
     * @return the outcomes
     */
    public static Result run(Request r) {
        long start = System.nanoTime();
        Map<String, PropertyOutcome> outcomes = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        boolean deadlineHit = false;
        boolean budgetHit = false;
        RunLedger.reset();
        Set<String> planned = new HashSet<>();
        r.planned().forEach(p -> planned.add(p.uniqueId()));
        try {
            if (r.ruleTags().isEmpty() || r.planned().isEmpty()) {
                return new Result(List.of(), List.of(), notes, false, 0);
            }
            // the hard end of the run's time budget, if any, in milliseconds since the epoch
            java.util.function.Function<String, Optional<String>> params = k -> Optional.ofNullable(r.parameters().get(k));
            Optional<Long> budget = TimeBudget.budgetMillis(params);
            long hardEnd = budget.map(b -> TimeBudget.startMillis(params).orElse(System.currentTimeMillis()) + b)
                    .orElse(Long.MAX_VALUE);
            int attempt = 0;
            while (true) {
                attempt++;
                Set<String> done = new HashSet<>(outcomes.keySet());
                if (attempt > 1 && done.containsAll(planned)) {
                    break;
                }
                Listener listener = new Listener(r, start);
                Thread thread = launch(r, listener, done, attempt);
                boolean restart = false;
                while (thread.isAlive()) {
                    try {
                        thread.join(200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        listener.abandon();
                        org.ndktck.tck.harness.AbandonedLaunchers.abandon(thread);
                        notes.add("the run was interrupted");
                        break;
                    }
                    r.progress().tick();
                    long now = System.nanoTime();
                    Listener.Running cur = listener.running();
                    if (r.deadlineMillis() > 0 && (now - start) / 1_000_000 > r.deadlineMillis()) {
                        listener.abandon();
                        org.ndktck.tck.harness.AbandonedLaunchers.abandon(thread);
                        deadlineHit = true;
                        if (cur != null) {
                            PropertyOutcome o = timedOut(cur, start, now, "the run's time bound of " + r.deadlineMillis()
                                    + " ms ran out while this property was running");
                            listener.outcomes.put(cur.info.uniqueId(), o);
                            r.progress().finished(o);
                        }
                        notes.add("time bound of " + r.deadlineMillis() + " ms reached; properties not yet run were abandoned");
                        thread.interrupt();
                        break;
                    }
                    if (System.currentTimeMillis() >= hardEnd) {
                        listener.abandon();
                        org.ndktck.tck.harness.AbandonedLaunchers.abandon(thread);
                        budgetHit = true;
                        if (cur != null) {
                            PropertyOutcome o = new PropertyOutcome(cur.info, "ABORTED", 0, 0, "", (now - cur.startNanos) / 1_000_000,
                                    TimeBudget.LIMITED + "the run's time budget of " + budget.get() / 1000.0 + " s ran out while this"
                                            + " property ran; the runner stopped it unfinished, so its rules were not judged",
                                    null, "", (now - start) / 1_000_000);
                            listener.outcomes.put(cur.info.uniqueId(), o);
                            r.progress().finished(o);
                        }
                        notes.add("time budget of " + budget.get() / 1000.0 + " s reached: the runner stopped the run"
                                + (cur == null ? "" : " (" + cur.info.propertyId() + " unfinished)")
                                + "; properties not yet started did not run");
                        thread.interrupt();
                        break;
                    }
                    long shareEnd = TimeBudget.propertyEndMillis();
                    if (cur != null && budget.isPresent() && shareEnd != Long.MAX_VALUE
                            && System.currentTimeMillis() > shareEnd + TimeBudget.overrunMillis()) {
                        // a try that far outlasts the property's share of the budget (one try of a scale property
                        // against a slow provider): abandoned unfinished, the run goes on with the next property
                        listener.abandon();
                        org.ndktck.tck.harness.AbandonedLaunchers.abandon(thread);
                        PropertyOutcome o = new PropertyOutcome(cur.info, "ABORTED", 0, 0, "", (now - cur.startNanos) / 1_000_000,
                                TimeBudget.LIMITED + "stopped unfinished: a try was still running " + TimeBudget.overrunMillis() / 1000.0
                                        + " s after the property's share of the time budget (" + TimeBudget.propertyShareMillis() / 1000.0
                                        + " s) ran out; the runner abandoned it, so this property judged nothing",
                                null, "", (now - start) / 1_000_000);
                        listener.outcomes.put(cur.info.uniqueId(), o);
                        r.progress().finished(o);
                        notes.add(cur.info.propertyId() + " abandoned unfinished: it far outlasted its share of the time budget;"
                                + " the rest of the run went on on a fresh launcher");
                        thread.interrupt();
                        restart = true;
                        break;
                    }
                    if (cur != null && (now - cur.startNanos) / 1_000_000 > r.propertyTimeoutMillis()) {
                        listener.abandon();
                        org.ndktck.tck.harness.AbandonedLaunchers.abandon(thread);
                        PropertyOutcome o = timedOut(cur, start, now, "property did not finish within "
                                + r.propertyTimeoutMillis() + " ms; the runner abandoned it (a provider call is probably stuck)");
                        listener.outcomes.put(cur.info.uniqueId(), o);
                        r.progress().finished(o);
                        notes.add(cur.info.propertyId() + " abandoned after " + r.propertyTimeoutMillis()
                                + " ms; the rest of the run went on on a fresh launcher");
                        thread.interrupt();
                        restart = true;
                        break;
                    }
                }
                outcomes.putAll(listener.snapshot());
                if (listener.engineError != null) {
                    notes.add("the JUnit Platform launcher failed: " + listener.engineError);
                }
                if (!restart || deadlineHit || budgetHit) {
                    break;
                }
            }
            // the findings of the run itself: a confirmation rerun below records nothing twice
            List<RunLedger.Advisory> advisories = RunLedger.advisories();
            confirmProcessEnds(r, outcomes, notes, deadlineHit || budgetHit, start, hardEnd);
            return new Result(new ArrayList<>(outcomes.values()), advisories, notes, deadlineHit,
                    (System.nanoTime() - start) / 1_000_000);
        } finally {
            // leave the kit's static configuration as a plain JVM has it, so later runs in this JVM start clean
            TckConfig.useParameters(k -> Optional.empty());
            TimeBudget.endRun();
            ProviderUnderTest.reset();
        }
    }

    /**
     * Reruns alone, in a fresh provider process, each property whose first failure was the end of the provider's
     * process, and replaces its outcome with what {@link CrashConfirmation#judge} makes of the rerun: at most
     * {@link CrashConfirmation#MAX_RERUNS}, each within the property's time bound and the run's deadline, none once
     * the run's deadline or time budget ended it.
     */
    private static void confirmProcessEnds(Request r, Map<String, PropertyOutcome> outcomes, List<String> notes,
                                           boolean stopped, long start, long hardEnd) {
        int reruns = 0;
        for (Map.Entry<String, PropertyOutcome> e : new ArrayList<>(outcomes.entrySet())) {
            PropertyOutcome o = e.getValue();
            if (CrashConfirmation.toConfirm(o) == null) {
                continue;
            }
            long left = Math.min(hardEnd - System.currentTimeMillis(), r.deadlineMillis() > 0
                    ? r.deadlineMillis() - (System.nanoTime() - start) / 1_000_000 : Long.MAX_VALUE);
            String why = stopped ? "the run's time bound or budget had ended it"
                    : reruns >= CrashConfirmation.MAX_RERUNS ? "at most " + CrashConfirmation.MAX_RERUNS + " properties are rerun per run"
                    : left <= 0 ? "no time was left in the run's bound" : null;
            PropertyOutcome rerun = null;
            if (why == null) {
                reruns++;
                org.ndktck.tck.ProviderProcesses.freshStart();
                rerun = rerunAlone(r, o.property(), Math.min(left, r.propertyTimeoutMillis()));
                if (rerun == null) {
                    why = "the rerun did not finish within its bound";
                }
            }
            PropertyOutcome judged = CrashConfirmation.judge(o, rerun, why);
            outcomes.put(e.getKey(), judged);
            notes.add(o.property().propertyId() + " ended the provider's process; rerun alone in a fresh process to confirm: "
                    + (judged == o || judged.failure() == o.failure() ? "confirmed" : "not confirmed, charged to "
                    + CrashConfirmation.UNCONFIRMED_RULE));
        }
        if (reruns > 0) {
            org.ndktck.tck.ProviderProcesses.freshStart();
        }
    }

    /** @return the outcome of one property run alone on a launcher of its own, or null when it did not finish in time */
    private static PropertyOutcome rerunAlone(Request r, PropertyInfo p, long boundMillis) {
        Request quiet = new Request(r.kitPackage(), r.loader(), r.parameters(), r.ruleTags(), List.of(p),
                r.propertyTimeoutMillis(), 0, null, new Progress() { });
        Listener listener = new Listener(quiet, System.nanoTime());
        LauncherDiscoveryRequest req = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectPackage(r.kitPackage()))
                .filters(TagFilter.includeTags(new ArrayList<>(r.ruleTags())))
                .filters((PostDiscoveryFilter) d -> FilterResult.includedIf(!d.isTest()
                        || p.uniqueId().equals(d.getUniqueId().toString()), () -> "the property rerun", () -> "not rerun"))
                .configurationParameters(r.parameters()).build();
        Thread thread = new Thread(() -> {
            try {
                LauncherFactory.create().execute(req, listener);
            } catch (Throwable e) {
                listener.engineError = e.toString();
            }
        }, "ndk-tck-confirm");
        thread.setDaemon(true);
        thread.setContextClassLoader(r.loader());
        thread.start();
        long end = System.nanoTime() + boundMillis * 1_000_000;
        try {
            while (thread.isAlive() && System.nanoTime() < end) {
                thread.join(200);
                r.progress().tick();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            listener.abandon();
            org.ndktck.tck.harness.AbandonedLaunchers.abandon(thread);
            thread.interrupt();
            return null;
        }
        return listener.snapshot().get(p.uniqueId());
    }

    private static PropertyOutcome timedOut(Listener.Running cur, long runStart, long now, String message) {
        return new PropertyOutcome(cur.info, PropertyOutcome.TIMED_OUT, 0, 0, "", (now - cur.startNanos) / 1_000_000,
                message, null, "", (now - runStart) / 1_000_000);
    }

    private static Thread launch(Request r, Listener listener, Set<String> done, int attempt) {
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectPackage(r.kitPackage()))
                .filters(TagFilter.includeTags(new ArrayList<>(r.ruleTags())))
                .configurationParameters(r.parameters());
        if (!done.isEmpty()) {
            b.filters((PostDiscoveryFilter) d -> FilterResult.includedIf(!done.contains(d.getUniqueId().toString()),
                    () -> "not yet run", () -> "already run"));
        }
        LauncherDiscoveryRequest req = b.build();
        Thread thread = new Thread(() -> {
            try {
                Launcher launcher = LauncherFactory.create();
                List<TestExecutionListener> ls = new ArrayList<>();
                ls.add(listener);
                if (r.legacyXmlDir() != null) {
                    Path dir = attempt == 1 ? r.legacyXmlDir() : r.legacyXmlDir().resolve("attempt-" + attempt);
                    ls.add(new LegacyXmlReportGeneratingListener(dir, new PrintWriter(OutputStream.nullOutputStream())));
                }
                launcher.execute(req, ls.toArray(TestExecutionListener[]::new));
            } catch (Throwable e) {
                listener.engineError = e.toString();
            }
        }, "ndk-tck-kit-" + attempt);
        thread.setDaemon(true);
        thread.setContextClassLoader(r.loader());
        thread.start();
        return thread;
    }

    /**
     * Collects outcomes of one launcher execution (also used by {@link PlatformReports} for the properties under one
     * test plan or suite of a provider's own build).
     */
    static final class Listener implements TestExecutionListener {
        record Running(PropertyInfo info, long startNanos, int ledgerMark) {
        }

        private final Request request;
        private final long runStart;
        private final Map<String, PropertyInfo> byId = new LinkedHashMap<>();
        final Map<String, PropertyOutcome> outcomes = new LinkedHashMap<>();
        private final Set<Integer> consumed = new HashSet<>();
        private volatile boolean abandoned;
        private volatile Running running;
        private TestPlan plan;
        volatile String engineError;

        Listener(Request request, long runStart) {
            this.request = request;
            this.runStart = runStart;
        }

        synchronized void abandon() {
            abandoned = true;
        }

        Running running() {
            return running;
        }

        synchronized Map<String, PropertyOutcome> snapshot() {
            return new LinkedHashMap<>(outcomes);
        }

        @Override
        public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
            this.plan = testPlan;
            for (var root : testPlan.getRoots()) {
                for (var id : testPlan.getDescendants(root)) {
                    KitDiscovery.info(id).ifPresent(p -> byId.put(p.uniqueId(), p));
                }
            }
        }

        /**
         * @param testPlan the plan
         * @param roots    the identifiers whose properties this listener collects
         * @param include  which identifiers (tests or containers) to look into and collect
         */
        synchronized void watch(TestPlan testPlan, Iterable<TestIdentifier> roots,
                                java.util.function.Predicate<TestIdentifier> include) {
            this.plan = testPlan;
            java.util.Deque<TestIdentifier> todo = new java.util.ArrayDeque<>();
            roots.forEach(todo::add);
            while (!todo.isEmpty()) {
                TestIdentifier id = todo.pop();
                if (!include.test(id)) {
                    continue;
                }
                KitDiscovery.info(id).ifPresent(p -> byId.put(p.uniqueId(), p));
                todo.addAll(testPlan.getChildren(id));
            }
        }

        /** @return the kit properties this listener collects, in plan order */
        synchronized List<PropertyInfo> watched() {
            return new ArrayList<>(byId.values());
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            PropertyInfo p;
            synchronized (this) {
                p = byId.get(id.getUniqueId());
                if (abandoned || p == null) {
                    return;
                }
                running = new Running(p, System.nanoTime(), RunLedger.properties().size());
            }
            request.progress().started(p);
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            if (reason != null && reason.startsWith(org.ndktck.tck.harness.PropertyClaims.ELSEWHERE)) {
                return; // another worker of the run has this property: no outcome of this worker
            }
            List<PropertyOutcome> done = new ArrayList<>();
            synchronized (this) {
                if (abandoned) {
                    return;
                }
                for (PropertyInfo p : propertiesUnder(id)) {
                    if (outcomes.containsKey(p.uniqueId())) {
                        continue;
                    }
                    PropertyOutcome o = fromLedger(p, 0).orElseGet(() -> new PropertyOutcome(p, "SKIPPED", 0, 0, "", 0,
                            reason == null ? "" : reason, null, "", elapsed()));
                    outcomes.put(p.uniqueId(), o);
                    done.add(o);
                }
            }
            done.forEach(request.progress()::finished);
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            List<PropertyOutcome> done = new ArrayList<>();
            synchronized (this) {
                if (abandoned) {
                    return;
                }
                PropertyInfo p = byId.get(id.getUniqueId());
                if (p != null) {
                    Running cur = running;
                    int mark = cur != null && cur.info.equals(p) ? cur.ledgerMark : 0;
                    long millis = cur != null && cur.info.equals(p) ? (System.nanoTime() - cur.startNanos) / 1_000_000 : 0;
                    running = null;
                    PropertyOutcome o = fromLedger(p, mark).map(led -> reconcile(led, result))
                            .orElseGet(() -> fromResult(p, result, millis));
                    outcomes.put(p.uniqueId(), o);
                    done.add(o);
                } else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    // a container failed (class initialisation, lifecycle hook): every property under it that
                    // has no outcome fails with the container's exception
                    for (PropertyInfo q : propertiesUnder(id)) {
                        if (!outcomes.containsKey(q.uniqueId())) {
                            PropertyOutcome o = fromResult(q, result, 0);
                            outcomes.put(q.uniqueId(), o);
                            done.add(o);
                        }
                    }
                }
            }
            done.forEach(request.progress()::finished);
        }

        private List<PropertyInfo> propertiesUnder(TestIdentifier id) {
            List<PropertyInfo> out = new ArrayList<>();
            PropertyInfo self = byId.get(id.getUniqueId());
            if (self != null) {
                out.add(self);
            }
            if (plan != null) {
                for (var d : plan.getDescendants(id)) {
                    PropertyInfo p = byId.get(d.getUniqueId());
                    if (p != null) {
                        out.add(p);
                    }
                }
            }
            return out;
        }

        private long elapsed() {
            return (System.nanoTime() - runStart) / 1_000_000;
        }

        private Optional<PropertyOutcome> fromLedger(PropertyInfo p, int mark) {
            List<RunLedger.PropertyRecord> recs = RunLedger.properties();
            for (int i = recs.size() - 1; i >= mark; i--) {
                RunLedger.PropertyRecord rec = recs.get(i);
                if (rec.property().equals(p.propertyId()) && consumed.add(i)) {
                    return Optional.of(new PropertyOutcome(p, rec.status(), rec.tries(), rec.checks(), rec.seed(),
                            rec.durationMillis(), rec.failure() != null ? Failures.describe(rec.failure()) : rec.message(),
                            rec.failure(), rec.counterexample(), elapsed(), rec.checksRun()));
                }
            }
            return Optional.empty();
        }

        /** The ledger says what the kit saw; the platform has the last word on failure (e.g. a hook that threw late). */
        private PropertyOutcome reconcile(PropertyOutcome led, TestExecutionResult result) {
            if (result.getStatus() == TestExecutionResult.Status.FAILED && !led.failed()) {
                Throwable t = result.getThrowable().orElse(null);
                return new PropertyOutcome(led.property(), "FAILED", led.tries(), led.checks(), led.seed(),
                        led.durationMillis(), Failures.describe(t), t, led.counterexample(), led.finishedAtMillis(), led.checksRun());
            }
            return led;
        }

        private PropertyOutcome fromResult(PropertyInfo p, TestExecutionResult result, long millis) {
            Throwable t = result.getThrowable().orElse(null);
            String status = switch (result.getStatus()) {
                case SUCCESSFUL -> "SUCCESSFUL";
                case ABORTED -> "ABORTED";
                case FAILED -> "FAILED";
            };
            return new PropertyOutcome(p, status, 0, 0, "", millis, t == null ? "" : Failures.describe(t), t, "", elapsed());
        }
    }
}
