package org.ndktck.tck.harness;

import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.FixedSeedMode;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.AroundTryHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import net.jqwik.api.lifecycle.TryExecutionResult;
import net.jqwik.api.lifecycle.TryExecutor;
import net.jqwik.api.lifecycle.TryLifecycleContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.ndktck.spec.rules.Rule;
import org.ndktck.spec.rules.RuleCatalog;
import org.ndktck.tck.RunLedger;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The kit's jqwik lifecycle hook, attached to every property class through {@link NdkKit}:
 * <ul>
 *   <li>gates a property on its rules' {@code requires} (skipped as {@code NOT_APPLICABLE: reason});</li>
 *   <li>sets each property's seed from the run seed and its name, and its tries from the profile
 *       ({@link TckConfig}), so a run is reproducible from one seed;</li>
 *   <li>generates edge cases first ({@link EdgeCasesMode#FIRST}) unless the property says otherwise;</li>
 *   <li>tells the harness which property runs ({@link CurrentProperty});</li>
 *   <li>records every property's outcome, tries, seed and time in the {@link RunLedger}.</li>
 * </ul>
 */
public final class KitLifecycle implements AroundPropertyHook, AroundTryHook, SkipExecutionHook {
    /** Prefix of the skip reason of a property whose rule does not apply to the adapter. */
    public static final String NOT_APPLICABLE = "NOT_APPLICABLE: ";
    /**
     * Prefix of the failure (one property) and of the skip reason (every other property) when the provider cannot
     * be set up at all: unknown, its constructor or {@code configure} threw, no adapter could be opened or queried.
     */
    public static final String SETUP_ERROR = "ndk-tck setup error: ";

    /**
     * Shrinking steps (tries after a property's first failure) a property may run. Shrinking ends after this many
     * steps, so a replay with the same seed shrinks to the same counterexample whatever the machine's speed (jqwik's
     * own bound, {@code jqwik.shrinking.bounded.seconds}, counts time: the kit turns it off, see
     * {@link #unboundShrinkingTime}). System property {@code ndk.tck.shrinkSteps} changes it (for measurements).
     */
    static final int SHRINK_STEPS = Integer.getInteger("ndk.tck.shrinkSteps", 150);

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public boolean appliesTo(Optional<AnnotatedElement> element) {
        return element.isPresent();
    }

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        AbandonedLaunchers.stopHereIfAbandoned();
        Optional<Method> method = context.optionalElement().filter(Method.class::isInstance).map(Method.class::cast);
        if (method.isEmpty()) {
            return SkipResult.doNotSkip();
        }
        Set<String> ruleIds = ruleIds(method.get());
        if (ruleIds.isEmpty()) {
            return SkipResult.doNotSkip();
        }
        try {
            return skipOrRun(method.get(), ruleIds);
        } catch (RuntimeException | Error e) {
            RunLedger.record(kitError(ruleIds, propertyId(method.get()), 0, e));
            throw e;
        }
    }

    /**
     * Start of the message of a property the kit itself could not run or record (an exception out of the kit's own
     * hooks, not out of a try): the property is ABORTED, so its rules are UNTESTED with this reason, never PASS and
     * never FAIL, and the run's records still hold it.
     */
    public static final String KIT_ERROR = "UNTESTED: kit error: ";

    private static RunLedger.PropertyRecord kitError(Set<String> ruleIds, String id, long millis, Throwable e) {
        return new RunLedger.PropertyRecord(ruleIds, id, "ABORTED", 0, 0, "", millis,
                KIT_ERROR + e + (e.getStackTrace().length > 0 ? " at " + e.getStackTrace()[0] : ""), null, "");
    }

    private SkipResult skipOrRun(Method method, Set<String> ruleIds) {
        Optional<String> setup = ProviderUnderTest.setupError();
        if (setup.isPresent()) {
            String id = propertyId(method);
            String reporter = ProviderUnderTest.claimSetupReport(id);
            if (reporter.equals(id)) {
                return SkipResult.doNotSkip(); // this property reports the setup error as its failure
            }
            String reason = SETUP_ERROR + setup.get() + " (reported by " + reporter + ")";
            RunLedger.record(new RunLedger.PropertyRecord(ruleIds, id, "SKIPPED", 0, 0, "", 0, reason, null, ""));
            TimeBudget.skipped();
            return SkipResult.skip(reason);
        }
        String claimed = propertyId(method);
        if (!PropertyClaims.mine(claimed)) {
            TimeBudget.claimedElsewhere();
            return SkipResult.skip(PropertyClaims.ELSEWHERE + claimed);
        }
        for (String id : ruleIds) {
            Optional<Rule> rule = RuleCatalog.standard().find(id);
            if (rule.isEmpty() || rule.get().requires().isEmpty()) {
                continue;
            }
            Optional<String> missing;
            try {
                missing = Capabilities.missing(rule.get().requires(), ProviderUnderTest.get().adapterInfo());
            } catch (RuntimeException e) {
                return SkipResult.doNotSkip();
            }
            if (missing.isPresent()) {
                String reason = NOT_APPLICABLE + id + ": " + missing.get();
                RunLedger.record(new RunLedger.PropertyRecord(ruleIds, propertyId(method), "SKIPPED", 0, 0,
                        "", 0, reason, null, ""));
                TimeBudget.skipped();
                return SkipResult.skip(reason);
            }
        }
        return SkipResult.doNotSkip();
    }

    /** jqwik's advice about the kit's properties stays off the console (see {@link JqwikWarnings}). */
    private static final boolean QUIET = JqwikWarnings.quiet();

    /**
     * Runs outside jqwik's statistics hook (proximity -50), so the coverage checks of the property's claims have run
     * when the kit records its result: a coverage error is the property's failure, and an {@link UnreachableClaim}
     * makes it aborted (UNTESTED), in the run's records as on the JUnit Platform.
     *
     * @return -60
     */
    @Override
    public int aroundPropertyProximity() {
        return -60;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        Method method = context.targetMethod();
        boolean[] recorded = {false};
        long start = System.nanoTime();
        try {
            return runAndRecord(context, property, recorded);
        } catch (RuntimeException | Error e) {
            if (!recorded[0]) {
                // an exception out of the kit's own code around the tries: the property is still in the run's records
                RunLedger.record(kitError(ruleIds(method), propertyId(method), (System.nanoTime() - start) / 1_000_000, e));
            }
            throw e;
        }
    }

    private PropertyExecutionResult runAndRecord(PropertyLifecycleContext context, PropertyExecutor property, boolean[] recorded) {
        Method method = context.targetMethod();
        String id = propertyId(method);
        Optional<String> setup = ProviderUnderTest.setupError();
        if (setup.isPresent()) {
            // one line, no stack: the provider (not this property's rule) is what must be fixed
            ProviderUnderTest.SetupException e = new ProviderUnderTest.SetupException(SETUP_ERROR + setup.get());
            e.setStackTrace(new StackTraceElement[0]);
            RunLedger.record(new RunLedger.PropertyRecord(ruleIds(method), id, "FAILED", 0, 0, "", 0, e.getMessage(), e, ""));
            recorded[0] = true;
            throw e;
        }
        Optional<PropertyExecutionResult> mirrored = PlatformJobs.mirror(id, ruleIds(method));
        if (mirrored.isPresent()) {
            // a worker JVM of this run ran it (ndk.tck.jobs above 1 in a provider's own build)
            recorded[0] = true;
            return advisoryPasses(mirrored.get());
        }
        TckConfig config = TckConfig.current();
        if (context.attributes().seed().filter(s -> !s.isBlank()).isEmpty()) {
            context.attributes().setSeed(Long.toString(config.seedFor(id)));
        }
        MemoryLayouts.startProperty(context.attributes().seed().map(String::hashCode).orElse(0) * 31L + id.hashCode());
        context.attributes().setWhenFixedSeed(FixedSeedMode.ALLOW);
        context.attributes().setAfterFailure(AfterFailureMode.RANDOM_SEED);
        int tries = config.triesFor(context.attributes().tries());
        CoverageClasses coverage = method.getAnnotation(CoverageClasses.class);
        if (coverage != null) {
            // a coverage claim is checked at every profile and at any --tries: its property runs enough tries to meet
            // every class (an explicit count below that is raised, and the record's tries show it)
            tries = Math.max(tries, CoverageTries.leastTries(coverage.value()));
        }
        LeastTries least = method.getAnnotation(LeastTries.class);
        if (least != null) {
            tries = Math.max(tries, least.value()); // a step-mix claim's tries, likewise at every profile and --tries
        }
        context.attributes().setTries(tries);
        if (context.attributes().edgeCases().isEmpty()) {
            context.attributes().setEdgeCases(EdgeCasesMode.FIRST);
        }
        unboundShrinkingTime(context);
        // discarded tries are the kit's to judge (Refusals): jqwik must not fail a property for them
        context.attributes().setMaxDiscardRatio(Integer.MAX_VALUE);
        CurrentProperty.set(new CurrentProperty.Info(List.copyOf(ruleIds(method)), tries));
        ChecksReached.startProperty(List.copyOf(ruleIds(method)));
        CurrentProperty.skipShrinking(false);
        Refusals.reset();
        UnreachableClaim.takeNote(); // a note left by a property before is not this one's
        CurrentProperty.resetShrinking();
        // the property's share of the run's time budget, if any; a bad budget fails the property
        long claim = TimeBudget.claim();
        long start = System.nanoTime();
        PropertyExecutionResult executed;
        try {
            executed = property.execute();
            // the quiet periods the tries handed to the watch end here, after what is left of the last one
            org.ndktck.tck.RuleViolation late = QuietWatch.settle();
            if (late != null && executed.status() == PropertyExecutionResult.Status.SUCCESSFUL) {
                executed = executed.mapToFailed(late);
            } else if (late != null) {
                executed.throwable().ifPresent(t -> t.addSuppressed(late));
            }
        } finally {
            QuietWatch.reset();
            CurrentProperty.skipShrinking(false);
            CurrentProperty.clear();
            TimeBudget.endProperty(claim);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        PropertyExecutionResult result = unreachableClaim(judgedFloor(executed, Refusals.count()));
        // an aborted property (the floor of judged tries) is no failure: its reason is the record's message
        boolean aborted = result.status() == PropertyExecutionResult.Status.ABORTED;
        String abortReason = aborted ? result.throwable().map(Throwable::getMessage).orElse("") : "";
        if (aborted && TimeBudget.limited()) {
            // a claim the budget kept out of reach: the record says so, and report.json marks it budgetLimited
            abortReason = abortReason + "\n" + TimeBudget.limitedMessage(executed.countTries(), tries);
        }
        Throwable failure = aborted ? null : result.throwable().orElse(null);
        keepOriginalViolation(failure, result);
        PropertyExecutionResult ended = result;
        String sample = ended.shrunkSample().map(s -> SampleText.of(method, s.parameters()))
                .or(() -> ended.originalSample().map(s -> SampleText.of(method, s.parameters()))).orElse("");
        // a property that passed with fewer tries because its share of the time budget ran out says so
        String claimNote = UnreachableClaim.takeNote();
        String passNote = result.status() == PropertyExecutionResult.Status.SUCCESSFUL && TimeBudget.limited()
                ? TimeBudget.limitedMessage(executed.countTries(), tries)
                : result.status() == PropertyExecutionResult.Status.SUCCESSFUL && claimNote != null ? claimNote : "";
        RunLedger.record(new RunLedger.PropertyRecord(ruleIds(method), id, result.status().name(),
                executed.countTries(), executed.countChecks(), result.seed().orElse(""), millis,
                aborted ? abortReason : failure == null ? passNote : String.valueOf(failure.getMessage()), failure, sample,
                ChecksReached.result()));
        recorded[0] = true;
        return advisoryPasses(result);
    }

    /**
     * The system property that makes an ADVISORY finding fail the property on the platform (a provider's own Maven
     * build: {@code mvn verify -Dndk.tck.strict=true}), as {@code --strict} fails a run of the command line.
     */
    public static final String STRICT = "ndk.tck.strict";

    /**
     * A property whose failure the verdicts report ADVISORY, not FAIL (a violation of a rule whose basis is
     * KIT_INTERPRETATION and that guards nothing, {@link org.ndktck.tck.Verdict#kitInterpretationOnly}, without
     * the note {@value org.ndktck.tck.Verdict#MEMORY_EXPOSED}) ends successful on the JUnit Platform, so it does
     * not turn a provider's own build red; the run's ledger keeps the failure, so the reports, the end-of-plan summary
     * ({@code ndk-tck: 0 FAIL, 1 ADVISORY; ...}) and the command line's verdicts still show the finding. Unless
     * {@value #STRICT} is true.
     *
     * @param result the property's result as the kit recorded it
     * @return the result, or a successful one for an ADVISORY-only failure
     */
    static PropertyExecutionResult advisoryPasses(PropertyExecutionResult result) {
        if (result.status() != PropertyExecutionResult.Status.FAILED || Boolean.getBoolean(STRICT)) {
            return result;
        }
        Throwable t = result.throwable().orElse(null);
        org.ndktck.tck.RuleViolation v = null;
        for (Throwable c = t; c != null && v == null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof org.ndktck.tck.RuleViolation rv) {
                v = rv;
            }
        }
        if (v == null || String.valueOf(v.getMessage()).contains(org.ndktck.tck.Verdict.MEMORY_EXPOSED)
                || !org.ndktck.tck.Verdict.kitInterpretationOnly(
                        org.ndktck.spec.rules.RuleCatalog.standard().find(v.ruleId()).orElse(null))) {
            return result;
        }
        return result.mapToSuccessful();
    }

    /**
     * Shrinking ends after {@link #SHRINK_STEPS} steps, the same step in every run with the same seed. jqwik's
     * bounded shrinking (its default, {@code jqwik.shrinking.bounded.seconds}) also ends it after some seconds, which on
     * a busy machine comes at an earlier step and gives another counterexample: a property whose shrinking mode is
     * BOUNDED (set on it, or jqwik's default) shrinks FULL instead, bounded by the steps. A try that waits on a provider
     * call that may hang has its own time bound (the session's invoker); one that reaches it is not shrunk at all
     * ({@link #aroundTry}), so the counterexample is the try that first failed. OFF stays OFF.
     *
     * @param context the property's context
     */
    static void unboundShrinkingTime(PropertyLifecycleContext context) {
        ShrinkingMode mode;
        try {
            mode = context.attributes().shrinking().orElseGet(() -> TckConfig.parameter("jqwik.shrinking.default")
                    .map(v -> ShrinkingMode.valueOf(v.trim().toUpperCase(java.util.Locale.ROOT))).orElse(ShrinkingMode.BOUNDED));
        } catch (IllegalArgumentException e) {
            return; // a value jqwik itself reports
        }
        if (mode == ShrinkingMode.BOUNDED) {
            context.attributes().setShrinking(ShrinkingMode.FULL);
        }
    }

    /**
     * Shrinking accepts any failing sample, so it may drift from the rule first broken to another one (a
     * provider that shares tokens breaks MR-TOK-6 first, and a shrunk sequence may only show MR-TOK-2).
     * When the original falsifying error names a rule the shrunk one does not, it is attached to the
     * reported failure as a suppressed exception, so both rules are charged and the first finding is kept.
     *
     * @param failure the reported (shrunk) failure, or null
     * @param result  the property's result
     */
    /**
     * Runs one try. A try that fails because a wait reached its time bound (a call that did not return, a
     * completion or CQ entry that did not come: GEN-TIME-1 and the completion rules) is not shrunk: every
     * shrinking step would wait for the bound again, so the property's later tries (jqwik's shrinking
     * candidates) are not run: each is answered as satisfied without calling the provider, which ends
     * shrinking at once, and the failure keeps the sample that first failed (an answer of "invalid" would
     * make jqwik search tens of thousands of candidates until its shrinking time bound). Other failures
     * shrink as usual.
     *
     * @param context    jqwik's try context
     * @param aTry       the try
     * @param parameters the generated parameters
     * @return the try's result, or {@link TryExecutionResult#satisfied()} for a shrinking step not run
     * @throws Throwable whatever the try throws
     */
    @Override
    public TryExecutionResult aroundTry(TryLifecycleContext context, TryExecutor aTry, List<Object> parameters) throws Throwable {
        AbandonedLaunchers.stopHereIfAbandoned();
        if (CurrentProperty.shrinkingSkipped()) {
            return TryExecutionResult.satisfied();
        }
        if (CurrentProperty.nextShrinkStep() > SHRINK_STEPS) {
            // the step budget is spent: end shrinking here, at the same step in every run with this seed
            CurrentProperty.skipShrinking(true);
            return TryExecutionResult.satisfied();
        }
        CurrentProperty.startTry();
        ChecksReached.startTry(!CurrentProperty.hasFalsified());
        TryExecutionResult result = null;
        try {
            result = aTry.execute(parameters);
        } finally {
            // a satisfied try ran its body to the end; a failed or discarded one counts only the checks it reached
            ChecksReached.endTry(result != null && result.isSatisfied());
        }
        AbandonedLaunchers.stopHereIfAbandoned();
        if (result.isFalsified()) {
            CurrentProperty.falsified();
            TimeBudget.propertyFailed();
            if (CurrentProperty.tryReachedBound()) {
                CurrentProperty.skipShrinking(true);
            }
        } else if (result.isSatisfied() && !result.shouldPropertyFinishEarly() && !CurrentProperty.hasFalsified()
                && TimeBudget.shareSpent()) {
            // the property's share of the time budget ran out: it ends with the tries done so far, every one of them
            // judged as usual (jqwik's own early end; the property passes with fewer tries, marked budget-limited)
            return TryExecutionResult.satisfied(true).withFootnotes(result.footnotes());
        }
        return result;
    }

    /**
     * The floor of judged tries (allowed refusals): a property whose tries were mostly discarded (an allowed refusal,
     * {@link Refusals}, or another assumption) judged too little to pass. jqwik reports a property none of
     * whose tries was judged as failed ("exhausted"); the kit reports both that and a pass below the floor as
     * aborted with the reason {@value #TOO_FEW_JUDGED}..., so the rule is UNTESTED, never PASS, and never FAIL
     * for a freedom the pages give the provider.
     *
     * @param result  jqwik's result
     * @param refused tries discarded by {@link Refusals#discard}
     * @return the result, or an aborted one with the reason
     */
    static PropertyExecutionResult judgedFloor(PropertyExecutionResult result, int refused) {
        int tries = result.countTries();
        int judged = result.countChecks();
        // jqwik's own failure when no try was judged: "Property [...] exhausted after [N] tries and [N] rejections"
        Throwable t = result.throwable().orElse(null);
        boolean exhausted = result.status() == PropertyExecutionResult.Status.FAILED && judged == 0
                && !(t instanceof org.ndktck.tck.RuleViolation)
                && t != null && String.valueOf(t.getMessage()).contains(" exhausted after [");
        boolean thin = result.status() == PropertyExecutionResult.Status.SUCCESSFUL && judged < Refusals.floor(tries);
        if (!exhausted && !thin) {
            return result;
        }
        String why = TOO_FEW_JUDGED + judged + " of " + tries + " tries judged (floor " + Refusals.floor(tries) + ", one in "
                + Refusals.FLOOR_DIVISOR + "); " + (tries - judged) + " discarded, " + Math.min(refused, tries - judged)
                + " of them because the provider refused a call for lack of resources (STATUS_INSUFFICIENT_RESOURCES), which the pages allow"
                + (Refusals.beyondLimitCount() > 0 ? "; " + Math.min(Refusals.beyondLimitCount(), tries - judged) + BEYOND_LIMIT_DISCARDS
                + Refusals.limitNote() : "");
        return result.mapToAborted(new org.opentest4j.TestAbortedException(why));
    }

    /**
     * A property whose coverage check found a claim its tries could not reach ({@link UnreachableClaim}) is aborted
     * with that reason, so its rules are UNTESTED, not FAIL: the kit, not the provider, fell short.
     *
     * @param result the property's result
     * @return it, or an aborted one with the claim's reason
     */
    static PropertyExecutionResult unreachableClaim(PropertyExecutionResult result) {
        if (result.status() == PropertyExecutionResult.Status.FAILED
                && result.throwable().orElse(null) instanceof UnreachableClaim u) {
            return result.mapToAborted(new org.opentest4j.TestAbortedException(u.getMessage()));
        }
        return result;
    }

    /** Start of the reason of a property aborted below the floor of judged tries ({@link #judgedFloor}). */
    public static final String TOO_FEW_JUDGED = "UNTESTED: too few judged tries: ";

    /**
     * The part of a {@link #TOO_FEW_JUDGED} reason that counts the tries whose set-up lay past a limit the adapter
     * advertises ({@link Refusals#beyondLimit}), followed by the first such limit and the setting that reaches the check.
     */
    public static final String BEYOND_LIMIT_DISCARDS = " of them because a request the kit needed lay past a limit the adapter advertises: ";

    static void keepOriginalViolation(Throwable failure, PropertyExecutionResult result) {
        if (failure == null) {
            return;
        }
        result.originalSample().flatMap(s -> s.falsifyingError()).ifPresent(original -> {
            if (original != failure) {
                synchronized (FIRST_FAILURES) {
                    FIRST_FAILURES.put(failure, original);
                }
            }
            if (original != failure && original instanceof org.ndktck.tck.RuleViolation ov
                    && !(failure instanceof org.ndktck.tck.RuleViolation fv && fv.ruleId().equals(ov.ruleId()))) {
                failure.addSuppressed(original);
            }
        });
    }

    /** Reported (shrunk) failure to the failure of the first falsified try, where they differ. */
    private static final Map<Throwable, Throwable> FIRST_FAILURES = new WeakHashMap<>();

    /**
     * The failure a property met first: the error of its first falsified try. It differs from the failure the
     * property reports only when shrinking drifted to another failure (see {@link #keepOriginalViolation}).
     *
     * @param reported the failure a property reported, or null
     * @return the failure of its first falsified try when the kit saw it differ, else {@code reported}
     */
    public static Throwable firstFailure(Throwable reported) {
        if (reported == null) {
            return null;
        }
        synchronized (FIRST_FAILURES) {
            return FIRST_FAILURES.getOrDefault(reported, reported);
        }
    }

    /**
     * The rules a kit property checks. A property names each rule once, with jqwik's {@code @Tag("RULE-ID")}: the
     * tag is what a JUnit Platform tag filter selects ({@code @IncludeTags}, Surefire's {@code groups}), and in a
     * class marked {@link NdkKit} every tag of a property is a catalog rule ID (the build checks it), the first
     * being the rule a breach found in passing is charged to. (jqwik 1.9.3 reads {@code @Tag} also as a
     * meta-annotation, but only with a constant value, so no kit annotation with the rule as its value could
     * give the tag.)
     *
     * @param method a kit property (a method of a class marked {@link NdkKit})
     * @return the IDs of its {@code @Tag} annotations, in declaration order; empty for a method of another class
     */
    public static Set<String> ruleIds(Method method) {
        Set<String> ids = new LinkedHashSet<>();
        if (!isKitClass(method.getDeclaringClass())) {
            return ids;
        }
        for (Tag t : AnnotationSupport.findRepeatableAnnotations(method, Tag.class)) {
            ids.add(t.value());
        }
        return ids;
    }

    /** @return true when {@code c} or a class enclosing it is marked {@link NdkKit} */
    private static boolean isKitClass(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (k.isAnnotationPresent(NdkKit.class)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param method a kit property
     * @return {@code SimpleClassName#method}
     */
    public static String propertyId(Method method) {
        return method.getDeclaringClass().getSimpleName() + "#" + method.getName();
    }

    /**
     * @param ids rule IDs
     * @return them joined with commas
     */
    static String join(Set<String> ids) {
        return ids.stream().collect(Collectors.joining(","));
    }
}
