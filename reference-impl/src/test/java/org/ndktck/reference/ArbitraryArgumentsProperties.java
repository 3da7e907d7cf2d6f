package org.ndktck.reference;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Assertions;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.spec.RequestCompletion;
import org.ndktck.reference.ArbitraryArgumentsWorld.World;
import org.ndktck.reference.ArbitraryArgumentsActions.Action;
import org.ndktck.reference.ArbitraryArgumentsActions.Register;
import org.ndktck.reference.ArbitraryArgumentsActions.Deregister;
import org.ndktck.reference.ArbitraryArgumentsActions.Initialize;
import org.ndktck.reference.ArbitraryArgumentsActions.FastRegister;
import org.ndktck.reference.ArbitraryArgumentsActions.Invalidate;
import org.ndktck.reference.ArbitraryArgumentsActions.Rdma;
import org.ndktck.reference.ArbitraryArgumentsActions.LocalSges;
import org.ndktck.reference.ArbitraryArgumentsActions.BuildLam;
import org.ndktck.reference.ArbitraryArgumentsActions.Misc;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.ndktck.reference.ArbitraryArgumentsWorld.LAM_PAGES;
import static org.ndktck.reference.ArbitraryArgumentsWorld.LOCAL_VA;

/**
 * Arbitrary arguments for every call of the SPI: every numeric argument from the whole unsigned range (with
 * jqwik's edge cases, and values near the valid ones), nulls where the SPI allows them. The reference never
 * throws, never hangs, never calls a completion after an inline return, completes every accepted work request
 * exactly once, and never lets through a request that the rule catalog forbids: such a request fails inline or
 * completes with an error status.
 */
class ArbitraryArgumentsProperties {
    // ------------------------------------------------------------------ generators

