package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.model.FastPages;
import org.ndktck.tck.model.Grant;
import org.ndktck.tck.model.ModelMr;
import org.ndktck.tck.model.MrCall;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.MrPhase;
import org.ndktck.tck.harness.Lam;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.properties.OneAdapterChainWorld.World;
import org.ndktck.tck.properties.OneAdapterChainWorld.Conn;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.properties.OneAdapterChainWorld.MAX_MRS;
import static org.ndktck.tck.properties.OneAdapterChainWorld.PICKS;
import static org.ndktck.tck.properties.OneAdapterChainWorld.step;

/**
 * The steps of the one-adapter chain ({@link OneAdapterChainProperties}) that change an MR's state on the target's PD:
 * create (normal or fast-register), register over a scattered buffer of 1 to 3 pages, deregister, initialize for fast
 * registration, fast-register and invalidate on any connection's target QP, re-read the tokens, close. Each step checks
 * the call's status against the {@link MrModel} and records the new state there. Errors: a {@link
 * RuleViolation} naming the rule the outcome breaks (MR-DEREG-2, MR-FRI-2, INV-3, MR-TOK-5, and the
 * registration checks of {@link SectionChecks#requireRegistered}); an allowed refusal (STATUS_INSUFFICIENT_RESOURCES)
 * ends the step instead. Sizes are bytes; Flags are the NDK_MR_FLAG_* / NDK_OP_FLAG_* bits in a Java int.
 */
final class OneAdapterChainMrSteps {
    private OneAdapterChainMrSteps() {
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
}
