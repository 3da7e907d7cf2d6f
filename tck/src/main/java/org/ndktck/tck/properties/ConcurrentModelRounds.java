package org.ndktck.tck.properties;

import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkCq;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkMrFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.RuleViolation;
import org.ndktck.tck.harness.ChecksReached;
import org.ndktck.tck.harness.Hex;
import org.ndktck.tck.harness.HostBuffer;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Outcome;
import org.ndktck.tck.harness.Refusals;
import org.ndktck.tck.harness.Region;
import org.ndktck.tck.harness.Registered;
import org.ndktck.tck.harness.Schedule;
import org.ndktck.tck.harness.SessionTools;
import org.ndktck.tck.harness.TckConfig;
import org.ndktck.tck.harness.Violations;
import org.ndktck.tck.harness.WorkRequest;
import org.ndktck.tck.harness.WrOutcome;
import org.ndktck.tck.model.Grant;
import org.ndktck.tck.model.History;
import org.ndktck.tck.model.Linearizability;
import org.ndktck.tck.model.MrPhase;
import org.ndktck.tck.model.SharedAdapterSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.ndktck.tck.harness.Hex.u32;
import static org.ndktck.tck.harness.Hex.u64;

/**
 * The rounds of one try of {@link ConcurrentModelProperties}: binds the try's shape (a call kind per thread and
 * step) to objects of the model's current state, runs it from the kit threads with a {@link Schedule}, records the
 * {@link History} and checks it with {@link Linearizability} against {@link SharedAdapterSpec}. One job: drive the
 * rounds; the judging is the specification's.
 */
final class ConcurrentModelRounds {
    /** Bytes a read brings and a send carries. */
    static final int BYTES = 8;
    /** Reads in one READ step: the later ones land after a racing call on another thread has returned. */
    static final int BURST = 3;
    /** Search steps one round's check may take by default (a bound on work, not on time). */
    static final long MAX_SEARCH_STEPS = 500_000;
    /**
     * Configuration parameter (or system property): the search steps one round's linearizability check may take, a
     * whole number of at least 1 (default {@value #MAX_SEARCH_STEPS}; any other value keeps the default). A round whose
     * search reaches it is not judged ({@link #notJudged}). For measurements and the kit's own tests.
     */
    static final String SEARCH_STEPS_KEY = "ndk.tck.linearizabilitySteps";
    /** Start of the reason a try's rules were not checked because its first round's search reached its bound. */
    static final String SEARCH_BOUND = "the linearizability search of round ";
    private static final int MODEL_FLAGS = NdkMrFlags.ALLOW_REMOTE_READ;

    private final NdkSession s;
    private final SessionTools t;
    private final History.Kind[][] shape;
    private final SplittableRandom rnd;
    private final long seed;
    private final int threads;
    private final int steps;
    private final AtomicLong clock = new AtomicLong();
    private final Map<Integer, SharedAdapterSpec.Fixed> fixed = new HashMap<>();
    private final Map<Integer, NdkMr> mrOf = new HashMap<>();
    private final Map<Integer, Long> vaOf = new HashMap<>();
    private final SharedAdapterSpec spec;
    private SharedAdapterSpec.State state = new SharedAdapterSpec.State(Map.of(), Set.of());
    private int nextMr = 1;
    private final long searchSteps = searchSteps();
    private int judgedRounds;
    private final ConcurrentLane[] readLanes;
    private final ConcurrentLane[] sendLanes;
    private final Registered[] sinks;
    private final Registered[] receiveBuffers;

    /**
     * @param threads kit threads
     * @param r       the try's random source
     * @return one call kind per thread and step (steps: 2 to 3 at the standard profile; threads x steps at most 12)
     */
    static History.Kind[][] shape(int threads, SplittableRandom r) {
        int most = Math.max(2, Math.min(TckConfig.current().profile().size(3), 12 / threads));
        int steps = 2 + r.nextInt(most - 1);
        History.Kind[] kinds = {History.Kind.REGISTER, History.Kind.DEREGISTER, History.Kind.READ, History.Kind.READ, History.Kind.SEND};
        History.Kind[][] out = new History.Kind[threads][steps];
        for (int k = 0; k < steps; k++) {
            // a third of the steps have every thread send at once (sends meet only on the shared receive CQ)
            boolean allSend = r.nextInt(3) == 0;
            for (int i = 0; i < threads; i++) {
                out[i][k] = allSend ? History.Kind.SEND : kinds[r.nextInt(kinds.length)];
            }
        }
        return out;
    }