    static Arbitrary<Long> anyLong() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(-2, 0x12000),
                Arbitraries.of(0x8000_0000L, 0xFFFF_FFFFL, 0x1_0000_0000L, 0x1_0000_0800L, 0xFFFF_FFFF_FFFF_F000L,
                        Long.MIN_VALUE, 1L << 40, (1L << 40) + 1));
    }

    static Arbitrary<Integer> anyInt() {
        return Arbitraries.oneOf(Arbitraries.integers(), Arbitraries.integers().between(-2, 0x3000),
                Arbitraries.of(0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 1 << 20, (1 << 20) + 1, 16, 256, 257));
    }

    /** Which parts of a valid request to replace by arbitrary values: none, one, or any. */
    static Arbitrary<Integer> mutation() {
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(4, Arbitraries.of(1, 2, 4, 8, 16, 32)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 63)));
    }

    static Arbitrary<Integer> flags() {
        return Arbitraries.oneOf(Arbitraries.integers(), Arbitraries.integers().between(0, 0x3FF),
                Arbitraries.of(0x0, 0x1, 0x2, 0x5, 0x7, 0x8, 0xF, 0x10, 0x20, 0x30, 0x38, 0x80, 0x200, 0x2BB));
    }

    @Provide
    Arbitrary<List<Action>> actions() {
        Arbitrary<Action> register = Combinators.combine(Arbitraries.integers().between(0, 3), anyLong(),
                Arbitraries.oneOf(Arbitraries.integers().between(1, 0x3000), Arbitraries.integers().between(0, 0x3000))
                        .array(int[].class).ofMinSize(1).ofMaxSize(3),
                Arbitraries.of(true, true, true, false).array(boolean[].class).ofSize(3), anyLong(), flags(), mutation())
                .as((mr, va, counts, contiguous, length, fl, mut) -> (Action) new Register(mr, va, counts, contiguous,
                        length, fl, mut));
        Arbitrary<Action> deregister = Arbitraries.integers().between(0, 3).map(Deregister::new);
        Arbitrary<Action> initialize = Combinators.combine(Arbitraries.integers().between(0, 3), anyInt(),
                Arbitraries.of(true, false), Arbitraries.of(false, false, false, true)).as(Initialize::new);
        Arbitrary<long[]> pages = Arbitraries.oneOf(Arbitraries.longs().between(0, LAM_PAGES - 1), anyLong())
                .array(long[].class).ofMaxSize(10);
        Arbitrary<Action> fastRegister = Combinators.combine(Arbitraries.integers().between(0, 3),
                anyInt(), pages, anyInt(), anyLong(), anyLong(), flags(),
                Combinators.combine(mutation(), Arbitraries.of(false, false, false, false, false, true))
                        .as((mut, unc) -> mut * 2 + (unc ? 1 : 0)))
                .as((mr, count, p, fbo, length, bva, fl, mu) -> (Action) new FastRegister(mr, count, p, fbo, length,
                        bva, fl, mu >>> 1, (mu & 1) != 0));
        Arbitrary<Action> invalidate = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.oneOf(Arbitraries.just(0), flags())).as(Invalidate::new);
        Arbitrary<Action> rdma = Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, true, false),
                anyInt(), Arbitraries.of(true, true, false), anyLong(), anyInt(), flags()).as(Rdma::new);
        Arbitrary<Action> localSges = Arbitraries.integers().between(1, 4).flatMap(n -> Combinators.combine(
                Arbitraries.oneOf(anyLong(), Arbitraries.longs().between(LOCAL_VA - 2, LOCAL_VA + 0x4002))
                        .array(long[].class).ofSize(n),
                Arbitraries.oneOf(anyInt(), Arbitraries.integers().between(0, 0x4001)).array(int[].class).ofSize(n),
                anyInt().array(int[].class).ofSize(n),
                Arbitraries.of(true, true, false).array(boolean[].class).ofSize(n)).as(LocalSges::new));
        Arbitrary<Action> buildLam = Combinators.combine(anyLong(), Arbitraries.integers().between(0, 0x3000),
                anyLong(), anyInt()).as(BuildLam::new);
        Arbitrary<Action> misc = Combinators.combine(Arbitraries.integers().between(0, 3), anyInt(), anyInt(),
                anyInt(), anyInt(), anyInt()).as(Misc::new);
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, register), net.jqwik.api.Tuple.of(1, deregister),
                        net.jqwik.api.Tuple.of(3, initialize), net.jqwik.api.Tuple.of(5, fastRegister),
                        net.jqwik.api.Tuple.of(2, invalidate), net.jqwik.api.Tuple.of(4, rdma),
                        net.jqwik.api.Tuple.of(1, localSges), net.jqwik.api.Tuple.of(2, buildLam),
                        net.jqwik.api.Tuple.of(1, misc))
                .list().ofMinSize(1).ofMaxSize(25);
    }

    @Provide
    Arbitrary<Map<String, String>> settings() {
        return Combinators.combine(Arbitraries.of("inline", "inline", "pending", "mixed"), Arbitraries.of("1.1", "1.2"),
                Arbitraries.of("true", "false"), Arbitraries.longs(), Arbitraries.of("1099511627776", "65536",
                        "18446744073709551615")).as((c, v, r, seed, max) -> Map.of("completion", c, "ndkVersion", v,
                "readSinkNotRequired", r, "seed", Long.toString(seed), "maxRegistrationSize", max));
    }

    // ------------------------------------------------------------------ properties

    @Property(tries = 300)
    void arbitraryArgumentsNeverBreakTheCatalog(@ForAll("settings") Map<String, String> settings,
                                                @ForAll("actions") List<Action> actions) {
        World world = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            World w = new World(settings);
            try {
                for (Action action : actions) {
                    action.run(w);
                }
                w.settle();
            } finally {
                w.adapter.close();
            }
            return w;
        });
        for (String outcome : world.outcomes) {
            Statistics.label("outcome").collect(outcome);
        }
        assertThat(world.violations).isEmpty();
        Statistics.label("outcome").coverage(c -> {
            c.check("register allowed succeeded").count(n -> n > 0);
            c.check("register forbidden failed").count(n -> n > 0);
            c.check("fast forbidden rejected inline").count(n -> n > 0);
            c.check("fast allowed posted").count(n -> n > 0);
            c.check("read allowed posted").count(n -> n > 0);
            c.check("write allowed posted").count(n -> n > 0);
            c.check("read forbidden posted").count(n -> n > 0);
            c.check("write forbidden posted").count(n -> n > 0);
        });
    }

    @Property(tries = 30)
    void nullsWhereTheSpiForbidsThemAreDocumentedNullPointerExceptions(@ForAll("settings") Map<String, String> settings) {
        World w = new World(settings);
        try {
            NdkMr mr = w.normal.get(0);
            NdkMr fast = w.fast.get(0);
            Mdl mdl = w.buffer(0x7000_0000L, 0x1000);
            RequestCompletion rc = (c, s) -> { };
            NdkSge[] ok = {new NdkSge(LOCAL_VA, 8, w.localToken)};
            List<Runnable> calls = List.of(
                    () -> mr.register(null, 1, 0, rc, null),
                    () -> mr.register(mdl, 1, 0, null, null),
                    () -> mr.deregister(null, null),
                    () -> fast.initializeFastRegister(1, true, null, null),
                    () -> mr.close(null, null),
                    () -> w.pd.createMr(true, null, null),
                    () -> w.pd.createQp(null, w.cq, null, 1, 1, 1, 1, 0, (c, s, o) -> { }, null),
                    () -> w.pd.createQp(w.cq, null, null, 1, 1, 1, 1, 0, (c, s, o) -> { }, null),
                    () -> w.adapter.createPd(null, null),
                    () -> w.adapter.createCq(1, null, null),
                    () -> w.adapter.buildLam(null, 1, rc, null, new NdkLogicalAddressMapping(64)),
                    () -> w.adapter.buildLam(mdl, 1, rc, null, null),
                    () -> w.adapter.releaseLam(null),
                    () -> w.adapter.connectLoopback(null, w.a),
                    () -> w.a.fastRegister(null, null, 1, new long[1], 0, 1, 0, 0),
                    () -> w.a.fastRegister(null, fast, 1, null, 0, 1, 0, 0),
                    () -> w.a.invalidate(null, null, 0),
                    () -> w.a.read(null, null, 0, 0, 0),
                    () -> w.a.write(null, new NdkSge[] {ok[0], null}, 0, 0, 0),
                    () -> w.a.send(null, null, 0),
                    () -> w.a.sendAndInvalidate(null, null, 0, 0),
                    () -> w.a.receive(null, null),
                    () -> w.cq.getCqResults(null),
                    () -> w.cq.getCqResultsEx(null));
            for (Runnable call : calls) {
                assertThatThrownBy(call::run).isInstanceOf(NullPointerException.class)
                        .satisfies(e -> assertThat(e.getMessage()).isNotBlank());
            }
            // and nothing changed: the adapter still works, with null contexts
            assertThat(w.call(c -> w.adapter.buildLam(mdl, 0x1000, c, null, new NdkLogicalAddressMapping(64))))
                    .isEqualTo(NtStatus.STATUS_SUCCESS);
            assertThat(w.adapter.buildLam(mdl, 0x1000, null, null, new NdkLogicalAddressMapping(64)))
                    .as("NdkBuildLam's completion is optional (AMB-16)").isEqualTo(NtStatus.STATUS_SUCCESS);
            assertThat(w.a.write(null, ok, 0, 0, 0)).isEqualTo(NtStatus.STATUS_SUCCESS);
        } finally {
            w.adapter.close();
        }
    }
}
