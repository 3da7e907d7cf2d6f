package org.ndktck.tck.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.model.History;

import java.util.SplittableRandom;

/**
 * The model's calls from several kit threads at once on ONE adapter, checked for linearizability against the
 * kit's model ({@link org.ndktck.tck.model.SharedAdapterSpec}, {@link org.ndktck.tck.model.Linearizability}): the
 * recorded history of every round must be explained by some sequential order of its calls that respects real-time
 * order and whose every outcome the model allows.
 *
 * <p><b>What runs at once</b> (the pages let every MR, work-request and CQ function be called at up to
 * DISPATCH_LEVEL from any processor; the kit keeps the consumer obligations: no two kit threads post on one QP or
 * poll one CQ at once (CQ-4), no MR is deregistered twice or used before its registration completed (MR-TOK-3)):
 * NdkRegisterMr of new MRs and NdkDeregisterMr of registered ones on one PD; peer NdkRead bursts through the
 * remote tokens of registered MRs, including one another thread is deregistering; NdkSend from several QPs into
 * receives of QPs that share ONE receive CQ, polled after the round.
 *
 * <p><b>Shape.</b> Each try draws 2 to 4 threads (standard profile) and a seed; the seed gives each thread a list of
 * call kinds (one per step, 2 to 3 steps) and the delays of a {@link org.ndktck.tck.harness.Schedule} (a spinning
 * start barrier before every step, seeded spins and yields). The same shape then runs for several rounds in the
 * try ({@link ConcurrentModelRounds#rounds}: 6 at standard), each round on the MRs the earlier ones left, so a race
 * a few microseconds wide gets many chances per try. Each round's history is checked on its own, starting from
 * the state the previous round's order ended in.
 *
 * <p><b>Failure.</b> The violation names the rule the model charges for the call that no allowed order could
 * explain (MR-TOK-6, MR-DEREG-3, CQ-6, or the rule of a refused call), and prints the round's history as calls
 * with their arguments and outcomes, and the longest order the model allowed. A replay makes the same tries with
 * the same shapes and rounds; whether the same race is met again depends on the machine's scheduling.
 */
@NdkKit
public class ConcurrentModelProperties {
    /** @return kit threads: 2 to 4 at the standard profile (2 at smoke, up to 8 at deep) */
    @Provide
    Arbitrary<Integer> threads() {
        return Arbitraries.integers().between(2, Math.max(2, TckConfig.current().profile().size(4)));
    }

    /** @return the shape seed: each thread's call kinds and the schedule's delays */
    @Provide
    Arbitrary<Long> shapeSeeds() {
        return Arbitraries.longs();
    }

    /**
     * MR-TOK-6, MR-DEREG-3, CQ-6, MR-REG-4: several kit threads register and deregister MRs of one PD, read through their
     * tokens at the peer, and send into receives on QPs sharing one CQ, at once; every round's history must be
     * linearizable against the model. Six tries of six rounds at the standard profile (about 0.6 s of runner time on
     * 2 cores: BENCHMARKS.md); 60 tries at deep.
     */
    @Property(tries = 6, generation = GenerationMode.RANDOMIZED)
    @Tag("MR-TOK-6")
    @Tag("MR-DEREG-3")
    @Tag("CQ-6")
    @Tag("MR-REG-4")
    void concurrentHistoriesLinearizeAgainstTheModel(@ForAll("threads") int threads, @ForAll("shapeSeeds") long seed) {
        History.Kind[][] shape = ConcurrentModelRounds.shape(threads, new SplittableRandom(seed));
        NdkSession.inTry(s -> {
            try (SessionTools t = SessionTools.of(s)) {
                new ConcurrentModelRounds(s, t, shape, seed).run();
            }
        });
    }
}
