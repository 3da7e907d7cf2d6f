package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.model.AccessKind;
import org.ndktck.tck.model.FastPages;
import org.ndktck.tck.model.Grant;
import org.ndktck.tck.model.Judgement;
import org.ndktck.tck.model.ModelMr;
import org.ndktck.tck.model.MrCall;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.MrPhase;
import org.ndktck.tck.model.Revoked;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static org.ndktck.tck.harness.Hex.bytes;
import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

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

    /** The most MRs the model holds at once. */
    static final int MAX_MRS = 8;
    /** The most bad remote invalidations of one chain (each takes a fresh connection). */
    static final int MAX_BAD_INVALIDATIONS = 2;
    /** Steps of one chain. */
    static final int STEPS = 32;

    /**
     * A connection: a target-side QP of the target's PD and a peer-side QP of the peer's PD, with a peer buffer
     * (the source of writes and sends, the sink of reads) and a target inbox (the sink of receives).
     */
    static final class Conn {
        final String name;
        final QpRef target;
        final QpRef peer;
        final Registered scratch;
        final Registered inbox;

        Conn(String name, QpRef target, QpRef peer, Registered scratch,
             Registered inbox) {
            this.name = name;
            this.target = target;
            this.peer = peer;
            this.scratch = scratch;
            this.inbox = inbox;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The state of a chain: the session, its connections and the kit's model of the MRs. */
    static final class World {
        final NdkSession s;
        final SessionTools t;
        final List<Conn> conns = new ArrayList<>();
        final MrModel model = new MrModel();
        /** Registrations of the chain's own buffers (scratch, inboxes): live all through, tokens unique too. */
        final List<Registered> fixtures = new ArrayList<>();
        /** A peer region with remote write: where the target writes a registration's bytes through its local token. */
        final Registered landing;
        int badInvalidations;

        World(NdkSession s) {
            this.s = s;
            this.t = SessionTools.of(s);
            s.qps();
            conns.add(connection("the session's connection", t.target(), t.peer()));
            QpRef[] pair = t.connectedPair(0);
            conns.add(connection("a second connection", pair[0], pair[1]));
            landing = fixture(t.registered(s.peer(), 1, 0, s.pageSize(), NdkMrFlags.ALLOW_LOCAL_WRITE | NdkMrFlags.ALLOW_REMOTE_WRITE));
        }

        Conn connection(String name, QpRef target, QpRef peer) {
            int p = s.pageSize();
            Registered scratch = fixture(t.registered(s.peer(), 2, 0, 2L * p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag()));
            Registered inbox = fixture(t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE));
            return new Conn(name, target, peer, scratch, inbox);
        }

        private Registered fixture(Registered r) {
            fixtures.add(r);
            if (r.side() == s.target()) {
                // the model's MRs are the target PD's: a token is scoped by the PD of the QP it is used through, so
                // only a fixture of that PD must not share a value with them (one of the peer's PD may: MR-TOK-6)
                model.foreign(r.remoteToken(), "the chain's own registration " + r.region());
            }
            return r;
        }
    }

    // ------------------------------------------------------------------ steps

    /** The choice of a step among the objects eligible when it runs. */
    private static final Arbitrary<Integer> PICKS = Arbitraries.integers().between(0, 15);

    /**
     * A step: its body runs in one batch of provider calls; an allowed refusal ends it ({@code refused} then puts the
     * model right).
     */
    private static Transformer<World> step(String description, Consumer<World> body, Consumer<World> refused) {
        return Transformer.mutate(description, w -> w.s.invoker().batch("a step of the one-adapter chain", () -> {
            if (!Refusals.stepUnlessRefused(() -> body.accept(w))) {
                refused.accept(w);
            }
            return null;
        }));
    }

    private static Transformer<World> step(String description, Consumer<World> body) {
        return step(description, body, w -> {
        });
    }

    /** Creates a normal or a fast-register MR on the target's PD. */
    static final class CreateMr implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return w.model.all().size() < MAX_MRS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.of(false, true, true).map(fast -> step("create a " + (fast ? "fast-register" : "normal") + " MR", w -> {
                NdkMr mr = w.t.createMrUnlessRefused(w.s.target().pd(), fast);
                if (mr != null) {
                    w.model.created(mr, fast);
                }
            }));
        }
    }

    /** Registers a new normal MR over a (usually scattered) buffer. */
    static final class Register implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.REGISTER).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, 3), Arbitraries.doubles().between(0, 1),
                    Arbitraries.doubles().between(0, 1), Arbitraries.of(0x2, 0x3, 0x5, 0x7, 0xB, 0xF, 0x1)).as((pick, pages, of, f, flags) -> {
                        return step("register a normal MR (pick " + pick + ", " + pages + " page(s), offset " + String.format("%.3f", of)
                                + " of a page, Length " + String.format("%.3f", f) + " of the room, Flags " + u32(flags) + ")", x -> {
                            int p = x.s.pageSize();
                            int off = (int) (of * (p - 1));
                            long length = Math.max(1, (long) (f * ((long) pages * p - off)));
                            ModelMr m = MrModel.pick(x.model.eligible(MrCall.REGISTER), pick);
                            x.model.calling(m, MrCall.REGISTER);
                            HostBuffer b = x.s.allocate(pages);
                            Mdl mdl = b.mdl(x.t.freshVa() + off, 0, (int) length);
                            Outcome o = x.s.register(m.mr(), mdl, length, flags);
                            if (Refusals.isAllowedRefusal(o.status())) {
                                return; // the MR stays new
                            }
                            SectionChecks.requireRegistered(x.s, o);
                            int token = x.s.remoteToken(m.mr());
                            x.model.registered(m, new Grant(new Region(b, off, mdl.virtualAddress(), length, token), x.s.localToken(m.mr()),
                                    (flags & NdkMrFlags.ALLOW_REMOTE_READ) != 0, NdkMrFlags.allowsRemoteWrite(flags),
                                    (flags & NdkMrFlags.ALLOW_LOCAL_WRITE) != 0, false, false, o.call()));
                        });
                    });
        }
    }

    /** Deregisters a registered MR. */
    static final class Deregister implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.DEREGISTER).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("deregister a registered MR (pick " + pick + ")", x -> {
                ModelMr m = MrModel.pick(x.model.eligible(MrCall.DEREGISTER), pick);
                x.model.calling(m, MrCall.DEREGISTER);
                Outcome o = x.s.deregister(m.mr());
                if (Refusals.isAllowedRefusal(o.status())) {
                    x.model.unsettle(m); // MR-DEREG-2's other status codes: whether it still grants is not known
                    return;
                }
                if (!o.succeeded()) {
                    throw Violations.of("MR-DEREG-2", o.call() + " of " + m, "STATUS_SUCCESS for a registered MR", o.describe());
                }
                x.model.deregistered(m);
            }));
        }
    }

    /** Initializes a new fast-register MR, with its buffer and LAM. */
    static final class Initialize implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.INITIALIZE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, 3), Arbitraries.of(true, true, true, false))
                    .as((pick, pages, remote) -> {
                        ModelMr[] chosen = new ModelMr[1];
                        return step("initialize a fast-register MR (pick " + pick + ", " + pages + " page(s), RemoteAccess "
                            + remote + ")", x -> {
                        ModelMr m = MrModel.pick(x.model.eligible(MrCall.INITIALIZE), pick);
                        chosen[0] = m;
                        x.model.calling(m, MrCall.INITIALIZE);
                        int p = x.s.pageSize();
                        Outcome o = x.s.initializeFastRegister(m.mr(), pages, remote);
                        if (Refusals.isAllowedRefusal(o.status())) {
                            return; // the MR stays new
                        }
                        if (!o.succeeded()) {
                            throw Violations.of("MR-FRI-2", o.call() + " of " + m, "STATUS_SUCCESS for AdapterPageCount up to FRMRPageCount",
                                    o.describe());
                        }
                        HostBuffer buffer = x.s.allocate(pages);
                        Lam lam = x.s.buildLam(buffer.mdl(x.t.freshVa(), 0, pages * p), (long) pages * p);
                        x.model.initialized(m, new FastPages(buffer, lam, pages, remote));
                    }, x -> {
                        // the LAM was refused: the MR is initialized but has no pages to register
                        if (chosen[0] != null && chosen[0].phase() == MrPhase.NEW) {
                            x.model.unsettle(chosen[0]);
                        }
                    });
                    });
        }
    }

    /** Fast-registers an initialized (or invalidated) MR on the target QP of any connection. */
    static final class FastRegister implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.FAST_REGISTER).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, PICKS, Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1),
                    Arbitraries.of(0x38, 0x08, 0x30, 0x18, 0x10)).as((pick, via, fb, f, flagSeed) -> {
                        ModelMr[] chosen = new ModelMr[1];
                        return step("fast-register an initialized MR (pick " + pick + ", on connection " + via + ", FBO " + String.format("%.3f", fb)
                                + " of a page, Length " + String.format("%.3f", f) + " of the room, Flags " + u32(flagSeed)
                                + " without the remote bits when RemoteAccess is FALSE)", x -> {
                            int p = x.s.pageSize();
                            int fbo = (int) (fb * (p - 1));
                            ModelMr m = MrModel.pick(x.model.eligible(MrCall.FAST_REGISTER), pick);
                            chosen[0] = m;
                            x.model.calling(m, MrCall.FAST_REGISTER);
                            FastPages fp = m.pages();
                            Conn c = MrModel.pick(x.conns, via);
                            int flags = fp.remoteAccess() ? flagSeed : flagSeed & NdkOpFlags.ALLOW_LOCAL_WRITE;
                            int withSink = flags | ((flags & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0 ? x.t.readSinkOpFlag() : 0);
                            long length = Math.max(1, (long) (f * ((long) fp.pages() * p - fbo)));
                            long base = x.t.freshVa() + fbo;
                            WorkRequest wr = x.t.fastRegister(c.target, m.mr(), fp.pages(), fp.lam().pages(), fbo, length, base, withSink);
                            WrOutcome o = x.t.complete(wr);
                            if (!o.succeeded()) {
                                throw Violations.of("MR-FRI-2", o.call() + " of " + m + " on " + c, "STATUS_SUCCESS for a valid fast registration",
                                        o.describe());
                            }
                            int token = x.s.remoteToken(m.mr());
                            x.model.fastRegistered(m, new Grant(new Region(fp.buffer(), fbo, base, length, token), x.s.localToken(m.mr()),
                                    (withSink & NdkOpFlags.ALLOW_REMOTE_READ) != 0, NdkOpFlags.allowsRemoteWrite(withSink),
                                    (withSink & NdkOpFlags.ALLOW_LOCAL_WRITE) != 0, (withSink & 0x80) != 0, true, o.call() + " on " + c));
                        }, x -> {
                            if (chosen[0] != null) {
                                x.model.unsettle(chosen[0]);
                            }
                        });
                    });
        }
    }

    /** Invalidates a fast-registered MR with NdkInvalidate on the target QP of any connection. */
    static final class Invalidate implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.INVALIDATE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, PICKS).as((pick, via) -> {
                ModelMr[] chosen = new ModelMr[1];
                return step("invalidate a fast-registered MR (pick " + pick + ", on connection " + via + ")", x -> {
                    ModelMr m = MrModel.pick(x.model.eligible(MrCall.INVALIDATE), pick);
                    chosen[0] = m;
                    x.model.calling(m, MrCall.INVALIDATE);
                    Conn c = MrModel.pick(x.conns, via);
                    WrOutcome o = x.t.complete(x.t.invalidate(c.target, m.mr(), 0));
                    if (!o.succeeded()) {
                        throw Violations.of("INV-3", o.call() + " of " + m + " on " + c, "STATUS_SUCCESS for a fast-registered MR", o.describe());
                    }
                    x.model.invalidated(m, "invalidated with NdkInvalidate");
                }, x -> {
                    if (chosen[0] != null) {
                        x.model.unsettle(chosen[0]);
                    }
                });
            });
        }
    }

    /** Re-reads the tokens of a live registration (MR-TOK-5). */
    static final class RereadTokens implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.READ_TOKENS).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("re-read the tokens of a live registration (pick " + pick + ")", x -> {
                ModelMr m = MrModel.pick(x.model.eligible(MrCall.READ_TOKENS), pick);
                x.model.calling(m, MrCall.READ_TOKENS);
                Grant g = m.grant();
                int remote = x.s.remoteToken(m.mr());
                int local = x.s.localToken(m.mr());
                if (remote != g.remoteToken() || local != g.localToken()) {
                    throw Violations.of("MR-TOK-5", "NdkGetRemoteTokenFromMr() / NdkGetLocalTokenFromMr() of " + m + " after " + g.what(),
                            "the values read when the registration completed: " + u32(g.remoteToken()) + " / "
                                    + u32(g.localToken()), u32(remote) + " / " + u32(local));
                }
            }));
        }
    }

    /** A peer write or read from any connection through a live or stale registration, inside or past it. */
    static final class RemoteAccess implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.lives().isEmpty() || !w.model.revoked().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, PICKS, Arbitraries.of(true, false), Arbitraries.doubles().between(0, 1),
                    Arbitraries.integers().between(1, 32), Arbitraries.of(false, false, false, true)).as((pick, via, write, kf, nSeed, past) ->
                    step("a peer " + (write ? "write" : "read") + " through a live or stale registration (pick " + pick + ", connection " + via
                            + ", " + nSeed + " byte(s)" + (past ? ", reaching past its end" : "") + ")", x -> {
                        List<Object> targets = new ArrayList<>(x.model.lives());
                        targets.addAll(x.model.revoked());
                        access(x, MrModel.pick(x.conns, via), MrModel.pick(targets, pick), write, kf, nSeed, past);
                    }, OneAdapterChainProperties::forgetBytes));
        }
    }

    /** After a refused access: whatever is in memory now is what the kit expects (a refused request judges nothing). */
    private static void forgetBytes(World x) {
        for (ModelMr m : x.model.lives()) {
            HostBuffer b = m.grant().region().buffer();
            b.acceptActual(0, (int) Math.min(Integer.MAX_VALUE, b.size()));
        }
        for (Revoked st : x.model.revoked()) {
            HostBuffer b = st.grant().region().buffer();
            b.acceptActual(0, (int) Math.min(Integer.MAX_VALUE, b.size()));
        }
        for (Registered f : x.fixtures) {
            f.buffer().acceptActual(0, (int) f.buffer().size());
        }
    }

    private static void access(World x, Conn c, Object tg, boolean write, double kf, int nSeed, boolean past) {
        ModelMr owner = tg instanceof ModelMr mm ? mm : null;
        Grant l = owner != null ? owner.grant() : ((Revoked) tg).grant();
        Revoked stale = owner == null ? (Revoked) tg : null;
        Region r = l.region();
        int n = (int) Math.min(nSeed, Math.max(1, r.length()));
        long k = past ? r.length() - n + 1 : (long) (kf * (r.length() - n));
        Judgement j = Judgement.of(l, stale, write ? AccessKind.REMOTE_WRITE : AccessKind.REMOTE_READ, k, n, x.s.readSinkNotRequired(),
                c != x.conns.get(0));
        boolean allowed = j.allowed();
        String refused = j.refusedRule();
        String granted = j.grantedRule();
        int p = x.s.pageSize();
        long scratchOffset = p - n / 2; // the peer's side of the access crosses a page boundary of its buffer
        long bufferOffset = r.bufferOffset() + k;
        boolean landsInBuffer = Long.compareUnsigned(bufferOffset, r.buffer().size() - n) <= 0;
        byte[] data = landsInBuffer ? SessionTools.complement(r.buffer().expected(bufferOffset, n)) : filled(n);
        WrOutcome o;
        byte[] read = null;
        if (write) {
            c.scratch.buffer().put(scratchOffset, data);
            o = x.t.complete(x.t.write(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base() + k, r.remoteToken(), 0));
            if (o.succeeded() && allowed) {
                r.buffer().expectWrite(bufferOffset, data);
            }
        } else {
            o = x.t.complete(x.t.read(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base() + k, r.remoteToken(), 0));
            read = c.scratch.buffer().read(scratchOffset, n);
            c.scratch.buffer().acceptActual(scratchOffset, n);
        }
        String what = o.call() + " (" + (write ? "write" : "read") + " of " + n + " byte(s) at region byte " + u64(k) + " of "
                + (stale == null ? "live " : "stale (" + stale.why() + ") ") + r + " from " + c + ", made by " + l.what() + ")";
        if (allowed && !o.succeeded()) {
            throw Violations.of(granted, what, "STATUS_SUCCESS: the model allows this access", o.describe());
        }
        if (!allowed && o.succeeded()) {
            throw Violations.of(refused, what, "an error: the model forbids this access (" + j.why() + ")", "it succeeded");
        }
        if (!write && allowed) {
            byte[] expected = r.buffer().expected(bufferOffset, n);
            if (!Arrays.equals(read, expected)) {
                throw Violations.of(granted, what, "the region's bytes " + bytes(expected), "read " + bytes(read));
            }
        }
        x.s.checkMemory(allowed ? granted : refused, what);
    }

    private static byte[] filled(int n) {
        byte[] d = new byte[n];
        Arrays.fill(d, (byte) 0x5A);
        return d;
    }

    /** @return the fast registrations a remote invalidation may name: initialized with RemoteAccess, granting remote access */
    private static List<ModelMr> remotelyInvalidable(World w) {
        return w.model.where(m -> MrCall.REMOTE_INVALIDATE.allowedIn(m.phase(), m.fast()) && m.pages().remoteAccess()
                && (m.grant().remoteRead() || m.grant().remoteWrite()));
    }

    /**
     * The peer sends with NdkSendAndInvalidate naming a live fast registration (on a connection other than the
     * session's): it, and nothing else, ends. When the provider fails the invalidation, that is INV-5's and CQ-3's to
     * judge: the MR and the connection leave the model.
     */
    static final class RemoteInvalidate implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return w.conns.size() > 1 && !remotelyInvalidable(w).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, PICKS, Arbitraries.integers().between(1, 32)).as((pick, via, n) -> {
                ModelMr[] chosen = new ModelMr[1];
                return step("remote invalidation of a fast-registered MR (pick " + pick + ", connection " + via + ", " + n + " byte(s))", x -> {
                    ModelMr m = MrModel.pick(remotelyInvalidable(x), pick);
                    chosen[0] = m;
                    x.model.calling(m, MrCall.REMOTE_INVALIDATE);
                    Conn c = MrModel.pick(x.conns.subList(1, x.conns.size()), via);
                    int token = m.grant().remoteToken();
                    // c leaves the model while its receive is posted: a step that ends at a refused send (an allowed
                    // refusal) leaves that receive posted, and a later send on c would land in it
                    int at = x.conns.indexOf(c);
                    x.conns.remove(c);
                    WorkRequest recv = x.t.receive(c.target, new NdkSge[]{c.inbox.sge(0, n)}, NdkOperationType.RECEIVE_AND_INVALIDATE);
                    WrOutcome so = x.t.complete(x.t.sendAndInvalidate(c.peer, new NdkSge[]{c.scratch.sge(0, n)}, token, 0));
                    WrOutcome ro = x.t.complete(recv);
                    c.inbox.buffer().acceptActual(0, n);
                    if (!so.succeeded() || !ro.succeeded()) {
                        // the invalidation's own completion is INV-5's and CQ-3's to judge: whether it took effect is not
                        // known, and the receiver may have aborted the connection (INV-6)
                        x.model.unsettle(m);
                        return;
                    }
                    x.conns.add(at, c);
                    String after = " after the peer's " + so.call() + " on " + c + " naming " + m + " (" + m.grant().what() + ")";
                    x.model.invalidated(m, "invalidated remotely");
                    othersStillWork(x, after);
                }, x -> {
                    if (chosen[0] != null) {
                        x.model.unsettle(chosen[0]);
                    }
                });
            });
        }
    }

    /** The kinds of bad token a remote invalidation may carry (COV-3). */
    enum BadToken {
        /** A value no registration of the chain ever had. */
        NEVER_ISSUED,
        /** The remote token of a deregistered or invalidated registration. */
        STALE,
        /** The local token of a live registration, where it differs from every live remote token. */
        LOCAL,
        /** The remote token of a registration of the peer's PD. */
        PEER_PD
    }

    /**
     * On a fresh connection of its own, the peer sends with NdkSendAndInvalidate naming a token that names no live
     * registration of the target's PD: nothing is invalidated (COV-3). The send, the receive and the connection's
     * fate are not judged.
     */
    static final class BadRemoteInvalidate implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return w.badInvalidations < MAX_BAD_INVALIDATIONS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(Arbitraries.of(BadToken.STALE, BadToken.STALE, BadToken.NEVER_ISSUED, BadToken.LOCAL, BadToken.PEER_PD),
                    PICKS, Arbitraries.integers()).as((bad, pick, seed) -> step("remote invalidation with a bad token (" + bad + ", pick "
                            + pick + ")", x -> {
                        Integer token = badToken(x, bad, pick, seed);
                        if (token == null) {
                            // no such token now (no ended registration, no live one, or it names a live registration
                            // again): a token never issued is always at hand, so the step still makes its call
                            token = badToken(x, BadToken.NEVER_ISSUED, pick, seed);
                        }
                        x.badInvalidations++;
                        QpRef[] pair = x.t.connectedPair(0);
                        Conn c = x.connection("a connection of its own (" + (x.badInvalidations) + ")", pair[0], pair[1]);
                        int n = 8;
                        WorkRequest recv = x.t.receive(c.target, new NdkSge[]{c.inbox.sge(0, n)}, NdkOperationType.RECEIVE_AND_INVALIDATE)
                                .acceptEitherReceiveType();
                        WrOutcome so = x.t.complete(x.t.sendAndInvalidate(c.peer, new NdkSge[]{c.scratch.sge(0, n)}, token, 0));
                        boolean refusedInline = !org.ndktck.spec.NtStatus.STATUS_SUCCESS.equals(so.returned());
                        String ro = refusedInline && recv.entry() == null ? "not completed" : x.t.complete(recv).describe();
                        c.inbox.buffer().acceptActual(0, n);
                        othersStillWork(x, " after the peer's " + so.call() + " with a " + bad + " token " + u32(token) + " on " + c
                                + " (send: " + so.describe() + "; receive: " + ro + ")");
                    }, OneAdapterChainProperties::forgetBytes));
        }

        private static Integer badToken(World x, BadToken bad, int pick, int seed) {
            List<Integer> liveRemote = new ArrayList<>();
            x.model.lives().forEach(m -> liveRemote.add(m.grant().remoteToken()));
            x.fixtures.stream().filter(f -> f.side() == x.s.target()).forEach(f -> liveRemote.add(f.remoteToken()));
            Integer token = switch (bad) {
                case NEVER_ISSUED -> {
                    List<Integer> known = new ArrayList<>(liveRemote);
                    x.model.revoked().forEach(st -> known.add(st.grant().remoteToken()));
                    x.model.lives().forEach(m -> known.add(m.grant().localToken()));
                    x.fixtures.forEach(f -> {
                        known.add(f.remoteToken());
                        known.add(f.localToken());
                    });
                    int v = 0x5EED_0000 ^ seed * 0x9E3779B1;
                    while (v == 0 || known.contains(v)) {
                        v = v * 31 + 11;
                    }
                    yield v;
                }
                case STALE -> {
                    yield x.model.revoked().isEmpty() ? null : MrModel.pick(x.model.revoked(), pick).grant().remoteToken();
                }
                case LOCAL -> {
                    yield x.model.lives().isEmpty() ? null : MrModel.pick(x.model.lives(), pick).grant().localToken();
                }
                case PEER_PD -> x.conns.get(0).scratch.remoteToken();
            };
            // a token that a live registration of the target's PD holds now names it: not a bad token
            return token == null || liveRemote.contains(token) ? null : token;
        }
    }

    /**
     * COV-3: after a remote invalidation every live registration still takes a peer write and a read (as its
     * flags allow) with its token through the session's connection, with the right bytes.
     */
    private static void othersStillWork(World x, String after) {
        Conn c = x.conns.get(0);
        int p = x.s.pageSize();
        for (ModelMr m : x.model.lives()) {
            Grant l = m.grant();
            Region r = l.region();
            int n = (int) Math.min(8, r.length());
            long scratchOffset = p - n / 2;
            if (l.remoteWrite()) {
                byte[] data = SessionTools.complement(r.buffer().expected(r.bufferOffset(), n));
                c.scratch.buffer().put(scratchOffset, data);
                WrOutcome o = x.t.complete(x.t.write(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base(),
                        r.remoteToken(), 0));
                if (!o.succeeded()) {
                    throw Violations.of("COV-3", o.call() + " into " + m + " (" + l.what() + ") with its token " + u32(r.remoteToken()) + after,
                            "STATUS_SUCCESS: a remote invalidation ends only the registration its token names", o.describe());
                }
                r.buffer().expectWrite(r.bufferOffset(), data);
            }
            if (!l.remoteWrite() && !l.remoteRead()) {
                // no remote rights: the target writes its first bytes to the peer through its local token
                WrOutcome o = x.t.complete(x.t.write(c.target, new NdkSge[]{new NdkSge(r.base(), n, l.localToken())},
                        x.landing.va(), x.landing.remoteToken(), 0));
                byte[] landed = x.landing.buffer().read(0, n);
                x.landing.buffer().acceptActual(0, n);
                byte[] expected = r.buffer().expected(r.bufferOffset(), n);
                if (!o.succeeded() || !Arrays.equals(landed, expected)) {
                    throw Violations.of("COV-3", o.call() + " from " + m + " (" + l.what() + ") with its local token " + u32(l.localToken()) + after,
                            "STATUS_SUCCESS and " + bytes(expected) + " at the peer: a remote invalidation ends only the registration its token names",
                            o.describe() + (o.succeeded() ? ", landed " + bytes(landed) : ""));
                }
            }
            if (l.remoteRead()) {
                WrOutcome o = x.t.complete(x.t.read(c.peer, new NdkSge[]{c.scratch.sge(scratchOffset, n)}, r.base(),
                        r.remoteToken(), 0));
                byte[] read = c.scratch.buffer().read(scratchOffset, n);
                c.scratch.buffer().acceptActual(scratchOffset, n);
                byte[] expected = r.buffer().expected(r.bufferOffset(), n);
                if (!o.succeeded() || !Arrays.equals(read, expected)) {
                    throw Violations.of("COV-3", o.call() + " of " + m + " (" + l.what() + ") with its token " + u32(r.remoteToken()) + after,
                            "STATUS_SUCCESS and " + bytes(expected) + ": a remote invalidation ends only the registration its token names",
                            o.describe() + (o.succeeded() ? ", read " + bytes(read) : ""));
                }
            }
        }
        x.s.checkMemory("COV-3", "accesses of the live registrations" + after);
    }

    /** Closes an MR (its registration, if any, ends with it). */
    static final class CloseMr implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.model.eligible(MrCall.CLOSE).isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("close an MR (pick " + pick + ")", x -> {
                ModelMr m = MrModel.pick(x.model.eligible(MrCall.CLOSE), pick);
                x.model.calling(m, MrCall.CLOSE);
                x.t.closeAndWait(m.mr());
                x.model.closed(m);
            }));
        }
    }

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
