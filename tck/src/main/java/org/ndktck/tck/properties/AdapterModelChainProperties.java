package org.ndktck.tck.properties;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.tck.harness.CurrentProperty;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.model.Coverage;
import org.ndktck.tck.model.LamModel;
import org.ndktck.tck.model.QpCall;
import org.ndktck.tck.model.QpPhase;
import org.ndktck.tck.properties.ModelChainWorld.World;

import java.util.Set;
import java.util.TreeSet;

import static org.ndktck.tck.properties.ModelChainWorld.forgetBytes;

/**
 * A stateful chain (jqwik {@link ActionChain}) on ONE adapter over QPs in every phase of the model
 * ({@link QpPhase}: unconnected, connected, flushed, peer closed, closed), their receives, the data path with every
 * request flag the kit may set (SILENT_SUCCESS, READ_FENCE, DEFER followed by a request without it, INLINE within the
 * QP's InlineDataSize), flushes in every phase, closes of either end, several LAMs built and released in any order
 * with privileged-token accesses, and both CQ getters. Each step's outcome is judged by the kit's model
 * ({@link QpCall#allowed}): a request the pages require to work must work and move exactly its bytes; one they
 * require to fail must fail and move nothing; where the pages say nothing (a request after NdkFlush, or once the
 * peer's end is closed) the declared unspecified mode accepts either, as long as a success moved exactly its bytes
 * and a failure none (SEC-1), and an accepted request completes exactly once.
 *
 * <p>Receives: a send lands in one of the receives pending on the receiving QP (the pages do not order them, so the
 * model accepts any and follows the one the provider chose); each pending receive completes with STATUS_CANCELLED at a
 * flush (FL-1) and with an error at a close (CL-5). Memory: after every step the kit's memory check finds no byte
 * changed outside what the model expects and no guard frame touched, including the pages of released LAMs.
 *
 * <p>The (phase, call) pairs exercised are jqwik statistics (label {@code model (state, call)}); at the standard
 * profile and deeper the property requires every pair the model allows to have been reached in the run.
 */
@NdkKit
public class AdapterModelChainProperties {

    /** The session the chain runs in (the chain's initial state is made on the property thread). */
    private static final ThreadLocal<NdkSession> SESSION = new ThreadLocal<>();

    @Provide
    Arbitrary<ActionChain<World>> chains() {
        return ActionChain.startWith(() -> new World(SESSION.get()))
                .withAction(3, new ModelChainQpSteps.Connect())
                .withAction(2, new ModelChainQpSteps.CreateUnconnected())
                .withAction(3, new ModelChainPosts.Post(QpCall.WRITE))
                .withAction(3, new ModelChainPosts.Post(QpCall.READ))
                .withAction(3, new ModelChainPosts.Post(QpCall.SEND))
                .withAction(3, new ModelChainQpSteps.Receive())
                .withAction(2, new ModelChainPosts.FencedCopy())
                .withAction(3, new ModelChainQpSteps.PeerSend())
                .withAction(2, new ModelChainQpSteps.Flush())
                .withAction(1, new ModelChainQpSteps.ClosePeer())
                .withAction(1, new ModelChainQpSteps.CloseQp())
                .withAction(2, new ModelChainLamSteps.BuildLam())
                .withAction(2, new ModelChainLamSteps.ReleaseLam())
                .withAction(2, new ModelChainLamSteps.PrivilegedRead())
                .withAction(1, new ModelChainLamSteps.PollCq())
                .withMaxTransformations(TckConfig.current().profile().size(24));
    }

