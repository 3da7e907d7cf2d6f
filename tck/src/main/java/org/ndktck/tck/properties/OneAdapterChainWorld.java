package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.state.Transformer;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.model.ModelMr;
import org.ndktck.tck.model.MrModel;
import org.ndktck.tck.model.Revoked;
import org.ndktck.tck.harness.QpRef;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.SessionTools;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;


/**
 * The state of one one-adapter chain ({@link OneAdapterChainProperties}): its connections (each a target-side QP of
 * the target's PD and a peer-side QP of the peer's PD, with a peer scratch buffer and a target inbox), the kit's
 * {@link MrModel} of the chain's MRs, the chain's own registrations, and how a step runs (one batch of provider calls;
 * an allowed refusal ends the step, and the step's {@code refused} action puts the model right, as
 * {@link Refusals#stepUnlessRefused} describes). Sizes and offsets are bytes; tokens are the provider's 32-bit values
 * carried in a Java int (unsigned: compare them for equality only). Rules: those of {@link OneAdapterChainProperties}.
 */
final class OneAdapterChainWorld {
    private OneAdapterChainWorld() {
    }

    /** The most MRs the model holds at once. */
    static final int MAX_MRS = 8;
    /** The most bad remote invalidations of one chain (each takes a fresh connection). */
    static final int MAX_BAD_INVALIDATIONS = 2;

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

    /** The choice of a step among the objects eligible when it runs. */
    static final Arbitrary<Integer> PICKS = Arbitraries.integers().between(0, 15);

    /**
     * A step: its body runs in one batch of provider calls; an allowed refusal ends it ({@code refused} then puts the
     * model right).
     */
    static Transformer<World> step(String description, Consumer<World> body, Consumer<World> refused) {
        return Transformer.mutate(description, w -> w.s.invoker().batch("a step of the one-adapter chain", () -> {
            if (!Refusals.stepUnlessRefused(() -> body.accept(w))) {
                refused.accept(w);
            }
            return null;
        }));
    }

    static Transformer<World> step(String description, Consumer<World> body) {
        return step(description, body, w -> {
        });
    }

    /** After a refused access: whatever is in memory now is what the kit expects (a refused request judges nothing). */
    static void forgetBytes(World x) {
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
}
