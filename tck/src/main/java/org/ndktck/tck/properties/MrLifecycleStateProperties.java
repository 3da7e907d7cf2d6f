package org.ndktck.tck.properties;

import org.ndktck.tck.harness.Lam;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

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
 * invalidate, fast-register), no re-registration of a deregistered MR (MR-DEREG-4) and no re-initialization
 * (AMB-12); access rights from the flags (composite flags tested whole), byte-exact bounds, and tokens that
 * stop granting anything after deregistration (MR-DEREG-3) or invalidation (INV-4).
 */
@NdkKit
public class MrLifecycleStateProperties {

    /** The session the chain runs in (the chain's initial state is made on the property thread). */
    private static final ThreadLocal<NdkSession> SESSION = new ThreadLocal<>();

    /** Where a model MR is in its life. */
    enum Phase {
        /** Created, never registered or initialized. */
        NEW,
        /** Registered with NdkRegisterMr. */
        REGISTERED,
        /** Deregistered (not registered again: MR-DEREG-4). */
        DEREGISTERED,
        /** Initialized for fast registration. */
        INITIALIZED,
        /** Fast-registered. */
        FAST_REGISTERED,
        /** Fast-registered, then invalidated. */
        INVALIDATED,
        /**
         * Its deregistration was refused for lack of resources (MR-DEREG-2's table allows "other status
         * codes"): whether its tokens still grant is not known, so no step picks it and no access to it is judged.
         */
        UNSETTLED
    }

    /**
     * A registration as the model knows it.
     *
     * @param region      the region (buffer, base, length, token)
     * @param localToken  the local token
     * @param remoteRead  a peer may read it
     * @param remoteWrite a peer may write it
     * @param localWrite  it may be a local sink
     * @param readSink    it may be an RDMA-read sink where the adapter requires RDMA_READ_SINK
     * @param fast        a fast registration
     * @param what        how it was made, for messages
     */
    record Live(Region region, int localToken, boolean remoteRead, boolean remoteWrite, boolean localWrite, boolean readSink,
                boolean fast, String what) {
    }

    /**
     * A registration that no longer grants anything.
     *
     * @param live what it was
     * @param rule the rule an access through it would break
     * @param why  what ended it
     */
    record Stale(Live live, String rule, String why) {
    }

    /** One MR of the model. */
    static final class ModelMr {
        final int id;
        final NdkMr mr;
        final boolean fast;
        Phase phase = Phase.NEW;
        Live live;
        HostBuffer buffer;
        Lam lam;
        int pages;
        boolean remoteAccess;

        ModelMr(int id, NdkMr mr, boolean fast) {
            this.id = id;
            this.mr = mr;
            this.fast = fast;
        }

        @Override
        public String toString() {
            return "MR#" + id + (fast ? "(fast)" : "");
        }
    }

    /** The state of a chain: the session, the MRs and the stale registrations. */
    static final class World {
        final NdkSession s;
        final SessionTools t;
        final Map<Integer, ModelMr> mrs = new LinkedHashMap<>();
        final List<Stale> stale = new ArrayList<>();
        int next = 1;

        World(NdkSession s) {
            this.s = s;
            this.t = SessionTools.of(s);
            s.qps();
        }

        List<ModelMr> in(Phase... phases) {
            List<Phase> ps = Arrays.asList(phases);
            return mrs.values().stream().filter(m -> ps.contains(m.phase)).toList();
        }

        List<ModelMr> where(Predicate<ModelMr> p) {
            return mrs.values().stream().filter(p).toList();
        }

        List<Live> lives() {
            return mrs.values().stream().filter(m -> m.live != null).map(m -> m.live).toList();
        }

        /** @return the chain's state as a failure prints it: each MR with its phase, and the stale registrations */
        @Override
        public String toString() {
            return "World{MRs: " + (mrs.isEmpty() ? "none" : mrs.values().stream().map(m -> m + " " + m.phase)
                    .collect(java.util.stream.Collectors.joining(", "))) + "; stale registrations: " + stale.size() + "}";
        }

        /**
         * @param eligible the MRs a step may act on now
         * @param pick     the step's choice (any non-negative int)
         * @return the MR, or null when none is eligible (a step of a shrunk chain may find none: it is skipped)
         */
        static <T> T pick(List<T> eligible, int pick) {
            return eligible.isEmpty() ? null : eligible.get(pick % eligible.size());
        }

        void batch(Runnable r) {
            s.invoker().batch("a step of the MR life-cycle chain", () -> {
                r.run();
                return null;
            });
        }