    /**
     * @return every (phase, call) pair of QPs, LAMs and CQs the model allows {@link #everyCallInEveryStateFollowsTheModel}
     *     to make, named as report.json's {@code modelPairs} keys them ({@code "STATE CALL"})
     */
    public static Set<String> allowedPairs() {
        Set<String> all = new TreeSet<>();
        for (QpCall c : QpCall.values()) {
            for (QpPhase p : c.phases()) {
                all.add(Coverage.name(p, c));
            }
        }
        for (LamModel.LamCall c : LamModel.LamCall.values()) {
            all.add(Coverage.name(LamModel.LamPhase.LIVE, c));
        }
        all.add(Coverage.name(LamModel.LamPhase.RELEASED, LamModel.LamCall.PRIVILEGED_ACCESS));
        for (ModelChainPosts.FenceCall c : ModelChainPosts.FenceCall.values()) {
            all.add(Coverage.name(QpPhase.CONNECTED, c));
        }
        for (ModelChainLamSteps.CqCall c : ModelChainLamSteps.CqCall.values()) {
            all.add(Coverage.name(ModelChainLamSteps.CqState.OPEN, c));
        }
        return all;
    }

    /**
     * Every call on QPs in every phase, LAMs and CQs follows the model: requests the pages require to work move
     * exactly their bytes (RW-5 for writes, RW-3 for reads, SND-2 and CQ-6 for sends and receives), requests on an
     * unconnected QP fail (RW-2, SND-1), a flush cancels every pending receive (FL-1), a close completes them (CL-5),
     * the privileged token reaches a live LAM's pages (PRIV-1), and in the unspecified mode (after a flush, with the
     * peer's end closed, at a released LAM's address) nothing is exposed (SEC-1).
     */
    @Property(tries = TRIES)
    @org.ndktck.tck.harness.LeastTries(120)
    @Tag("SEC-1")
    @Tag("FL-1")
    @Tag("CL-5")
    @Tag("RW-2")
    @Tag("RW-6")
    @Tag("RW-5")
    @Tag("PRIV-1")
    void everyCallInEveryStateFollowsTheModel(@ForAll("chains") ActionChain<World> chain) {
        boolean cut = runChain(chain, PAIRS);
        requireEveryPair(chain.transformations().size(), cut, PAIRS, allowedPairs(), PAIR_STEPS);
        STEP_MIX.count(chain.transformations(), cut);
    }

    /**
     * Runs one chain in a session of its own and collects the (state, call) pairs it reached under {@code label}.
     *
     * @return whether an allowed refusal cut the chain short
     */
    private static boolean runChain(ActionChain<World> chain, String label) {
        World[] chainEnd = new World[1];
        try (NdkSession s = NdkSession.open()) {
            SESSION.set(s);
            World[] end = chainEnd;
            try {
                chain.peek(w -> end[0] = w).run();
                if (end[0] != null) {
                    end[0].coverage.pairs().keySet().forEach(pair -> Statistics.label(label).collect(pair));
                    org.ndktck.tck.harness.ChecksReached.modelPairs(end[0].coverage.pairs());
                    if (end[0].tainted) {
                        Statistics.label(label).collect(REFUSED);
                    }
                }
            } catch (AssertionError e) {
                throw ModelFailures.withSteps(e, chain.transformations());
            } finally {
                SESSION.remove();
                if (end[0] != null) {
                    end[0].t.close();
                    ModelChainPdSteps.finishClosingPds(end[0]);
                    if (end[0].tainted) {
                        forgetBytes(end[0]); // what a refused step left in flight has landed by now
                    }
                }
            }
        }
        return chainEnd[0] != null && chainEnd[0].tainted;
    }

    @Provide
    Arbitrary<ActionChain<World>> pdChains() {
        return ActionChain.startWith(() -> new World(SESSION.get()))
                .withAction(2, new ModelChainPdSteps.CreatePd())
                .withAction(3, new ModelChainPdSteps.RegisterOnPd())
                .withAction(3, new ModelChainPdSteps.ConnectOnPd())
                .withAction(5, new ModelChainPdSteps.AccessOnPd())
                .withAction(2, new ModelChainPdSteps.DeregisterOnPd())
                .withAction(2, new ModelChainPdSteps.CloseMrOnPd())
                .withAction(2, new ModelChainPdSteps.CloseQpOnPd())
                .withAction(3, new ModelChainPdSteps.CloseCqOfPd())
                .withAction(3, new ModelChainPdSteps.ClosePd())
                .withAction(1, new ModelChainQpSteps.Connect())
                .withAction(1, new ModelChainPosts.Post(QpCall.WRITE))
                .withAction(1, new ModelChainQpSteps.Flush())
                .withAction(1, new ModelChainLamSteps.BuildLam())
                .withAction(1, new ModelChainLamSteps.ReleaseLam())
                .withAction(1, new ModelChainLamSteps.PollCq())
                .withMaxTransformations(TckConfig.current().profile().size(24));
    }