    /** @return rounds per try: 6 at the standard profile (2 at smoke, more at deep) */
    static int rounds() {
        return Math.max(2, TckConfig.current().profile().size(6));
    }

    ConcurrentModelRounds(NdkSession s, SessionTools t, History.Kind[][] shape, long seed) {
        this.s = s;
        this.t = t;
        this.shape = shape;
        this.seed = seed;
        this.rnd = new SplittableRandom(~seed);
        this.threads = shape.length;
        this.steps = shape[0].length;
        this.spec = new SharedAdapterSpec(fixed, s.readSinkNotRequired());
        t.onRefusedPost(Refusals.OnRefusal.KEEP);
        int p = s.pageSize();
        s.qps();
        NdkCq shared = t.createCq(Math.max(64, 4 * threads * steps));
        readLanes = new ConcurrentLane[threads];
        sendLanes = new ConcurrentLane[threads];
        sinks = new Registered[threads];
        receiveBuffers = new Registered[threads];
        for (int i = 0; i < threads; i++) {
            readLanes[i] = ConcurrentLane.open(s, t, "reads of thread " + i, null);
            sendLanes[i] = ConcurrentLane.open(s, t, "sends of thread " + i, shared);
            sinks[i] = t.registered(s.peer(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE | t.readSinkFlag());
            receiveBuffers[i] = t.registered(s.target(), 1, 0, p, NdkMrFlags.ALLOW_LOCAL_WRITE);
        }
    }

    /** @return the search bound of one round's check: {@value #SEARCH_STEPS_KEY}, else {@value #MAX_SEARCH_STEPS} */
    static long searchSteps() {
        try {
            long v = TckConfig.parameter(SEARCH_STEPS_KEY).map(String::trim).map(Long::parseLong).orElse(MAX_SEARCH_STEPS);
            return v >= 1 ? v : MAX_SEARCH_STEPS;
        } catch (NumberFormatException e) {
            return MAX_SEARCH_STEPS;
        }
    }

    /**
     * A round whose linearizability search reached its step bound before it found an order the model allows or
     * proved there is none is not judged, and the try's rounds end there. When no round of the try was judged, the
     * try counts no check of the property's rules, with the reason ({@link ChecksReached#notReached}): a property
     * none of whose tries judged a round leaves its rules UNTESTED with it, never PASS.
     *
     * @param round the round (0-based)
     * @param calls the calls in its history
     */
    private void notJudged(int round, int calls) {
        if (judgedRounds > 0) {
            return; // the rounds before were judged: the try checked its rules on them
        }
        String why = SEARCH_BOUND + (round + 1) + " (" + calls + " calls on " + threads + " kit threads) reached its bound of "
                + searchSteps + " steps (" + SEARCH_STEPS_KEY + ") before it found an order the model allows or proved there"
                + " is none, so the round was not judged";
        for (String rule : org.ndktck.tck.harness.CurrentProperty.runningRules()) {
            ChecksReached.notReached(rule, why);
        }
    }

    /** Runs every round, each judged on its own; returns early when an allowed refusal leaves nothing to judge. */
    void run() {
        for (int round = 0, n = rounds(); round < n; round++) {
            if (!round(round)) {
                return;
            }
        }
    }

    /** One bound call of a round. */
    private record Bound(History.Kind kind, int mr, WorkRequest receive, String receiveName, long slot) {
    }

    private boolean round(int round) {
        History h = new History(clock);
        int dereg = 0;
        for (History.Kind[] row : shape) {
            for (History.Kind k : row) {
                dereg += k == History.Kind.DEREGISTER ? 1 : 0;
            }
        }
        // registrations before the round (on this thread): enough for every DEREGISTER step and one more to read
        while (registered().size() < dereg + 1) {
            int id = newMr();
            if (!register(new History(clock), -1, id)) {
                return false;
            }
        }
        List<Integer> live = registered();
        List<Integer> free = new ArrayList<>(live);
        Bound[][] bound = new Bound[threads][steps];
        List<Integer> ending = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            for (int k = 0; k < steps; k++) {
                if (shape[i][k] == History.Kind.DEREGISTER) {
                    int id = free.remove(rnd.nextInt(free.size()));
                    ending.add(id);
                    bound[i][k] = new Bound(History.Kind.DEREGISTER, id, null, null, 0);
                }
            }
        }
        List<Integer> ended = mrsIn(MrPhase.DEREGISTERED);
        for (int i = 0; i < threads; i++) {
            // one MR per thread and round for its reads: one another thread deregisters now, if any (the race), else
            // a live one, sometimes one deregistered in an earlier round
            int target = !ending.isEmpty() && rnd.nextInt(4) != 0 ? ending.get(rnd.nextInt(ending.size()))
                    : !ended.isEmpty() && rnd.nextInt(4) == 0 ? ended.get(rnd.nextInt(ended.size()))
                    : live.get(rnd.nextInt(live.size()));
            for (int k = 0; k < steps; k++) {
                switch (shape[i][k]) {
                    case REGISTER -> bound[i][k] = new Bound(History.Kind.REGISTER, newMr(), null, null, 0);
                    case READ -> bound[i][k] = new Bound(History.Kind.READ, target, null, null, (long) k * BURST * BYTES);
                    case SEND -> {
                        String name = "receive r" + round + "t" + i + "s" + k;
                        long off = (long) k * 64;
                        WorkRequest rw = t.receive(sendLanes[i].target(), new NdkSge[]{receiveBuffers[i].sge(off, 64)}, NdkOperationType.RECEIVE);
                        if (!NtStatus.STATUS_SUCCESS.equals(rw.returned())) {
                            Refusals.discardIfRefused(rw.returned());
                            throw Violations.of("CQ-6", rw.detail(), "STATUS_SUCCESS for a receive on a connected QP", String.valueOf(rw.returned()));
                        }
                        bound[i][k] = new Bound(History.Kind.SEND, -1, rw, name, off);
                    }
                    default -> {
                    }
                }
            }
        }
        Schedule schedule = Schedule.draw(rnd.nextLong(), threads, steps);
        List<List<Schedule.Action>> actions = new ArrayList<>();
        WrOutcome[][] sends = new WrOutcome[threads][steps];
        boolean[] readFailed = new boolean[threads];
        for (int i = 0; i < threads; i++) {
            int me = i;
            List<Schedule.Action> mine = new ArrayList<>();
            for (int k = 0; k < steps; k++) {
                Bound b = bound[i][k];
                int step = k;
                Schedule.Action a;
                if (b.kind() == History.Kind.REGISTER) {
                    a = () -> register(h, me, b.mr()) ? "NdkRegisterMr of MR#" + b.mr() : "refused";
                } else if (b.kind() == History.Kind.DEREGISTER) {
                    a = () -> deregister(h, me, b.mr());
                } else if (b.kind() == History.Kind.READ) {
                    a = () -> readBurst(h, me, b, readFailed);
                } else {
                    a = () -> {
                        sends[me][step] = send(h, me, b);
                        return "NdkSend into " + b.receiveName();
                    };
                }
                mine.add(a);
            }
            actions.add(mine);
        }
        try {
            schedule.run(actions);
        } catch (RuleViolation v) {
            throw schedule.explain(v);
        }
        // the receive entries, polled on this thread once every thread is done (no two threads poll one CQ: CQ-4)
        for (int i = 0; i < threads; i++) {
            for (int k = 0; k < steps; k++) {
                Bound b = bound[i][k];
                if (b.kind() == History.Kind.SEND && sends[i][k] != null && sends[i][k].succeeded()) {
                    receiveEntry(h, b, i);
                }
            }
        }
        List<History.Op> ops = h.ops();
        Linearizability.Verdict<SharedAdapterSpec.State> v = Linearizability.check(ops, spec, state, searchSteps);
        if (v.exhausted()) {
            notJudged(round, ops.size()); // not judged: this one took more search than its bound
            return false;
        }
        if (!v.linearizable()) {
            StringBuilder order = new StringBuilder();
            for (History.Op op : v.order()) {
                order.append(order.length() == 0 ? "" : ", ").append('#').append(op.id());
            }
            throw Violations.of(v.rule(), "round " + (round + 1) + " of " + threads + " kit threads on one adapter (shape seed "
                            + seed + "): " + v.culprit().line(),
                    v.expected() + "; the history must be explained by some order of its calls that keeps real-time order",
                    "no order of the model explains it. The round's history (call #id [invoked..returned tick] -> outcome):\n"
                            + numbered(ops) + "  the longest order the model allows: " + (order.length() == 0 ? "none" : order)
                            + ", then call #" + v.culprit().id() + " breaks " + v.rule());
        }
        state = v.end();
        judgedRounds++;
        for (int i = 0; i < threads; i++) {
            if (readFailed[i]) {
                // a provider may end a connection after a remote access error: later rounds read on a fresh one
                readLanes[i] = ConcurrentLane.open(s, t, "reads of thread " + i + " after round " + (round + 1), null);
            }
        }
        return true;
    }

