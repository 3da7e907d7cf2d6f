package org.ndktck.tck.properties;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.state.ActionChain;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.properties.OneAdapterChainWorld.World;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.CreateMr;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.Register;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.Deregister;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.Initialize;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.FastRegister;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.Invalidate;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.RereadTokens;
import org.ndktck.tck.properties.OneAdapterChainMrSteps.CloseMr;
import org.ndktck.tck.properties.OneAdapterChainRemoteSteps.RemoteAccess;
import org.ndktck.tck.properties.OneAdapterChainRemoteSteps.RemoteInvalidate;
import org.ndktck.tck.properties.OneAdapterChainRemoteSteps.BadRemoteInvalidate;

import java.util.List;

/**
 * Inputs real providers get wrong: a long stateful chain (jqwik {@link ActionChain}) on ONE adapter, over several MRs and several
 * connected QPs at once, against a model of what each token may do at each step. Steps: create normal and
 * fast-register MRs, register, deregister, initialize, fast-register and invalidate (each on any connection's
 * target QP of the PD), remote reads and writes from any connection through live and stale tokens (inside and past
 * the region), remote invalidation with NdkSendAndInvalidate naming a live fast registration, remote invalidation
 * naming a bad token (one never issued, a stale one, a local one, one of the peer's PD) on a fresh connection of its
 * own, token re-reads and closes. A step whose outcome differs from the model fails with the rule that outcome
 * breaks; jqwik shrinks a failing chain to a short sequence of steps, which the failure prints.
 *
 * <p>The legal freedoms: an allowed refusal (STATUS_INSUFFICIENT_RESOURCES, inline or through the completion) of any
 * call ends that step and the chain goes on ({@link Refusals#stepUnlessRefused}); an MR whose state a refused step
 * leaves unknown leaves the model. Completions may pend, token values are anything unique, and local tokens may
 * differ from remote ones (a bad remote invalidation with a local token is made only when it equals no live remote
 * token). How a SendAndInvalidate with a bad token completes, and what becomes of its connection (INV-6), are not
 * judged here: that connection is used for nothing else.
 *
 * <p>Its model: every live registration grants exactly what its flags allow within its bounds through every
 * connection of its PD (MR-REG-4, MR-REG-8, MR-FR-9, MR-FR-10, MR-FR-12, MR-FR-20); a deregistered, invalidated or
 * remotely invalidated registration grants nothing (MR-DEREG-3, INV-4); a remote invalidation ends exactly the
 * registration its token names and no other (COV-3: every other live registration is probed right after it); tokens
 * stay the same while a registration lives (MR-TOK-5) and no two live registrations of the adapter share a remote
 * token (MR-TOK-6).
 */
@NdkKit
public class OneAdapterChainProperties {

    /** The session the chain runs in (the chain's initial state is made on the property thread). */
    private static final ThreadLocal<NdkSession> SESSION = new ThreadLocal<>();

    /** Steps of one chain. */
    static final int STEPS = 32;

    @Provide
    Arbitrary<ActionChain<World>> chains() {
        return ActionChain.startWith(() -> new World(SESSION.get()))
                .withAction(2, new CreateMr())
                .withAction(3, new Register())
                .withAction(2, new Deregister())
                .withAction(3, new Initialize())
                .withAction(4, new FastRegister())
                .withAction(2, new Invalidate())
                .withAction(2, new RemoteInvalidate())
                .withAction(2, new BadRemoteInvalidate())
                .withAction(1, new RereadTokens())
                .withAction(6, new RemoteAccess())
                .withAction(1, new CloseMr())
                .withMaxTransformations(STEPS);
    }

    /**
     * Long interleavings on one adapter over several MRs and connections follow the model: every access ends as the
     * model says (MR-REG-4, MR-REG-8, MR-FR-9, MR-FR-10, MR-FR-12, MR-FR-20; MR-DEREG-3 and INV-4 for ended
     * registrations), a remote invalidation ends exactly what its token names (COV-3), tokens hold (MR-TOK-5) and stay
     * unique among live registrations (MR-TOK-6), and the memory check after each access finds no other byte changed
     * and no guard frame touched. A failure shows the steps that led to it.
     */
    @Property(tries = 80)
    @org.ndktck.tck.harness.LeastTries(40)
    @Tag("COV-3")
    @Tag("MR-TOK-6")
    @Tag("INV-4")
    @Tag("MR-FR-20")
    void longInterleavingsOnOneAdapterFollowTheModel(@ForAll("chains") ActionChain<World> chain) {
        try (NdkSession s = NdkSession.open()) {
            SESSION.set(s);
            World[] end = new World[1];
            try {
                chain.peek(w -> end[0] = w).run();
                if (end[0] != null) {
                    end[0].model.coverage().pairs().keySet().forEach(pair -> Observations.collect(Observations.MODEL_PAIRS, pair));
                    org.ndktck.tck.harness.ChecksReached.modelPairs(end[0].model.coverage().pairs());
                }
            } catch (AssertionError e) {
                throw withSteps(e, chain);
            } finally {
                SESSION.remove();
                if (end[0] != null) {
                    end[0].t.close();
                }
            }
        }
        STEP_MIX.count(chain.transformations(), false); // an allowed refusal ends a step, not the chain
    }

    /**
     * The step mix claim: every action of {@link #chains()} ran, by the start of its steps' descriptions, with its
     * weight there (the rarest, 1 of 28, needs {@link CoverageClaims#leastSteps} = 446 steps: 14 chains of
     * {@value #STEPS}; the smoke profile's 40 tries run up to 1,280).
     */
    static final StepClaims STEP_MIX = new StepClaims(java.util.Map.ofEntries(
            java.util.Map.entry("create a ", 2), java.util.Map.entry("register a normal MR", 3),
            java.util.Map.entry("deregister a registered MR", 2), java.util.Map.entry("initialize a fast-register MR", 3),
            java.util.Map.entry("fast-register an initialized MR", 4), java.util.Map.entry("invalidate a fast-registered MR", 2),
            java.util.Map.entry("remote invalidation of a fast-registered MR", 2),
            java.util.Map.entry("remote invalidation with a bad token", 2), java.util.Map.entry("re-read the tokens", 1),
            java.util.Map.entry("a peer ", 6), java.util.Map.entry("close an MR", 1)));

    /** The chain wraps a failing step's RuleViolation in an AssertionError: rethrown with its rule and the steps. */
    private static AssertionError withSteps(AssertionError e, ActionChain<World> chain) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof RuleViolation v) {
                String m = v.getMessage();
                String body = m.startsWith("[" + v.ruleId() + "] ") ? m.substring(v.ruleId().length() + 3) : m;
                List<String> steps = chain.transformations();
                return new RuleViolation(v.ruleId(), body + "\n  after " + steps.size() + " step(s): " + steps, v);
            }
        }
        return e;
    }
}
