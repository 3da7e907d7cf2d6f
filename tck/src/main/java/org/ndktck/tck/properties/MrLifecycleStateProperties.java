package org.ndktck.tck.properties;

import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.model.AccessKind;
import org.ndktck.tck.model.FastPages;
import org.ndktck.tck.model.Grant;
import org.ndktck.tck.model.Judgement;
import org.ndktck.tck.model.ModelMr;
import org.ndktck.tck.model.MrCall;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.Revoked;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.ActionChainArbitrary;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Probes;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * A stateful property (jqwik {@link ActionChain}) over the MR life cycle and the data path, against a model
 * that predicts the outcome of every step: create normal and fast-register MRs, register, deregister,
 * initialize, fast-register, invalidate, remote reads and writes through live and stale tokens (inside and
 * past the region), local RDMA-read sinks through local tokens, token re-reads, and closes. A step whose
 * outcome differs from the model fails with the rule that outcome breaks, and jqwik shrinks the chain to
 * a short sequence of steps.
 *
 * <p>The model follows the kit's readings: strict alternation (register, deregister; fast-register,
 * invalidate, fast-register), re-registration of a deregistered MR only in the declared unspecified mode
 * (MR-DEREG-4: any refusal passes, an accepted one is judged as a registration) and no re-initialization
 * (AMB-12); access rights from the flags (composite flags tested whole), byte-exact bounds, and tokens that
 * stop granting anything after deregistration (MR-DEREG-3) or invalidation (INV-4).
 */
@NdkKit
public class MrLifecycleStateProperties {

    /** The session the chain runs in (the chain's initial state is made on the property thread). */
    private static final ThreadLocal<NdkSession> SESSION = new ThreadLocal<>();

    /** The state of a chain: the session and the kit's model of its MRs. */
    static final class World {
        final NdkSession s;
        final SessionTools t;
        final MrModel model = new MrModel();

        World(NdkSession s) {
            this.s = s;
            this.t = SessionTools.of(s);
            s.qps();
        }

        void batch(Runnable r) {
            s.invoker().batch("a step of the MR life-cycle chain", () -> {
                r.run();
                return null;
            });
        }
    }

    // ------------------------------------------------------------------ actions

    /** The choice of a step among the objects eligible when it runs. */
    private static final Arbitrary<Integer> PICKS = Arbitraries.integers().between(0, 63);

    private static Transformer<World> step(String description, java.util.function.Consumer<World> body) {
        return Transformer.mutate(description, w -> w.batch(() -> body.accept(w)));
    }

