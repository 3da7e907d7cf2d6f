package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.NdkSge;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.model.LamModel;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.properties.ModelChainWorld.World;
import org.ndktck.tck.properties.ModelChainWorld.BuiltLam;

import java.util.ArrayList;
import java.util.List;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.properties.ModelChainWorld.MAX_LAMS;
import static org.ndktck.tck.properties.ModelChainWorld.PICKS;
import static org.ndktck.tck.properties.ModelChainWorld.SLOT;
import static org.ndktck.tck.properties.ModelChainWorld.step;

/**
 * The adapter-model chain's LAM and CQ steps ({@link AdapterModelChainProperties}): build and release LAMs in any
 * order, privileged-token reads at live and released LAM addresses, and both CQ getters.
 */
final class ModelChainLamSteps {
    private ModelChainLamSteps() {
    }

    /** NdkBuildLam over a fresh buffer (1 or 2 pages, any FBO), described by one MDL or a chain of two. */
    static final class BuildLam implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && w.lams.live().size() < MAX_LAMS;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.doubles().between(0, 1),
                    Arbitraries.of(false, true)).as((pages, fb, chained) ->
                    step("build a LAM over " + pages + " page(s) (FBO " + String.format("%.3f", fb) + " of a page, "
                            + (chained ? "a chain of two MDLs" : "one MDL") + ")", x -> {
                        int p = x.s.pageSize();
                        int fbo = (int) (fb * (p - 1));
                        var buffer = x.s.allocate(pages);
                        long length = (long) pages * p - fbo;
                        long va = x.t.freshVa() + fbo;
                        org.ndktck.spec.Mdl mdl;
                        if (chained && length >= 2) {
                            // the second MDL starts at the first's page end (two pages) or inside the page (one page)
                            int first = pages == 2 ? p - fbo : (int) (length / 2);
                            mdl = buffer.mdl(va, 0, first);
                            mdl.setNext(buffer.mdl(va + first, pages == 2 ? 1 : 0, (int) (length - first)));
                        } else {
                            mdl = buffer.mdl(va, 0, (int) length);
                        }
                        x.lams.calling(LamModel.LamPhase.LIVE, LamModel.LamCall.BUILD);
                        var lam = x.s.buildLam(mdl, length);
                        x.lams.built(new BuiltLam(buffer, lam, length));
                    }));
        }
    }

    /** NdkReleaseLam of any live LAM (not only the newest). */
    static final class ReleaseLam implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && !w.lams.live().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return PICKS.map(pick -> step("release a LAM (pick " + pick + ")", x -> {
                BuiltLam l = MrModel.pick(x.lams.live(), pick);
                x.lams.calling(LamModel.LamPhase.LIVE, LamModel.LamCall.RELEASE);
                x.t.releaseLam(l.lam().mapping());
                x.lams.released(l);
            }));
        }
    }

    /**
     * The target reads the peer's bytes into an SGE with the PD's privileged token at the first logical address of a
     * live LAM (it must land in the LAM's pages: PRIV-1, on an adapter with RDMA_READ_SINK_NOT_REQUIRED; without it a
     * failure is allowed, PRIV-3) or of a released one (the unspecified mode: it may fail or
     * succeed, but no byte of the released pages changes: SEC-1).
     */
    static final class PrivilegedRead implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return !w.tainted && (!w.lams.live().isEmpty() || !w.lams.released().isEmpty());
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Combinators.combine(PICKS, Arbitraries.integers().between(1, SLOT)).as((pick, nSeed) ->
                    step("a privileged-token read into a live or released LAM (pick " + pick + ", " + nSeed + " byte(s))", x -> {
                        List<BuiltLam> all = new ArrayList<>(x.lams.live());
                        all.addAll(x.lams.released());
                        BuiltLam l = MrModel.pick(all, pick);
                        boolean live = x.lams.live().contains(l);
                        x.lams.calling(live ? LamModel.LamPhase.LIVE : LamModel.LamPhase.RELEASED, LamModel.LamCall.PRIVILEGED_ACCESS);
                        if (x.privilegedToken == 0) {
                            x.privilegedToken = x.t.privilegedToken(x.s.target().pd());
                        }
                        int n = (int) Math.min(nSeed, Math.min(l.length(), x.s.pageSize() - l.lam().fbo()));
                        byte[] data = SessionTools.complement(x.remote.buffer().expected(0, n));
                        x.remote.buffer().put(0, data);
                        long address = l.lam().pages()[0] + l.lam().fbo();
                        WrOutcome o = x.t.complete(x.t.read(x.t.target(), new NdkSge[]{new NdkSge(address, n, x.privilegedToken)},
                                x.remote.va(), x.remote.remoteToken(), 0));
                        String what = o.call() + " into " + (live ? "a live" : "a released") + " LAM's address with the privileged token " + u32(x.privilegedToken);
                        // an NdkRead's sink at a LAM address needs RDMA_READ_SINK_NOT_REQUIRED (PRIV-3): without it the read
                        // may fail, and only a success is judged
                        if (live && !o.succeeded() && x.s.readSinkNotRequired()) {
                            throw Violations.of("PRIV-1", what, "STATUS_SUCCESS: the privileged token reaches a live LAM's pages", o.describe());
                        }
                        if (live && o.succeeded()) {
                            l.buffer().expectWrite(l.lam().fbo(), data);
                        }
                        x.s.checkMemory(live ? "PRIV-1" : "SEC-1", what);
                    }));
        }
    }

    /** Both CQ getters on the session's target CQ: with nothing outstanding the model allows no entry. */
    static final class PollCq implements Action.Independent<World> {
        @Override
        public boolean precondition(World w) {
            return true;
        }

        @Override
        public Arbitrary<Transformer<World>> transformer() {
            return Arbitraries.of(true, false).map(ex -> step("poll the target's CQ with " + (ex ? "NdkGetCqResultsEx" : "NdkGetCqResults"), x -> {
                x.coverage.count(CqState.OPEN, ex ? CqCall.GET_RESULTS_EX : CqCall.GET_RESULTS);
                if (ex) {
                    x.s.drain(x.s.target().cq());
                } else {
                    x.s.drainPlain(x.s.target().cq());
                }
            }));
        }
    }

    /** The two CQ getters, as counted in the coverage. */
    enum CqCall {
        /** NdkGetCqResults. */
        GET_RESULTS,
        /** NdkGetCqResultsEx. */
        GET_RESULTS_EX
    }

    /** The CQ's state as counted in the coverage (the chain polls only an open CQ: CL-3). */
    enum CqState {
        /** Open. */
        OPEN
    }

}
