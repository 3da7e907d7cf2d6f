package org.ndktck.tck.properties;

import org.ndktck.tck.harness.ChecksReached;
import org.ndktck.tck.harness.Created;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import static org.ndktck.tck.harness.Hex.u32;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.generators.FastRegisterPlans;
import org.ndktck.tck.generators.FrCase;
import org.ndktck.tck.generators.FrPlan;
import org.ndktck.tck.generators.Limits;
import org.ndktck.tck.generators.RegCase;
import org.ndktck.tck.generators.RegPlan;
import org.ndktck.tck.generators.RegisterPlans;
import org.ndktck.tck.harness.FrScenario;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.ProviderThreads;
import org.ndktck.tck.harness.RegScenario;
import org.ndktck.tck.harness.RequestContext;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;

import java.util.ArrayList;
import java.util.List;

/**
 * The general asynchronous rules (catalog section "General asynchronous rules"; the
 * NDK_FN_REQUEST_COMPLETION and NDK_FN_CREATE_COMPLETION pages, the object-lifetime page, and the kit's
 * own GEN-TIME-1 and GEN-EXC-1).
 *
 * <p>The session checks these rules on every call of every property ({@link NdkSession}); the properties
 * here drive every asynchronous call of the seed pages (NdkCreateMr, NdkRegisterMr, NdkDeregisterMr,
 * NdkInitializeFastRegisterMr, NdkBuildLam, NdkFastRegister, closes) with valid requests and requests that
 * break one rule, so each rule is exercised on purpose, and add what only a dedicated property can do:
 * wait out a quiet period for late callbacks, exhaust resources, close objects from inside completions.
 */
@NdkKit
public class GeneralAsyncProperties {

    /** A workout: one registration plan and one fast-register plan, each valid or breaking one rule. */
    record Workout(RegPlan reg, FrPlan fr) {
    }

    @Provide
    Arbitrary<Workout> workouts() {
        Limits l = Limits.current();
        List<Arbitrary<RegPlan>> regs = new ArrayList<>();
        for (RegCase c : RegCase.values()) {
            regs.add(RegisterPlans.breaking(c, l));
        }
        List<Arbitrary<FrPlan>> frs = new ArrayList<>();
        for (FrCase c : FrCase.values()) {
            frs.add(FastRegisterPlans.breaking(c, l));
        }
        // edge cases: each edge case of the registration generators paired with one of the fast-register
        // generators, in turn (not their cartesian product, which would crowd out random workouts)
        List<RegPlan> regEdges = new ArrayList<>();
        regs.forEach(a -> a.edgeCases().forEach(e -> regEdges.add(e.value())));
        List<FrPlan> frEdges = new ArrayList<>();
        frs.forEach(a -> a.edgeCases().forEach(e -> frEdges.add(e.value())));
        int n = Math.max(regEdges.size(), frEdges.size());
        Workout[] edges = new Workout[n];
        for (int i = 0; i < n; i++) {
            edges[i] = new Workout(regEdges.get(i % regEdges.size()), frEdges.get(i % frEdges.size()));
        }
        return Combinators.combine(Arbitraries.oneOf(regs), Arbitraries.oneOf(frs)).as(Workout::new)
                .withoutEdgeCases().edgeCases(c -> c.filter(x -> false).add(edges));
    }

    /**
     * Every asynchronous call of the seed pages once: NdkCreateMr (both kinds), NdkRegisterMr, NdkDeregisterMr
     * after a success, NdkInitializeFastRegisterMr, NdkBuildLam (sized, and with no buffer: the
     * STATUS_BUFFER_TOO_SMALL path), NdkFastRegister, a peer read and NdkInvalidate after a success, the
     * token getters, and every close.
     */
    static void workout(NdkSession s, Workout w) {
        RegScenario rs = RegScenario.prepare(s, w.reg());
        Outcome o = rs.register();
        if (o.succeeded()) {
            s.remoteToken(rs.mr());
            s.localToken(rs.mr());
            s.deregister(rs.mr());
        }
        Mdl m = rs.chain();
        s.buildLamRaw(m, Math.max(1, Math.min(m.unsignedByteCount(), w.reg().length())), 0);
        FrScenario fs = FrScenario.prepare(s, w.fr());
        WrOutcome f = fs.post();
        if (f.succeeded()) {
            int token = s.remoteToken(fs.mr());
            if (w.fr().length() > 0) {
                s.peerRead(w.fr().baseVirtualAddress(), token, 1);
            }
            s.invalidate(fs.mr(), 0);
        }
    }