    /**
     * PDs of the chain's own, their MRs, their QPs and those QPs' CQs are created and closed in every order the pages
     * allow, between steps of the rest of the model (connections, writes, flushes, LAMs, CQ polls): a PD closed while
     * an MR or a QP of it is open returns STATUS_PENDING and calls back only after the last of them has closed, and
     * until then its MRs grant exactly what they granted through its QPs (CL-6); the peer's accesses through the token
     * of a live registration work (MR-REG-4), through the token of a deregistered or closed MR they fail and change no
     * byte (MR-DEREG-3, SEC-1). Every (PD phase, call) pair the model allows is demanded at the standard profile.
     */
    @Property(tries = PD_TRIES)
    @org.ndktck.tck.harness.LeastTries(64)
    @Tag("CL-6")
    @Tag("MR-DEREG-3")
    @Tag("MR-REG-4")
    @Tag("SEC-1")
    void parentsAndChildrenCloseInEveryOrder(@ForAll("pdChains") ActionChain<World> chain) {
        boolean cut = runChain(chain, PD_PAIRS);
        requireEveryPair(chain.transformations().size(), cut, PD_PAIRS, ModelChainPdSteps.allowedPairs(), PD_TRIES * 24);
        PD_STEP_MIX.count(chain.transformations(), cut);
    }

    /**
     * @return every (PD phase, call) pair the model allows {@link #parentsAndChildrenCloseInEveryOrder} to make, named
     *     as report.json's {@code modelPairs} keys them ({@code "STATE CALL"})
     */
    public static Set<String> allowedPdPairs() {
        return ModelChainPdSteps.allowedPairs();
    }

    /** Tries of {@link #parentsAndChildrenCloseInEveryOrder} at the standard profile. */
    static final int PD_TRIES = 80;

    /** Statistics label of the (PD phase, call) pairs the PD chains reached: a claim. */
    static final String PD_PAIRS = "model (PD state, call)";

    /**
     * The step mix claim of {@link #pdChains()}: every action ran, with its weight there (the rarest, 1 of 31, needs
     * about 500 steps; {@code @LeastTries(64)} gives the smoke profile's chains of 12 steps 768).
     */
    static final StepClaims PD_STEP_MIX = new StepClaims(java.util.Map.ofEntries(
            java.util.Map.entry("create a chain PD", 2), java.util.Map.entry("register an MR on a chain PD", 3),
            java.util.Map.entry("connect a QP of a chain PD", 3), java.util.Map.entry("peer access through a token of a chain PD", 5),
            java.util.Map.entry("deregister an MR of a chain PD", 2), java.util.Map.entry("close an MR of a chain PD", 2),
            java.util.Map.entry("close the QP of a chain PD", 2), java.util.Map.entry("close the CQ of a closed QP of a chain PD", 3),
            java.util.Map.entry("close a chain PD", 3), java.util.Map.entry("connect a new pair of QPs", 1),
            java.util.Map.entry(QpCall.WRITE + " of ", 1), java.util.Map.entry("flush a QP", 1), java.util.Map.entry("build a LAM", 1),
            java.util.Map.entry("release a LAM", 1), java.util.Map.entry("poll the target's CQ", 1)));

    /** The statistics value of a try whose chain was cut short by an allowed refusal. */
    static final String REFUSED = "a step refused for lack of resources";

    /** Tries at the standard profile. */
    static final int TRIES = 60;