    private static String numbered(List<History.Op> ops) {
        StringBuilder b = new StringBuilder();
        for (History.Op op : ops) {
            b.append("  #").append(op.id()).append(' ').append(op.line()).append('\n');
        }
        return b.toString();
    }

    private List<Integer> registered() {
        return mrsIn(MrPhase.REGISTERED);
    }

    private List<Integer> mrsIn(MrPhase phase) {
        List<Integer> out = new ArrayList<>();
        state.mrs().forEach((id, m) -> {
            if (m.phase() == phase) {
                out.add(id);
            }
        });
        out.sort(null);
        return out;
    }

    /** Creates an MR of the target PD over a fresh page holding its own bytes; the model has it NEW. */
    private int newMr() {
        int id = nextMr++;
        int p = s.pageSize();
        HostBuffer b = s.allocate(1);
        int offset = 8 * rnd.nextInt(p / 16);
        long va = t.freshVa() + offset;
        long length = p - offset;
        byte[] bytes = new byte[BYTES];
        for (int j = 0; j < BYTES; j++) {
            bytes[j] = (byte) (seed * 31 + id * 17 + j * 7 + 1);
        }
        b.put(offset, bytes);
        Region region = new Region(b, offset, va, length, 0);
        fixed.put(id, new SharedAdapterSpec.Fixed(new Grant(region, 0, true, false, false, false, false, "NdkRegisterMr of MR#" + id), bytes));
        mrOf.put(id, s.createMr(s.target(), false));
        vaOf.put(id, va);
        state = state.with(id, new SharedAdapterSpec.Mr(MrPhase.NEW, 0));
        mdlOf.put(id, b.mdl(va, 0, (int) length));
        return id;
    }