    /**
     * Claims GEN-TIME-1's (and the other general rules') kinds of call: every registration case and every
     * fast-registration case among the workouts' edge cases comes (the edge cases run first; {@link Checks#cover}).
     */
    private void label(Workout w) {
        Checks.cover("registration", w.reg().kind().name(), this::workouts, x -> x.reg().kind().name());
        Checks.cover("fast registration", w.fr().kind().name(), this::workouts, x -> x.fr().kind().name());
    }

    /**
     * GEN-CB-1: every call of the workout that returns STATUS_PENDING completes exactly once, within the
     * bound, with the kit's own context and a final status (never STATUS_PENDING).
     */
    @Property
    @Tag("GEN-CB-1")
    void pendingCallsCompleteExactlyOnce(@ForAll("workouts") Workout w) {
        label(w);
        NdkSession.inTry(s -> {
            workout(s, w);
            s.checkCallbacks();
        });
    }

    /**
     * GEN-CB-2: a call that returns anything but STATUS_PENDING never has its completion called: checked
     * at the end of each try and again once a quiet period ({@link org.ndktck.tck.harness.Bounds#quietNanos()})
     * has passed (by a later try or at the end of the property, {@link org.ndktck.tck.harness.QuietWatch}),
     * and for late callbacks at the end of every later try of the run.
     */
    @Property(tries = 25)
    @org.ndktck.tck.harness.LeastTries(48) // the workouts' edge cases (45 since valid MDL chains may hold a ByteCount 0 MDL), which the registration-kind claim needs, and a margin
    @Tag("GEN-CB-2")
    void noCompletionAfterANonPendingReturn(@ForAll("workouts") Workout w) {
        label(w);
        NdkSession.inTry(s -> {
            workout(s, w);
            s.quietThenCheckCallbacks();
        });
    }

    /**
     * GEN-CB-3: a create (NdkCreateMr of both kinds, and the PDs, CQs and QPs of the session) that returns
     * STATUS_PENDING leaves the out parameter empty and delivers the object, exactly once, through its
     * completion.
     */
    @Property(generation = GenerationMode.RANDOMIZED)
    @Tag("GEN-CB-3")
    void pendingCreateDeliversTheObjectThroughTheCompletion(@ForAll boolean fastRegister) {
        String[] returned = {""};
        NdkSession.inTry(s -> {
            s.qps();
            Created<NdkMr> c = s.createMrRaw(s.target(), fastRegister);
            returned[0] = c.returned().isPending() ? "STATUS_PENDING" : c.returned().toString();
            s.checkCallbacks();
        });
        Observations.collect(Observations.RETURNED, returned[0]);
    }

    /**
     * GEN-CB-4: a create that returns STATUS_SUCCESS carries the object in the out parameter, and a create
     * that returns anything but STATUS_PENDING has no completion (checked after the quiet period).
     */
    @Property(tries = 25, generation = GenerationMode.RANDOMIZED)
    @Tag("GEN-CB-4")
    void nonPendingCreateHasNoCompletion(@ForAll boolean fastRegister) {
        NdkSession.inTry(s -> {
            s.qps();
            s.createMrRaw(s.target(), fastRegister);
            s.createMrRaw(s.peer(), !fastRegister);
            s.quietThenCheckCallbacks();
        });
    }

    /** Why GEN-CB-5 compared nothing in a try: the adapter's MR limit lies beyond what the kit creates. */
    static final String NOT_EXHAUSTED = "the adapter did not run out of MRs within 32 NdkCreateMr calls, so no"
            + " STATUS_INSUFFICIENT_RESOURCES was seen; a provider setting that limits its objects reaches the check"
            + " (the reference provider: --set maxObjects=16)";