    /** Creates a normal or a fast-register MR. */
    static final class CreateMr implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return w.model.all().size() < 5;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.of(false, true).map(fast -> step("create " + (fast ? "a fast-register MR" : "a normal MR"), w -> {
                NdkMr mr = w.t.createMrUnlessRefused(w.s.target().pd(), fast);
                if (mr != null) { // else refused for lack of resources (allowed): the sequence goes on without it
                    w.model.created(mr, fast);
                }
            }));
        }
    }

    /** Registers a new normal MR. */
    static final class Register implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.REGISTER).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            int p = w.s.pageSize();
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, 2),
                    Arbitraries.integers().between(0, p - 1), Arbitraries.doubles().between(0, 1),
                    Arbitraries.of(0x0, 0x1, 0x2, 0x3, 0x5, 0x7, 0x9, 0xB, 0xF)).as((pick, pages, off, f, flags) -> {
                        long max = (long) pages * p - off;
                        long length = Math.max(1, (long) (f * max));
                        return step("register a new normal MR (pick " + pick + ", " + pages + " page(s), offset " + off + ", Length " + u64(length)
                                + ", Flags " + u32(flags) + ")", x -> {
                            ModelMr m = MrModel.pick(x.model.eligible(MrCall.REGISTER), pick);
                            x.model.calling(m, MrCall.REGISTER);
                            HostBuffer b = x.s.allocate(pages);
                            Mdl mdl = b.mdl(x.t.freshVa() + off, 0, (int) length);
                            Outcome o = x.s.register(m.mr(), mdl, length, flags);
                            if (Refusals.isAllowedRefusal(o.status())) {
                                return; // refused for lack of resources (allowed): the MR stays new, the sequence goes on
                            }
                            SectionChecks.requireRegistered(x.s, o);
                            int token = x.s.remoteToken(m.mr());
                            x.model.registered(m, new Grant(new Region(b, off, mdl.virtualAddress(), length, token), x.s.localToken(m.mr()),
                                    (flags & 2) != 0, NdkMrFlags.allowsRemoteWrite(flags), (flags & 1) != 0, (flags & 8) != 0, false, o.call()));
                        });
                    });
        }
    }

    /**
     * Registers a deregistered normal MR again, with a fresh buffer, Length and Flags. The pages leave this call
     * unspecified (MR-DEREG-4, {@link MrCall#REREGISTER}): any refusal is allowed and leaves the MR unsettled (only a
     * close picks it again); an accepted registration joins the model as any other does, so the accesses that follow
     * judge it by its own Flags and Length (MR-REG-8, MR-REG-4) and keep probing the token of the registration that
     * was deregistered (MR-DEREG-3). The step itself probes the new region with every kind of access at its last byte
     * and one byte past its end (its MDL runs on past Length). A provider that keeps an MR's first Flags, Length or
     * token across a deregistration is found here.
     */
    static final class Reregister implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.REREGISTER).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            int p = w.s.pageSize();
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, 2),
                    Arbitraries.integers().between(0, p - 1), Arbitraries.doubles().between(0, 1),
                    Arbitraries.of(0x0, 0x1, 0x2, 0x3, 0x5, 0x7, 0x9, 0xB, 0xF)).as((pick, pages, off, f, flags) -> {
                        long max = (long) pages * p - off;
                        long length = Math.max(1, (long) (f * max));
                        return step("re-register a deregistered MR (unspecified, MR-DEREG-4: a refusal is allowed; pick " + pick + ", " + pages
                                + " page(s), offset " + off + ", MDL ByteCount " + u64(max) + ", Length " + u64(length) + ", Flags " + u32(flags) + ")", x -> {
                            ModelMr m = MrModel.pick(x.model.eligible(MrCall.REREGISTER), pick);
                            x.model.calling(m, MrCall.REREGISTER);
                            HostBuffer b = x.s.allocate(pages);
                            // the MDL runs to the buffer's end, past Length: the bytes after Length must stay out of reach
                            Mdl mdl = b.mdl(x.t.freshVa() + off, 0, (int) max);
                            Outcome o = x.s.register(m.mr(), mdl, length, flags);
                            if (!o.succeeded()) {
                                x.model.unsettle(m); // the pages allow any answer; what the MR holds now is not known
                                return;
                            }
                            int token = x.s.remoteToken(m.mr());
                            x.model.registered(m, new Grant(new Region(b, off, mdl.virtualAddress(), length, token), x.s.localToken(m.mr()),
                                    (flags & 2) != 0, NdkMrFlags.allowsRemoteWrite(flags), (flags & 1) != 0, (flags & 8) != 0, false,
                                    o.call() + " (a re-registration)"));
                            // at once, every kind of access at its last byte and one past its end: a re-registration that
                            // kept an earlier Length or right shows here (MR-REG-4, MR-REG-8, SGE-2), not by chance later
                            Grant g = m.grant();
                            for (AccessKind kind : AccessKind.values()) {
                                Access.access(x, new Target(g, null), kind, 1.0, 1, false);
                                Access.access(x, new Target(g, null), kind, 0, 1, true);
                            }
                        });
                    });
        }
    }

    /** Deregisters a registered MR. */
    static final class Deregister implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.DEREGISTER).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("deregister a registered MR (pick " + pick + ")", x -> {
                ModelMr m = MrModel.pick(x.model.eligible(MrCall.DEREGISTER), pick);
                x.model.calling(m, MrCall.DEREGISTER);
                Outcome o = x.s.deregister(m.mr());
                if (Refusals.isAllowedRefusal(o.status())) {
                    // refused for lack of resources (allowed, MR-DEREG-2 "other status codes"): its state is not known,
                    // so it leaves the model (neither live nor ended); the session deregisters it again at its end
                    x.model.unsettle(m);
                    return;
                }
                if (!o.succeeded()) {
                    throw Violations.of(MrCall.DEREGISTER.refusalRule(), o.call() + " of " + m, "STATUS_SUCCESS for a registered MR", o.describe());
                }
                x.model.deregistered(m);
            }));
        }
    }

    /** Initializes a new fast-register MR (with its buffer and LAM). */
    static final class Initialize implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.INITIALIZE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, 3),
                    Arbitraries.of(true, true, false)).as((pick, pages, remote) -> step("initialize a new fast-register MR (pick " + pick + ", "
                    + pages + " page(s), RemoteAccess " + remote + ")", x -> {
                        ModelMr m = MrModel.pick(x.model.eligible(MrCall.INITIALIZE), pick);
                        x.model.calling(m, MrCall.INITIALIZE);
                        int p = x.s.pageSize();
                        Outcome o = x.s.initializeFastRegister(m.mr(), pages, remote);
                        if (Refusals.isAllowedRefusal(o.status())) {
                            return; // refused for lack of resources (allowed): the MR stays new, the sequence goes on
                        }
                        if (!o.succeeded()) {
                            throw Violations.of(MrCall.INITIALIZE.refusalRule(), o.call() + " of " + m,
                                    "STATUS_SUCCESS for AdapterPageCount up to FRMRPageCount", o.describe());
                        }
                        HostBuffer buffer = x.s.allocate(pages);
                        Lam lam = x.s.buildLam(buffer.mdl(x.t.freshVa(), 0, pages * p), (long) pages * p);
                        x.model.initialized(m, new FastPages(buffer, lam, pages, remote));
                    }));
        }
    }

    /** Fast-registers an initialized (or invalidated) MR. */
    static final class FastRegister implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.FAST_REGISTER).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            int p = w.s.pageSize();
            return Combinators.combine(PICKS, Arbitraries.integers().between(0, p - 1),
                    Arbitraries.doubles().between(0, 1), Arbitraries.of(0x38, 0x08, 0x30, 0x18, 0x10, 0x00)).as((pick, fboSeed, f, flagSeed) -> {
                        return step("fast-register an initialized MR (pick " + pick + ", FBO " + fboSeed + ", Flags " + u32(flagSeed)
                                + " without the remote bits when RemoteAccess is FALSE)", x -> {
                            ModelMr m = MrModel.pick(x.model.eligible(MrCall.FAST_REGISTER), pick);
                            x.model.calling(m, MrCall.FAST_REGISTER);
                            FastPages fp = m.pages();
                            int flags = fp.remoteAccess() ? flagSeed : flagSeed & NdkOpFlags.ALLOW_LOCAL_WRITE;
                            int fbo = fboSeed;
                            long max = (long) fp.pages() * p - fbo;
                            long length = Math.max(1, (long) (f * max));
                            int withSink = flags | ((flags & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0 ? x.t.readSinkOpFlag() : 0);
                            long base = x.t.freshVa() + fbo;
                            WrOutcome o = x.s.fastRegister(x.s.target().qp(), m.mr(), fp.pages(), fp.lam().pages(), fbo, length, base, withSink);
                            if (!o.succeeded()) {
                                throw Violations.of(MrCall.FAST_REGISTER.refusalRule(), o.call() + " of " + m, "STATUS_SUCCESS for a valid fast registration",
                                        o.describe());
                            }
                            int token = x.s.remoteToken(m.mr());
                            x.model.fastRegistered(m, new Grant(new Region(fp.buffer(), fbo, base, length, token), x.s.localToken(m.mr()),
                                    (withSink & 0x08) != 0, NdkOpFlags.allowsRemoteWrite(withSink), (withSink & 0x10) != 0, (withSink & 0x80) != 0,
                                    true, o.call()));
                        });
                    });
        }
    }

    /** Invalidates a fast-registered MR. */
    static final class Invalidate implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.INVALIDATE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("invalidate a fast-registered MR (pick " + pick + ")", x -> {
                ModelMr m = MrModel.pick(x.model.eligible(MrCall.INVALIDATE), pick);
                x.model.calling(m, MrCall.INVALIDATE);
                WrOutcome o = x.s.invalidate(m.mr(), 0);
                if (!o.succeeded()) {
                    throw Violations.of(MrCall.INVALIDATE.refusalRule(), o.call() + " of " + m, "STATUS_SUCCESS for a fast-registered MR", o.describe());
                }
                x.model.invalidated(m, "invalidated");
            }));
        }
    }

    /** Re-reads the tokens of a live registration (MR-TOK-5). */
    static final class RereadTokens implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.READ_TOKENS).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("re-read the tokens of a live registration (pick " + pick + ")", x -> {
                ModelMr m = MrModel.pick(x.model.eligible(MrCall.READ_TOKENS), pick);
                x.model.calling(m, MrCall.READ_TOKENS);
                Grant g = m.grant();
                int remote = x.s.remoteToken(m.mr());
                int local = x.s.localToken(m.mr());
                if (remote != g.remoteToken() || local != g.localToken()) {
                    throw Violations.of("MR-TOK-5", "NdkGetRemoteTokenFromMr() / NdkGetLocalTokenFromMr() of " + m + " after " + g.what(),
                            "the values read when the registration completed: " + u32(g.remoteToken()) + " / " + u32(g.localToken()),
                            u32(remote) + " / " + u32(local));
                }
            }));
        }
    }

    /** A target for an access: a live or an ended registration. */
    record Target(Grant grant, Revoked ended) {
        @Override
        public String toString() {
            return (ended == null ? "live " : "ended (" + ended.why() + ") ") + grant.region();
        }
    }

    private static List<Target> targets(World w) {
        List<Target> all = new ArrayList<>();
        w.model.lives().forEach(m -> all.add(new Target(m.grant(), null)));
        w.model.revoked().forEach(r -> all.add(new Target(r.grant(), r)));
        return all;
    }

    /** A peer write or read, or a local read sink, through a live or ended registration, inside or past it. */
    static final class Access implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !targets(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return Combinators.combine(PICKS, Arbitraries.of(AccessKind.class), Arbitraries.doubles().between(0, 1),
                    Arbitraries.integers().between(1, 32), Arbitraries.of(false, false, false, true)).as((pick, kind, kf, nSeed, past) ->
                    step(kind + " through a live or ended registration (pick " + pick + ", " + nSeed + " byte(s)" + (past ? ", reaching past its end" : "")
                            + ")", x -> access(x, MrModel.pick(targets(x), pick), kind, kf, nSeed, past)));
        }

        private static void access(World x, Target tg, AccessKind kind, double kf, int nSeed, boolean past) {
            Grant l = tg.grant();
            Region r = l.region();
            int n = (int) Math.min(nSeed, Math.max(1, r.length()));
            long k = past ? r.length() - n + 1 : (long) (kf * (r.length() - n));
            Judgement j = Judgement.of(l, tg.ended(), kind, k, n, x.s.readSinkNotRequired(), false);
            boolean allowed = j.allowed();
            org.ndktck.tck.harness.Access a;
            byte[] expectRead = null;
            switch (kind) {
                case REMOTE_WRITE -> a = j.inBounds() ? Probes.writeInside(x.s, r, k, n) : Probes.writeAt(x.s, r, r.base() + k, n);
                case REMOTE_READ -> {
                    expectRead = j.inBounds() ? Probes.expectedAt(r, k, n) : null;
                    a = x.s.peerRead(r.base() + k, r.remoteToken(), n);
                }
                default -> {
                    byte[] source = x.s.peerScratchBytes(n);
                    a = x.s.targetReadInto(new NdkSge(r.base() + k, n, l.localToken()), 0);
                    if (a.succeeded() && allowed) {
                        r.buffer().expectWrite(r.bufferOffset() + k, source);
                    }
                }
            }
            String what = a.describe() + " (" + kind + " of " + n + " byte(s) at region byte " + u64(k) + " of " + tg + ", made by " + l.what() + ")";
            if (allowed && !a.succeeded()) {
                throw Violations.of(j.grantedRule(), what, "STATUS_SUCCESS: the model allows this access", a.outcome().describe());
            }
            if (!allowed && a.succeeded()) {
                throw Violations.of(j.refusedRule(), what, "an error: the model forbids this access (" + j.why() + ")", "it succeeded");
            }
            if (expectRead != null && a.succeeded() && !Arrays.equals(a.data(), expectRead)) {
                throw Violations.of(j.grantedRule(), what, "the region's bytes " + Hex.bytes(expectRead), "read " + Hex.bytes(a.data()));
            }
            x.s.checkMemory(allowed ? j.grantedRule() : j.refusedRule(), what);
        }
    }

    /** Closes an MR (its registration, if any, ends with it). */
    static final class CloseMr implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.CLOSE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("close an MR (pick " + pick + ")", x -> {
                ModelMr m = MrModel.pick(x.model.eligible(MrCall.CLOSE), pick);
                x.model.calling(m, MrCall.CLOSE);
                x.t.closeAndWait(m.mr());
                x.model.closed(m);
            }));
        }
    }

    @Provide
    Arbitrary<ActionChain<World>> lifecycles() {
        ActionChainArbitrary<World> chains = ActionChain.startWith(() -> new World(SESSION.get()))
                .withAction(3, new CreateMr())
                .withAction(3, new Register())
                .withAction(2, new Deregister())
                .withAction(1, new Reregister())
                .withAction(3, new Initialize())
                .withAction(3, new FastRegister())
                .withAction(2, new Invalidate())
                .withAction(1, new RereadTokens())
                .withAction(6, new Access())
                .withAction(1, new CloseMr());
        // 24 steps at the standard profile, 12 at smoke, 48 at deep (deep means longer chains)
        return chains.withMaxTransformations(org.ndktck.tck.harness.TckConfig.current().profile().size(24));
    }

    /**
     * The MR life cycle and the data path against the model: every step ends as the model predicts, or the
     * chain fails with the rule the step's outcome breaks (MR-REG-10, MR-DEREG-2, MR-FRI-2, INV-3 for a
     * refused valid step; MR-DEREG-3, INV-4, MR-REG-4, MR-REG-8, MR-FR-10, MR-FR-12, SGE-2 for an access that
     * should have failed; MR-REG-4, MR-FR-9, MR-TOK-2 for an access that should have worked; MR-TOK-5 and
     * MR-TOK-6 for tokens; CL-1, CL-2 for closes), and the memory check after each access finds no other
     * byte changed and no guard frame touched.
     */
    @Property(tries = 100)
    @org.ndktck.tck.harness.LeastTries(50)
    @Tag("MR-DEREG-3")
    @Tag("INV-4")
    @Tag("MR-TOK-6")
    @Tag("MR-REG-8")
    @Tag("MR-REG-4")
    void theLifeCycleFollowsTheModel(@ForAll("lifecycles") ActionChain<World> chain) {
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
                throw ruleOf(e, chain);
            } finally {
                SESSION.remove();
                if (end[0] != null) {
                    end[0].t.close();
                }
            }
        }
        STEP_MIX.count(chain.transformations(), false); // a refused call leaves the chain going
    }

    /**
     * The step mix claim: every action of {@link #lifecycles()} ran, by the start of its steps' descriptions, with its
     * weight there (the rarest, 1 of 25, needs {@link CoverageClaims#leastSteps} = 398 steps: 34 chains of 12 steps at
     * the smoke profile; its 50 tries run up to 600).
     */
    static final StepClaims STEP_MIX = new StepClaims(java.util.Map.ofEntries(
            java.util.Map.entry("create ", 3), java.util.Map.entry("register a new normal MR", 3),
            java.util.Map.entry("deregister a registered MR", 2), java.util.Map.entry("re-register a deregistered MR", 1), java.util.Map.entry("initialize a new fast-register MR", 3),
            java.util.Map.entry("fast-register an initialized MR", 3), java.util.Map.entry("invalidate a fast-registered MR", 2),
            java.util.Map.entry("re-read the tokens", 1), java.util.Map.entry("close an MR", 1),
            java.util.Map.entry("REMOTE_", 4), java.util.Map.entry("LOCAL_SINK", 2))); // the access action (6): 2 of its 3 kinds are remote

    /**
     * The chain reports a failing step as an AssertionError whose cause is the step's RuleViolation; the
     * kit charges the violation's own rule, so it is rethrown with the steps that led to it.
     */
    private static AssertionError ruleOf(AssertionError e, ActionChain<World> chain) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof org.ndktck.tck.RuleViolation v) {
                String m = v.getMessage();
                String body = m.startsWith("[" + v.ruleId() + "] ") ? m.substring(v.ruleId().length() + 3) : m;
                return new org.ndktck.tck.RuleViolation(v.ruleId(), body + "\n  after the steps: " + chain.transformations(), v);
            }
        }
        return e;
    }
}