        /** MR-TOK-6: a new remote token differs from every other live registration's. */
        void checkUnique(ModelMr owner, int token, String call) {
            for (ModelMr m : mrs.values()) {
                if (m != owner && m.live != null && m.live.region().remoteToken() == token) {
                    throw Violations.of("MR-TOK-6", call + " for " + owner, "a remote token no other live registration has",
                            u32(token) + ", also the token of " + m + " (" + m.live.what() + ")");
                }
            }
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
            return w.mrs.size() < 5;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.of(false, true).map(fast -> step("create " + (fast ? "a fast-register MR" : "a normal MR"), w -> {
                NdkMr mr = w.t.createMrUnlessRefused(w.s.target().pd(), fast);
                if (mr == null) {
                    return; // refused for lack of resources (allowed): the sequence goes on without it
                }
                int id = w.next++;
                w.mrs.put(id, new ModelMr(id, mr, fast));
            }));
        }
    }

    /** Registers a new normal MR. */
    static final class Register implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.where(m -> !m.fast && m.phase == Phase.NEW).isEmpty();
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
                            ModelMr m = World.pick(x.where(mm -> !mm.fast && mm.phase == Phase.NEW), pick);
                            if (m == null) {
                                return;
                            }
                            HostBuffer b = x.s.allocate(pages);
                            Mdl mdl = b.mdl(x.t.freshVa() + off, 0, (int) length);
                            Outcome o = x.s.register(m.mr, mdl, length, flags);
                            if (Refusals.isAllowedRefusal(o.status())) {
                                return; // refused for lack of resources (allowed): the MR stays new, the sequence goes on
                            }
                            SectionChecks.requireRegistered(x.s, o);
                            int token = x.s.remoteToken(m.mr);
                            x.checkUnique(m, token, o.call());
                            m.live = new Live(new Region(b, off, mdl.virtualAddress(), length, token), x.s.localToken(m.mr), (flags & 2) != 0,
                                    NdkMrFlags.allowsRemoteWrite(flags), (flags & 1) != 0, (flags & 8) != 0, false, o.call());
                            m.phase = Phase.REGISTERED;
                        });
                    });
        }
    }

    /** Deregisters a registered MR. */
    static final class Deregister implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.in(Phase.REGISTERED).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("deregister a registered MR (pick " + pick + ")", x -> {
                ModelMr m = World.pick(x.in(Phase.REGISTERED), pick);
                if (m == null) {
                    return;
                }
                Outcome o = x.s.deregister(m.mr);
                if (Refusals.isAllowedRefusal(o.status())) {
                    // refused for lack of resources (allowed, MR-DEREG-2 "other status codes"): its state is not known,
                    // so it leaves the model (neither live nor stale); the session deregisters it again at its end
                    m.live = null;
                    m.phase = Phase.UNSETTLED;
                    return;
                }
                if (!o.succeeded()) {
                    throw Violations.of("MR-DEREG-2", o.call() + " of " + m, "STATUS_SUCCESS for a registered MR", o.describe());
                }
                x.stale.add(new Stale(m.live, "MR-DEREG-3", "deregistered"));
                m.live = null;
                m.phase = Phase.DEREGISTERED;
            }));
        }
    }

    /** Initializes a new fast-register MR (with its buffer and LAM). */
    static final class Initialize implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.where(m -> m.fast && m.phase == Phase.NEW).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, 3),
                    Arbitraries.of(true, true, false)).as((pick, pages, remote) -> step("initialize a new fast-register MR (pick " + pick + ", "
                    + pages + " page(s), RemoteAccess " + remote + ")", x -> {
                        ModelMr m = World.pick(x.where(mm -> mm.fast && mm.phase == Phase.NEW), pick);
                        if (m == null) {
                            return;
                        }
                        int p = x.s.pageSize();
                        Outcome o = x.s.initializeFastRegister(m.mr, pages, remote);
                        if (Refusals.isAllowedRefusal(o.status())) {
                            return; // refused for lack of resources (allowed): the MR stays new, the sequence goes on
                        }
                        if (!o.succeeded()) {
                            throw Violations.of("MR-FRI-2", o.call() + " of " + m, "STATUS_SUCCESS for AdapterPageCount up to FRMRPageCount", o.describe());
                        }
                        m.buffer = x.s.allocate(pages);
                        m.lam = x.s.buildLam(m.buffer.mdl(x.t.freshVa(), 0, pages * p), (long) pages * p);
                        m.pages = pages;
                        m.remoteAccess = remote;
                        m.phase = Phase.INITIALIZED;
                    }));
        }
    }

    /** Fast-registers an initialized (or invalidated) MR. */
    static final class FastRegister implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.in(Phase.INITIALIZED, Phase.INVALIDATED).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            int p = w.s.pageSize();
            return Combinators.combine(PICKS, Arbitraries.integers().between(0, p - 1),
                    Arbitraries.doubles().between(0, 1), Arbitraries.of(0x38, 0x08, 0x30, 0x18, 0x10, 0x00)).as((pick, fboSeed, f, flagSeed) -> {
                        return step("fast-register an initialized MR (pick " + pick + ", FBO " + fboSeed + ", Flags " + u32(flagSeed)
                                + " without the remote bits when RemoteAccess is FALSE)", x -> {
                            ModelMr m = World.pick(x.in(Phase.INITIALIZED, Phase.INVALIDATED), pick);
                            if (m == null) {
                                return;
                            }
                            int flags = m.remoteAccess ? flagSeed : flagSeed & NdkOpFlags.ALLOW_LOCAL_WRITE;
                            int fbo = fboSeed;
                            long max = (long) m.pages * p - fbo;
                            long length = Math.max(1, (long) (f * max));
                            int withSink = flags | ((flags & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0 ? x.t.readSinkOpFlag() : 0);
                            long base = x.t.freshVa() + fbo;
                            WrOutcome o = x.s.fastRegister(x.s.target().qp(), m.mr, m.pages, m.lam.pages(), fbo, length, base, withSink);
                            if (!o.succeeded()) {
                                throw Violations.of("MR-FRI-2", o.call() + " of " + m, "STATUS_SUCCESS for a valid fast registration", o.describe());
                            }
                            int token = x.s.remoteToken(m.mr);
                            x.checkUnique(m, token, o.call());
                            m.live = new Live(new Region(m.buffer, fbo, base, length, token), x.s.localToken(m.mr), (withSink & 0x08) != 0,
                                    NdkOpFlags.allowsRemoteWrite(withSink), (withSink & 0x10) != 0, (withSink & 0x80) != 0, true, o.call());
                            m.phase = Phase.FAST_REGISTERED;
                        });
                    });
        }
    }

    /** Invalidates a fast-registered MR. */
    static final class Invalidate implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.in(Phase.FAST_REGISTERED).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("invalidate a fast-registered MR (pick " + pick + ")", x -> {
                ModelMr m = World.pick(x.in(Phase.FAST_REGISTERED), pick);
                if (m == null) {
                    return;
                }
                WrOutcome o = x.s.invalidate(m.mr, 0);
                if (!o.succeeded()) {
                    throw Violations.of("INV-3", o.call() + " of " + m, "STATUS_SUCCESS for a fast-registered MR", o.describe());
                }
                x.stale.add(new Stale(m.live, "INV-4", "invalidated"));
                m.live = null;
                m.phase = Phase.INVALIDATED;
            }));
        }
    }

    /** Re-reads the tokens of a live registration (MR-TOK-5). */
    static final class RereadTokens implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.where(m -> m.live != null).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("re-read the tokens of a live registration (pick " + pick + ")", x -> {
                ModelMr m = World.pick(x.where(mm -> mm.live != null), pick);
                if (m == null) {
                    return;
                }
                int remote = x.s.remoteToken(m.mr);
                int local = x.s.localToken(m.mr);
                if (remote != m.live.region().remoteToken() || local != m.live.localToken()) {
                    throw Violations.of("MR-TOK-5", "NdkGetRemoteTokenFromMr() / NdkGetLocalTokenFromMr() of " + m + " after " + m.live.what(),
                            "the values read when the registration completed: " + u32(m.live.region().remoteToken()) + " / " + u32(m.live.localToken()),
                            u32(remote) + " / " + u32(local));
                }
            }));
        }
    }

    /** A target for an access: a live or a stale registration. */
    record Target(Live live, Stale stale) {
        Live of() {
            return live != null ? live : stale.live();
        }

        @Override
        public String toString() {
            return (live != null ? "live " : "stale (" + stale.why() + ") ") + of().region();
        }
    }

    private static List<Target> targets(World w) {
        List<Target> all = new ArrayList<>();
        w.lives().forEach(l -> all.add(new Target(l, null)));
        w.stale.forEach(st -> all.add(new Target(null, st)));
        return all;
    }

    private static boolean hasTargets(World w) {
        return !w.lives().isEmpty() || !w.stale.isEmpty();
    }

    /** A peer write or read, or a local read sink, through a live or stale registration, inside or past it. */
    static final class Access implements Action.Dependent<World> {
        /** The kind of access. */
        enum Kind {
            /** The peer writes. */
            REMOTE_WRITE,
            /** The peer reads. */
            REMOTE_READ,
            /** The target reads from the peer into the region (a local sink through the local token). */
            LOCAL_SINK
        }

        @Override
        public boolean precondition(World w) {
            return hasTargets(w);
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return Combinators.combine(PICKS, Arbitraries.of(Kind.class), Arbitraries.doubles().between(0, 1),
                    Arbitraries.integers().between(1, 32), Arbitraries.of(false, false, false, true)).as((pick, kind, kf, nSeed, past) ->
                    step(kind + " through a live or stale registration (pick " + pick + ", " + nSeed + " byte(s)" + (past ? ", reaching past its end" : "")
                            + ")", x -> {
                        Target tg = World.pick(targets(x), pick);
                        if (tg != null) {
                            access(x, tg, kind, kf, nSeed, past);
                        }
                    }));
        }

        private static void access(World x, Target tg, Kind kind, double kf, int nSeed, boolean past) {
            Live l = tg.of();
            Region r = l.region();
            int n = (int) Math.min(nSeed, Math.max(1, r.length()));
            long k = past ? r.length() - n + 1 : (long) (kf * (r.length() - n));
            boolean inBounds = k >= 0 && k + n <= r.length();
            boolean allowed = tg.live() != null && inBounds && switch (kind) {
                case REMOTE_WRITE -> l.remoteWrite();
                case REMOTE_READ -> l.remoteRead();
                case LOCAL_SINK -> l.localWrite() && (x.s.readSinkNotRequired() || l.readSink());
            };
            String refused = tg.live() == null ? tg.stale().rule()
                    : !inBounds ? (kind == Kind.LOCAL_SINK ? "SGE-2" : l.fast() ? "MR-FR-10" : "MR-REG-4")
                    : l.fast() ? "MR-FR-12" : (kind == Kind.LOCAL_SINK ? "MR-FR-12" : "MR-REG-8");
            String granted = kind == Kind.LOCAL_SINK ? "MR-TOK-2" : l.fast() ? "MR-FR-9" : "MR-REG-4";
            org.ndktck.tck.harness.Access a;
            byte[] expectRead = null;
            switch (kind) {
                case REMOTE_WRITE -> a = inBounds ? Probes.writeInside(x.s, r, k, n) : Probes.writeAt(x.s, r, r.base() + k, n);
                case REMOTE_READ -> {
                    expectRead = inBounds ? Probes.expectedAt(r, k, n) : null;
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
                throw Violations.of(granted, what, "STATUS_SUCCESS: the model allows this access", a.outcome().describe());
            }
            if (!allowed && a.succeeded()) {
                throw Violations.of(refused, what, "an error: the model forbids this access ("
                        + (tg.live() == null ? "the registration was " + tg.stale().why() : !inBounds ? "out of bounds" : "not permitted by the flags") + ")",
                        "it succeeded");
            }
            if (expectRead != null && a.succeeded() && !Arrays.equals(a.data(), expectRead)) {
                throw Violations.of(granted, what, "the region's bytes " + Hex.bytes(expectRead), "read " + Hex.bytes(a.data()));
            }
            x.s.checkMemory(allowed ? granted : refused, what);
        }
    }

    /** Closes an MR (its registration, if any, ends with it). */
    static final class CloseMr implements Action.Dependent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.mrs.isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer(World w) {
            return PICKS.map(pick -> step("close an MR (pick " + pick + ")", x -> {
                ModelMr m = World.pick(new ArrayList<>(x.mrs.values()), pick);
                if (m == null) {
                    return;
                }
                x.t.closeAndWait(m.mr);
                x.mrs.remove(m.id);
            }));
        }
    }

    @Provide
    Arbitrary<ActionChain<World>> lifecycles() {
        ActionChainArbitrary<World> chains = ActionChain.startWith(() -> new World(SESSION.get()))
                .withAction(3, new CreateMr())
                .withAction(3, new Register())
                .withAction(2, new Deregister())
                .withAction(3, new Initialize())
                .withAction(3, new FastRegister())
                .withAction(2, new Invalidate())
                .withAction(1, new RereadTokens())
                .withAction(6, new Access())
                .withAction(1, new CloseMr());
        // 24 steps at the standard profile, 12 at smoke, 48 at deep (issue 20: deep means longer chains)
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
    @Tag("MR-DEREG-3")
    @Tag("INV-4")
    @Tag("MR-TOK-6")
    void theLifeCycleFollowsTheModel(@ForAll("lifecycles") ActionChain<World> chain) {
        try (NdkSession s = NdkSession.open()) {
            SESSION.set(s);
            World[] end = new World[1];
            try {
                chain.peek(w -> end[0] = w).run();
            } catch (AssertionError e) {
                throw ruleOf(e, chain);
            } finally {
                SESSION.remove();
                if (end[0] != null) {
                    end[0].t.close();
                }
            }
        }
        for (String tr : chain.transformations()) {
            Statistics.label("step").collect(tr.substring(0, tr.indexOf(' ') < 0 ? tr.length() : tr.indexOf(' ')));
        }
    }

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