    /**
     * GEN-CB-5: STATUS_INSUFFICIENT_RESOURCES may come inline or as the completion status, and the kit
     * accepts both. When creating MRs exhausts the adapter (within 32 MRs), the failing create gives no
     * object, and once one MR is closed the same create succeeds again: the failure held nothing. On an
     * adapter that is not exhausted by 32 MRs the try compares nothing ("not exhausted",
     * {@link ChecksReached#notReached}): a run where no try exhausted it leaves GEN-CB-5 UNTESTED with the limit
     * to set (the reference provider: {@code --set maxObjects=16}).
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("GEN-CB-5")
    void insufficientResourcesIsACleanFailureInlineOrAsync(@ForAll boolean fastRegister) {
        String[] how = {"not exhausted within 32 MRs"};
        NdkSession.inTry(s -> {
            List<NdkMr> live = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                Created<NdkMr> c = s.createMrRaw(s.target(), fastRegister);
                if (c.succeeded()) {
                    live.add(c.object());
                    continue;
                }
                if (!Refusals.isAllowedRefusal(c.status())) {
                    how[0] = "another error: " + c.status();
                    ChecksReached.notReached("GEN-CB-5", "NdkCreateMr failed with " + c.status()
                            + " instead of running out of resources, so no STATUS_INSUFFICIENT_RESOURCES was seen");
                    return;
                }
                how[0] = c.returned().isPending() ? "exhausted, reported through the completion" : "exhausted, reported inline";
                if (live.isEmpty()) {
                    ChecksReached.notReached("GEN-CB-5", "the first NdkCreateMr already ran out of resources, so no MR"
                            + " could be closed to show the failure held nothing");
                    return;
                }
                s.closeMr(live.remove(0));
                Created<NdkMr> again = s.createMrRaw(s.target(), fastRegister);
                if (!again.succeeded()) {
                    throw Violations.of("GEN-CB-5", again.call(), "STATUS_SUCCESS: after STATUS_INSUFFICIENT_RESOURCES (" + c.describe()
                            + ") the kit closed one MR, so an MR can be created again", again.describe());
                }
                return;
            }
            ChecksReached.notReached("GEN-CB-5", NOT_EXHAUSTED);
        });
        Observations.collect(Observations.RESOURCES, how[0]);
    }

    /**
     * GEN-LIFE-1: the provider survives the object being closed from inside its completion. The kit closes
     * (or deregisters, then closes) the MR from inside the completion of NdkInitializeFastRegisterMr or
     * NdkRegisterMr; the callback must return within the bound, and no provider thread may die afterwards
     * (a use of the closed object). When one does, a control call with nothing closed inside its completion
     * tells the two faults apart: a thread that dies there too is GEN-EXC-1's (a completion path that always
     * throws), otherwise GEN-LIFE-1's. Calls that complete inline have no completion and compare nothing
     * ({@link ChecksReached#notReached}): an adapter that completes every such call inline leaves GEN-LIFE-1
     * UNTESTED.
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("GEN-LIFE-1")
    void closingFromInsideTheCompletionIsSafe(@ForAll boolean viaRegister) {
        String[] seen = {"inline: no completion to close from"};
        NdkSession.inTry(s -> {
            long mark = ProviderThreads.mark();
            Outcome o;
            if (viaRegister) {
                RegPlan plan = new RegPlan(RegCase.VALID, "one page", 0x10000L * s.pageSize(), new int[]{s.pageSize()}, -1, 0,
                        s.pageSize(), 0x7, 0);
                RegScenario sc = RegScenario.prepare(s, plan);
                NdkMr mr = sc.mr();
                s.insideNextCallback(op -> {
                    s.deregisterFromCallback(mr);
                    s.closeMrFromCallback(mr);
                });
                o = sc.register();
            } else {
                NdkMr mr = s.createMr(s.target(), true);
                s.insideNextCallback(op -> s.closeMrFromCallback(mr));
                o = s.initializeFastRegister(mr, 1, true);
            }
            s.insideNextCallback(null);
            if (!o.returned().isPending()) {
                ChecksReached.notReached("GEN-LIFE-1", INLINE_ONLY);
                return;
            }
            seen[0] = "closed from inside the completion";
            s.waitQuietThenCheckCallbacks();
            ProviderThreads.Death death = firstProviderDeath(mark);
            if (death != null) {
                // control: the same kind of call, nothing closed inside its completion
                long controlMark = ProviderThreads.mark();
                if (viaRegister) {
                    RegPlan plan = new RegPlan(RegCase.VALID, "one page", 0x20000L * s.pageSize(), new int[]{s.pageSize()}, -1, 0,
                            s.pageSize(), 0x7, 0);
                    RegScenario.prepare(s, plan).register();
                } else {
                    s.initializeFastRegister(s.createMr(s.target(), true), 1, true);
                }
                s.waitQuietThenCheckCallbacks();
                ProviderThreads.Death controlDeath = firstProviderDeath(controlMark);
                if (controlDeath != null) {
                    throw Violations.of("GEN-EXC-1", "the completion path of " + o.call(), "no exception from any provider code path",
                            "provider thread " + controlDeath.thread() + " died with " + controlDeath.error()
                                    + " even when nothing was closed inside the completion", controlDeath.error());
                }
                throw Violations.of("GEN-LIFE-1", o.call(), "the provider leaves the MR alone once its completion started "
                        + "(the kit closed it inside the completion)", "provider thread " + death.thread() + " died with " + death.error()
                        + ", which it does not when nothing is closed inside the completion", death.error());
            }
        });
        Observations.collect(Observations.COMPLETION, seen[0]);
    }

    /** Why GEN-LIFE-1 compared nothing in a try: the call completed inline, so there was no completion to close from. */
    static final String INLINE_ONLY = "NdkRegisterMr and NdkInitializeFastRegisterMr completed inline (no STATUS_PENDING),"
            + " so there was no completion to close the MR from; a provider setting that makes them complete"
            + " asynchronously reaches the check (the reference provider: --set completion=pending)";