    private final Map<Integer, Mdl> mdlOf = new HashMap<>();

    private boolean register(History h, int thread, int id) {
        SharedAdapterSpec.Fixed f = fixed.get(id);
        long length = f.grant().region().length();
        String call = "NdkRegisterMr(MR#" + id + ", BaseVirtualAddress " + u64(vaOf.get(id)) + ", Length " + length
                + ", ALLOW_REMOTE_READ) then NdkGetRemoteTokenFromMr";
        long inv = h.tick();
        Outcome o = s.register(mrOf.get(id), mdlOf.get(id), length, MODEL_FLAGS);
        int token = o.succeeded() ? s.remoteToken(mrOf.get(id)) : 0;
        boolean refused = Refusals.isAllowedRefusal(o.status());
        History.Op op = h.record(thread, History.Kind.REGISTER, id, "", call, inv,
                new History.Result(o.succeeded(), refused, String.valueOf(o.status()), token, null),
                o.describe() + (o.succeeded() ? ", remote token " + u32(token) : ""));
        if (thread < 0) {
            // a registration before the round, on this thread: judged at once, and the state follows it
            Linearizability.Verdict<SharedAdapterSpec.State> v = Linearizability.check(List.of(op), spec, state, searchSteps);
            if (!v.linearizable()) {
                throw Violations.of(v.rule(), call, v.expected(), o.describe() + (o.succeeded() ? ", remote token " + u32(token) : ""));
            }
            state = v.end();
            return o.succeeded(); // an allowed refusal ends the rounds (those before were judged)
        }
        return true;
    }

