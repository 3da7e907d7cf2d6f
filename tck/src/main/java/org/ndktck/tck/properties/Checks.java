package org.ndktck.tck.properties;

import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCases;
import net.jqwik.api.Shrinkable;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.CurrentProperty;
import org.ndktck.tck.harness.FrScenario;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.RunLedger;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.Set;
import java.util.function.Function;

/** Checks the kit's properties share. */
final class Checks {
    private Checks() {
    }

    /**
     * MUST (fail) / SHOULD (code): the call must not succeed; a failure with another status than the
     * listed one is a SHOULD-level finding recorded in the RunLedger. A refusal for lack of resources
     * (STATUS_INSUFFICIENT_RESOURCES, which the pages allow any call) judges neither: the try is discarded
     * ({@link Refusals}).
     *
     * @param rule     the rule
     * @param call     the call in hex
     * @param status   the final status
     * @param describe how the call ended
     * @param listed   the listed status
     * @param expected what the rule requires, for the message
     */
    static void mustFail(String rule, String call, NtStatus status, String describe, NtStatus listed, String expected) {
        if (NtStatus.STATUS_SUCCESS.equals(status)) {
            throw Violations.of(rule, call, expected, describe);
        }
        Refusals.discardIfRefused(status);
        if (listed != null && !listed.equals(status)) {
            Violations.advisory(rule, call, listed.toString(), describe);
        }
    }

    /**
     * "Never registered" for a fast registration: the request must not end in STATUS_SUCCESS, and the MR
     * grants no access afterwards.
     *
     * @param s    the session
     * @param sc   the scenario
     * @param rule the rule the plan breaks
     * @param why  the rule in a few words (built only for a failure message)
     * @return the outcome
     */
    static WrOutcome neverRegistered(NdkSession s, FrScenario sc, String rule, Supplier<String> why) {
        WrOutcome o = sc.post();
        if (FrScenario.registered(o)) {
            if (org.ndktck.tck.Verdict.kitInterpretationOnly(org.ndktck.spec.rules.RuleCatalog.standard().find(rule).orElse(null))) {
                exposureProbe(s, sc, o, rule, why);
            }
            throw Violations.of(rule, o.call(), why.get() + ": never registered (an inline error, or a CQ entry with an error status)", o.describe());
        }
        sc.assertGrantsNothing(rule, why);
        return o;
    }

    /**
     * An accepted fast registration that a kit reading forbids (MR-FR-16, MR-FR-17, MR-FR-18: the rule's finding is
     * ADVISORY) is a FAIL only when it reaches memory outside what the kit supplied: the peer writes a pattern at the
     * start and the end of the requested region with the MR's remote token; a guard-frame access or any byte changed
     * outside the pages the kit handed the provider for this registration fails the rule with the note
     * {@value org.ndktck.tck.Verdict#MEMORY_EXPOSED}(a FAIL, not ADVISORY); whatever changed inside them is
     * accepted.
     */
    private static void exposureProbe(NdkSession s, FrScenario sc, WrOutcome o, String rule, Supplier<String> why) {
        int token = s.remoteToken(sc.mr());
        long base = sc.plan().baseVirtualAddress();
        long length = sc.plan().length();
        int n = (int) Math.min(Math.min(64, s.maxAccess()), length);
        if (n <= 0) {
            return;
        }
        byte[] data = new byte[n];
        java.util.Arrays.fill(data, (byte) 0xA5);
        for (long k : length > n ? new long[]{0, length - n} : new long[]{0}) {
            s.peerWrite(base + k, token, data);
        }
        sc.buffer().acceptActual(0, (int) Math.min(Integer.MAX_VALUE, sc.buffer().size()));
        s.checkMemory(rule, () -> org.ndktck.tck.Verdict.MEMORY_EXPOSED + o.call() + " (" + why.get()
                + ") was accepted, and the peer's writes with its remote token changed memory outside the pages the kit supplied");
    }

    /**
     * Labels a try for statistics and claims coverage of the generator's edge classes: each class one of its edge
     * cases falls in must come at least once in the property's tries ({@link CoverageClaims}). The kit runs edge
     * cases first (jqwik's EdgeCasesMode.FIRST), so the claim needs as many tries as the generator has edge cases; a
     * property whose tries are fewer at a profile fails with a coverage error naming {@code @CoverageClasses} (a kit
     * bug), and an explicit {@code --tries} below it leaves the property UNTESTED with the tries that reach it.
     *
     * @param label     the statistics label
     * @param value     this try's class
     * @param generator the property's generator (its edge cases name the classes); asked once per property run
     * @param classOf   the class of a generated value
     * @param <T>       the value type
     */
    static <T> void cover(String label, String value, Supplier<Arbitrary<T>> generator, Function<T, String> classOf) {
        Statistics.label(label).collect(value);
        CurrentProperty.Info info = CurrentProperty.get();
        if (info == null) {
            return;
        }
        Object[] c = CACHE.get();
        if (c[0] != info) {
            c[0] = info;
            c[1] = new HashMap<String, EdgeClaim>();
        }
        @SuppressWarnings("unchecked")
        Map<String, EdgeClaim> byLabel = (Map<String, EdgeClaim>) c[1];
        EdgeClaim claim = byLabel.computeIfAbsent(label, k -> edgeClaim(generator.get(), classOf));
        int tries = info.tries();
        CoverageClaims.demand(label, claim.classes(), () -> tries, claim.edges(), "tries");
    }

    /** A generator's edge classes and the number of its edge cases (the tries that produce them all). */
    private record EdgeClaim(Set<String> classes, int edges) {
    }

    private static <T> EdgeClaim edgeClaim(Arbitrary<T> generator, Function<T, String> classOf) {
        Set<String> out = new LinkedHashSet<>();
        int n = 0;
        for (Shrinkable<T> e : generator.edgeCases()) {
            out.add(classOf.apply(e.value()));
            n++;
        }
        return new EdgeClaim(out, n);
    }

    private static final ThreadLocal<Object[]> CACHE = ThreadLocal.withInitial(() -> new Object[2]);

    static <T> Set<String> edgeClasses(Arbitrary<T> generator, Function<T, String> classOf) {
        Set<String> out = new LinkedHashSet<>();
        EdgeCases<T> edges = generator.edgeCases();
        for (Shrinkable<T> e : edges) {
            out.add(classOf.apply(e.value()));
        }
        return out;
    }

    /**
     * Records that the provider accepted a call the consumer rule {@code consumerRule} forbids.
     *
     * @param consumerRule the rule the kit broke on purpose
     * @param call         the call, with its arguments
     * @param what         what was forbidden about it
     */
    static void accepted(String consumerRule, String call, String what) {
        RunLedger.advisory(consumerRule, "the kit broke this consumer rule on purpose (" + what + "): " + call
                + " was accepted; a provider may refuse it, and the kit checked under SEC-1 that no token reached more "
                + "than its registration granted");
    }
}