    private static ProviderThreads.Death firstProviderDeath(long mark) {
        for (ProviderThreads.Death d : ProviderThreads.since(mark)) {
            if (!d.thread().startsWith("ndk-tck-caller-")) {
                return d;
            }
        }
        return null;
    }

    /**
     * GEN-TIME-1: every call of the workout returns, and every PENDING call completes, within the kit's
     * time bound (the session's invoker enforces the bound; a call that does not return fails this rule
     * and the run goes on with a fresh adapter).
     */
    @Property
    @Tag("GEN-TIME-1")
    void everyCallReturnsWithinTheBound(@ForAll("workouts") Workout w) {
        label(w);
        NdkSession.inTry(s -> workout(s, w));
    }

    /**
     * GEN-EXC-1: no call of the workout throws, whatever the arguments (valid, or breaking one rule, with
     * values up to the whole unsigned range), and no provider thread dies with an exception during the try.
     */
    @Property
    @Tag("GEN-EXC-1")
    void noCallThrows(@ForAll("workouts") Workout w) {
        label(w);
        NdkSession.inTry(s -> workout(s, w));
    }

    /** ULONG extremes for the numeric arguments of the create calls: 0, 1, 2^31 - 1, 2^31, 2^32 - 1 (in an int). */
    @Provide
    Arbitrary<Integer> ulongExtremes() {
        return Arbitraries.of(0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF);
    }

    /**
     * GEN-EXC-1: NdkCreateCq and NdkCreateQp whose QueueDepth, queue depths, SGE counts and InlineDataSize are ULONG
     * extremes (0, 1, 2^31 - 1, 2^31, 2^32 - 1) end in STATUS_SUCCESS or an error status, inline or through the
     * completion (GEN-CB-3, GEN-CB-4 as for every create), and never throw; whatever they create is closed again.
     */
    @Property(tries = 50)
    @Tag("GEN-EXC-1")
    void createCallsTakeAnyUlong(@ForAll("ulongExtremes") int queueDepth, @ForAll("ulongExtremes") int receiveQueueDepth,
                                 @ForAll("ulongExtremes") int initiatorQueueDepth, @ForAll("ulongExtremes") int maxReceiveRequestSge,
                                 @ForAll("ulongExtremes") int maxInitiatorRequestSge, @ForAll("ulongExtremes") int inlineDataSize) {
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                s.qps();
                Created<NdkCq> cq = s.create("NdkCreateCq", () -> "NdkCreateCq(QueueDepth=" + u32(queueDepth) + ")",
                        op -> s.adapter().createCq(queueDepth, op.createCompletion(), op.context()));
                if (cq.object() != null) {
                    t.closeAndWait(cq.object());
                }
                NdkCq on = s.target().cq();
                Created<NdkQp> qp = s.create("NdkCreateQp", () -> "NdkCreateQp(ReceiveQueueDepth=" + u32(receiveQueueDepth)
                                + ", InitiatorQueueDepth=" + u32(initiatorQueueDepth) + ", MaxReceiveRequestSge=" + u32(maxReceiveRequestSge)
                                + ", MaxInitiatorRequestSge=" + u32(maxInitiatorRequestSge) + ", InlineDataSize=" + u32(inlineDataSize) + ")",
                        op -> s.target().pd().createQp(on, on, new RequestContext("QPContext of an extreme QP"), receiveQueueDepth,
                                initiatorQueueDepth, maxReceiveRequestSge, maxInitiatorRequestSge, inlineDataSize, op.createCompletion(),
                                op.context()));
                if (qp.object() != null) {
                    t.closeAndWait(qp.object());
                }
            }
        });
    }
}
