package org.ndktck.tck.model;

import org.ndktck.tck.harness.Hex;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The sequential specification a concurrent history on one adapter is checked against ({@link Linearizability}):
 * the MRs of one PD and the receives of QPs that share one receive CQ, with the outcomes the model allows each
 * call ({@link MrCall#allowedIn} for what a consumer may call, {@link Judgement} for what a token reaches and the
 * rule charged, {@link QpCall#allowed} for a send on a connected QP).
 *
 * <ul>
 *   <li>REGISTER ({@link MrCall#REGISTER}, MR phase NEW): success with a remote token no live registration of the
 *       PD has (MR-TOK-6), or an allowed refusal (the MR stays NEW); any other status breaks MR-REG-10.</li>
 *   <li>DEREGISTER ({@link MrCall#DEREGISTER}, phase REGISTERED): success ends the registration (its tokens reach
 *       nothing from then on: MR-DEREG-3); an allowed refusal leaves it UNSETTLED (not judged); any other status
 *       breaks MR-DEREG-2.</li>
 *   <li>READ through an MR's remote token: {@link Judgement#of} with the MR's grant, ended or live. An allowed
 *       read must succeed and bring the region's bytes (else its granted rule); a forbidden one (the registration
 *       ended) must fail (else its refused rule: MR-DEREG-3). A refused post with an allowed status is accepted; a
 *       read of an UNSETTLED MR is not judged.</li>
 *   <li>SEND on a connected QP ({@link QpCall#SEND}: {@link Allowed#SUCCEED}): success, else SND-2; its receive
 *       then owes one entry.</li>
 *   <li>RECEIVE_ENTRY: the receive's entry arrived with STATUS_SUCCESS, and its send came first (CQ-6: an accepted
 *       receive completes once a message has arrived).</li>
 * </ul>
 *
 * <p>The grants (regions, flags, the bytes each region holds) are fixed per MR and given at construction: only a
 * REGISTER's token comes from the history. The state records each MR's phase and token and the receives owed an
 * entry; it is immutable with value equality.
 */
public final class SharedAdapterSpec implements Linearizability.Spec<SharedAdapterSpec.State> {
    /**
     * One MR in the state.
     *
     * @param phase NEW, REGISTERED, DEREGISTERED or UNSETTLED
     * @param token its remote token while REGISTERED or after (unsigned 32-bit), 0 while NEW
     */
    public record Mr(MrPhase phase, int token) {
    }

    /**
     * The state.
     *
     * @param mrs      each MR by the model's number
     * @param owed     the receives whose send was accepted and whose entry has not been seen
     */
    public record State(Map<Integer, Mr> mrs, Set<String> owed) {
        /** Copies into immutable collections. */
        public State {
            mrs = Map.copyOf(mrs);
            owed = Set.copyOf(owed);
        }

        /**
         * @param mr the MR's number
         * @param m  its new entry
         * @return this state with that MR changed or added
         */
        public State with(int mr, Mr m) {
            Map<Integer, Mr> next = new HashMap<>(mrs);
            next.put(mr, m);
            return new State(next, owed);
        }

        State owing(String receive, boolean add) {
            Set<String> next = new HashSet<>(owed);
            if (add) {
                next.add(receive);
            } else {
                next.remove(receive);
            }
            return new State(mrs, next);
        }
    }

    /**
     * What one MR grants when registered, the bytes its region holds at the read's offset, and the read's length.
     *
     * @param grant    the grant (region, rights); its region's remote token is ignored (the state has the token)
     * @param bytes    the bytes a read of the region's first {@code bytes.length} bytes must bring
     */
    public record Fixed(Grant grant, byte[] bytes) {
    }

    private final Map<Integer, Fixed> fixed;
    private final boolean readSinkNotRequired;

    /**
     * @param fixed               each MR's grant and bytes (read only: the caller may add MRs between rounds)
     * @param readSinkNotRequired the adapter has RDMA_READ_SINK_NOT_REQUIRED
     */
    public SharedAdapterSpec(Map<Integer, Fixed> fixed, boolean readSinkNotRequired) {
        this.fixed = fixed;
        this.readSinkNotRequired = readSinkNotRequired;
    }

    @Override
    public Linearizability.Step<State> apply(State s, History.Op op) {
        History.Result r = op.result();
        Mr m = op.mr() < 0 ? null : s.mrs().get(op.mr());
        return switch (op.kind()) {
            case REGISTER -> {
                if (m == null || !MrCall.REGISTER.allowedIn(m.phase(), false)) {
                    yield Linearizability.Step.broken("MR-REG-10", "no NdkRegisterMr of MR#" + op.mr() + " in this state (a kit defect)");
                }
                if (!r.succeeded()) {
                    yield r.allowedRefusal() ? Linearizability.Step.to(s)
                            : Linearizability.Step.broken(MrCall.REGISTER.refusalRule(), "STATUS_SUCCESS or an allowed refusal");
                }
                for (Map.Entry<Integer, Mr> e : s.mrs().entrySet()) {
                    if (e.getValue().phase() == MrPhase.REGISTERED && e.getValue().token() == r.token()) {
                        yield Linearizability.Step.broken("MR-TOK-6", "a remote token no live registration of the PD has; "
                                + Hex.u32(r.token()) + " is the token of MR#" + e.getKey() + ", registered and not deregistered");
                    }
                }
                yield Linearizability.Step.to(s.with(op.mr(), new Mr(MrPhase.REGISTERED, r.token())));
            }
            case DEREGISTER -> {
                if (m == null || !MrCall.DEREGISTER.allowedIn(m.phase(), false)) {
                    yield Linearizability.Step.broken("MR-DEREG-2", "NdkDeregisterMr of MR#" + op.mr() + " only once it is registered");
                }
                if (!r.succeeded()) {
                    yield r.allowedRefusal() ? Linearizability.Step.to(s.with(op.mr(), new Mr(MrPhase.UNSETTLED, m.token())))
                            : Linearizability.Step.broken(MrCall.DEREGISTER.refusalRule(), "STATUS_SUCCESS or an allowed refusal");
                }
                yield Linearizability.Step.to(s.with(op.mr(), new Mr(MrPhase.DEREGISTERED, m.token())));
            }
            case READ -> read(s, m, op);
            case SEND -> {
                if (r.succeeded()) {
                    yield Linearizability.Step.to(s.owing(op.context(), true));
                }
                yield r.allowedRefusal() ? Linearizability.Step.to(s)
                        : Linearizability.Step.broken(QpCall.SEND.rule(QpPhase.CONNECTED), "STATUS_SUCCESS for a send into a posted receive ("
                        + QpCall.SEND.allowed(QpPhase.CONNECTED) + " on a connected QP)");
            }
            case RECEIVE_ENTRY -> {
                if (!s.owed().contains(op.context())) {
                    // before its send: not this order; or a receive whose send was refused: it owes nothing yet
                    yield r.succeeded() ? Linearizability.Step.broken("CQ-6", "no entry for " + op.context() + " before a send reached it")
                            : Linearizability.Step.to(s);
                }
                yield r.succeeded() ? Linearizability.Step.to(s.owing(op.context(), false))
                        : Linearizability.Step.broken("CQ-6", "one entry with STATUS_SUCCESS for " + op.context() + ", whose send was accepted");
            }
        };
    }

    private Linearizability.Step<State> read(State s, Mr m, History.Op op) {
        History.Result r = op.result();
        Fixed f = fixed.get(op.mr());
        if (m == null || f == null || m.phase() == MrPhase.NEW) {
            return Linearizability.Step.broken("SEC-1", "no read through MR#" + op.mr() + " before its registration (a kit defect)");
        }
        if (m.phase() == MrPhase.UNSETTLED || (!r.succeeded() && r.allowedRefusal())) {
            return Linearizability.Step.to(s);
        }
        Revoked ended = m.phase() == MrPhase.DEREGISTERED ? new Revoked(f.grant(), "MR-DEREG-3", "deregistered") : null;
        Judgement j = Judgement.of(f.grant(), ended, AccessKind.REMOTE_READ, 0, f.bytes().length, readSinkNotRequired, false);
        if (j.allowed()) {
            if (!r.succeeded() || !Arrays.equals(r.bytes(), f.bytes())) {
                return Linearizability.Step.broken(j.grantedRule(), "STATUS_SUCCESS and the region's bytes " + Hex.bytes(f.bytes())
                        + " (MR#" + op.mr() + " is registered)");
            }
            return Linearizability.Step.to(s);
        }
        if (r.succeeded()) {
            return Linearizability.Step.broken(j.refusedRule(), "an error: MR#" + op.mr() + " " + j.why() + " before this read, so its token "
                    + Hex.u32(m.token()) + " reaches nothing");
        }
        return Linearizability.Step.to(s);
    }
}