    private String deregister(History h, int thread, int id) {
        String call = "NdkDeregisterMr(MR#" + id + ", remote token " + u32(state.mrs().get(id).token()) + ")";
        long inv = h.tick();
        Outcome o = s.deregister(mrOf.get(id));
        h.record(thread, History.Kind.DEREGISTER, id, "", call, inv,
                new History.Result(o.succeeded(), Refusals.isAllowedRefusal(o.status()), String.valueOf(o.status()), 0, null), o.describe());
        return call + " -> " + o.describe();
    }

    private String readBurst(History h, int thread, Bound b, boolean[] readFailed) {
        Registered sink = sinks[thread];
        int token = state.mrs().get(b.mr()).token();
        long va = vaOf.get(b.mr());
        StringBuilder log = new StringBuilder();
        for (int j = 0; j < BURST; j++) {
            long off = b.slot() + (long) j * BYTES;
            sink.buffer().put(sink.bufferOffset() + off, new byte[BYTES]);
            long inv = h.tick();
            WorkRequest wr = t.read(readLanes[thread].peer(), new NdkSge[]{sink.sge(off, BYTES)}, va, token, 0);
            String call = "NdkRead(" + BYTES + " bytes at RemoteAddress " + u64(va) + ", RemoteToken " + u32(token) + " of MR#" + b.mr() + ")";
            if (Refusals.isAllowedRefusal(wr.returned())) {
                h.record(thread, History.Kind.READ, b.mr(), "", call, inv, new History.Result(false, true, String.valueOf(wr.returned()), 0, null),
                        String.valueOf(wr.returned()));
                continue;
            }
            WrOutcome o = t.complete(wr);
            byte[] got = sink.buffer().read(sink.bufferOffset() + off, BYTES);
            sink.buffer().acceptActual(sink.bufferOffset() + off, BYTES);
            h.record(thread, History.Kind.READ, b.mr(), "", call, inv, new History.Result(o.succeeded(), false, String.valueOf(o.status()), 0, got),
                    o.describe() + (o.succeeded() ? ", bytes " + Hex.bytes(got) : ""));
            readFailed[thread] |= !o.succeeded();
            log.append(call).append(" -> ").append(o.describe()).append("; ");
            Thread.yield(); // a deliberate yield: let a racing call on another thread return between two reads
        }
        return log.toString();
    }

    private WrOutcome send(History h, int thread, Bound b) {
        Registered source = sinks[thread];
        long off = 3L * steps * BURST * BYTES + b.slot() / 8;
        byte[] data = new byte[BYTES];
        for (int j = 0; j < BYTES; j++) {
            data[j] = (byte) (thread * 16 + j + 3);
        }
        source.buffer().put(source.bufferOffset() + off, data);
        String call = "NdkSend(" + BYTES + " bytes from the QP of sends of thread " + thread + " into " + b.receiveName() + ")";
        long inv = h.tick();
        WorkRequest wr = t.send(sendLanes[thread].peer(), new NdkSge[]{source.sge(off, BYTES)}, 0);
        boolean refused = Refusals.isAllowedRefusal(wr.returned());
        WrOutcome o = refused ? null : t.complete(wr);
        h.record(thread, History.Kind.SEND, -1, b.receiveName(), call, inv,
                new History.Result(o != null && o.succeeded(), refused, String.valueOf(o == null ? wr.returned() : o.status()), 0, null),
                o == null ? String.valueOf(wr.returned()) : o.describe());
        return o;
    }

    private void receiveEntry(History h, Bound b, int thread) {
        String call = "NdkGetCqResultsEx of the shared receive CQ until the entry of " + b.receiveName() + " arrives";
        long inv = h.tick();
        NtStatus st;
        String seen;
        try {
            st = t.awaitEntry(b.receive());
            seen = "an entry with " + st;
        } catch (RuleViolation missing) {
            st = null;
            seen = "no entry within the completion bound";
        }
        Registered r = receiveBuffers[thread];
        r.buffer().acceptActual(r.bufferOffset() + b.slot(), 64);
        h.record(-1, History.Kind.RECEIVE_ENTRY, -1, b.receiveName(), call, inv,
                new History.Result(NtStatus.STATUS_SUCCESS.equals(st), false, String.valueOf(st), 0, null), seen);
    }
}