    /**
     * Requires, at every profile, that the run reached every (phase, call) pair the model allows (a chain that stops
     * reaching a state fails instead of turning silently green), once the chains ran as many steps as
     * {@value #TRIES} chains of 24 steps (the standard profile's: {@link #PAIR_STEPS}); {@code @LeastTries(120)} gives
     * the smoke profile's chains of 12 steps that many. For a provider that refused a call for lack of resources the
     * claim is waived (which pairs its chains reach follows its refusals); the step mix is still demanded.
     *
     * @param steps        the steps this chain ran
     * @param cutByRefusal whether an allowed refusal ended it
     * @param label        the statistics label of the pairs
     * @param allowed      the pairs demanded
     * @param least        the steps after which they are demanded
     */
    private static void requireEveryPair(int steps, boolean cutByRefusal, String label, Set<String> allowed, int least) {
        CurrentProperty.Info info = CurrentProperty.get();
        if (info == null) {
            return;
        }
        int[] tally = PAIR_TALLY.get();
        if (PAIR_OWNER.get() != info) {
            PAIR_OWNER.set(info);
            tally[0] = 0;
            tally[1] = 0;
        }
        tally[0] += steps;
        tally[1] |= cutByRefusal ? 1 : 0;
        // narrowed for a provider that refuses: which pairs its chains reach then follows its refusals (a refused step
        // taints the chain), so the claim is waived, as in the MR chains; the step mix (STEP_MIX) is still demanded
        if (tally[1] != 0 || org.ndktck.tck.harness.Refusals.count() > 0 || org.ndktck.tck.harness.Refusals.limitNote() != null) {
            PAIR_WAIVED.get()[0] = info;
        }
        CurrentProperty.Info[] waived = PAIR_WAIVED.get();
        // the smoke profile's chains are half as long (12 steps): the deepest pairs (a close after the peer closed) come
        // too seldom in its steps to be demanded; the standard profile's chains reach every pair and are held to it
        boolean smoke = org.ndktck.tck.harness.TckConfig.current().profile() == org.ndktck.tck.harness.TckConfig.Profile.SMOKE;
        CoverageClaims.demand(label, allowed, () -> tally[0], least, "steps", () -> null, () -> waived[0] == info || smoke);
    }

    /** Statistics label of the (phase, call) pairs the chains reached: a claim ({@link #requireEveryPair}). */
    static final String PAIRS = "model (state, call)";

    /** Steps after which every allowed (phase, call) pair is demanded: the standard profile's chains. */
    static final int PAIR_STEPS = TRIES * 24;

    private static final ThreadLocal<int[]> PAIR_TALLY = ThreadLocal.withInitial(() -> new int[2]);
    private static final ThreadLocal<CurrentProperty.Info> PAIR_OWNER = new ThreadLocal<>();
    private static final ThreadLocal<CurrentProperty.Info[]> PAIR_WAIVED = ThreadLocal.withInitial(() -> new CurrentProperty.Info[1]);

    /**
     * The step mix claim: every action of {@link #chains()} ran, by the start of its steps' descriptions, with its
     * weight there (the rarest, 1 of 33, needs {@link CoverageClaims#leastSteps} = 537 steps, 45 chains of 12 steps at
     * the smoke profile; the pair claim's 120 tries run more).
     */
    static final StepClaims STEP_MIX = new StepClaims(java.util.Map.ofEntries(
            java.util.Map.entry("connect a new pair of QPs", 3), java.util.Map.entry("create an unconnected QP", 2),
            java.util.Map.entry(QpCall.WRITE + " of ", 3), java.util.Map.entry(QpCall.READ + " of ", 3),
            java.util.Map.entry(QpCall.SEND + " of ", 3), java.util.Map.entry("post a receive", 3),
            java.util.Map.entry("a read ", 2), java.util.Map.entry("the peer sends", 3), java.util.Map.entry("flush a QP", 2),
            java.util.Map.entry("close the peer's end of a QP", 1), java.util.Map.entry("close a QP", 1),
            java.util.Map.entry("build a LAM", 2), java.util.Map.entry("release a LAM", 2),
            java.util.Map.entry("a privileged-token read", 2), java.util.Map.entry("poll the target's CQ", 1)));
}
