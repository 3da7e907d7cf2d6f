package org.ndktck.tck.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The linearizability check on hand-made histories of a register holding one int: writes set it, reads return what
 * the sequential specification holds. Overlapping calls may take effect in either order; a read that begins after a
 * write returned must see it (or a later write).
 */
class LinearizabilityTest {
    /** The specification: WRITE (kind REGISTER, token = value), READ (kind READ, token = value seen). */
    private static final Linearizability.Spec<Integer> CELL = (v, op) -> switch (op.kind()) {
        case REGISTER -> Linearizability.Step.to(op.result().token());
        case READ -> op.result().token() == v ? Linearizability.Step.to(v)
                : Linearizability.Step.broken("RULE-R", "the value " + v);
        default -> throw new IllegalArgumentException();
    };

    private final List<History.Op> ops = new ArrayList<>();

    private void op(int thread, History.Kind kind, int value, long invoked, long returned) {
        ops.add(new History.Op(ops.size(), thread, kind, -1, "", kind + " " + value,
                new History.Result(true, false, "STATUS_SUCCESS", value, null), "ok", invoked, returned));
    }

    @Test
    void overlappingCallsMayTakeEffectInEitherOrder() {
        op(0, History.Kind.REGISTER, 1, 1, 4);
        op(1, History.Kind.READ, 0, 2, 3); // overlaps the write: may see the old value
        op(2, History.Kind.READ, 1, 2, 5); // overlaps it too: may see the new one
        Linearizability.Verdict<Integer> v = Linearizability.check(ops, CELL, 0, 1000);
        assertThat(v.linearizable()).isTrue();
        assertThat(v.order()).extracting(History.Op::id).containsExactly(1, 0, 2);
        assertThat(v.end()).isEqualTo(1);
    }

    @Test
    void aReadAfterTheWriteReturnedMustSeeIt() {
        op(0, History.Kind.REGISTER, 1, 1, 2);
        op(1, History.Kind.READ, 1, 3, 4);
        op(1, History.Kind.READ, 0, 5, 6); // stale: the write returned before this read began
        Linearizability.Verdict<Integer> v = Linearizability.check(ops, CELL, 0, 1000);
        assertThat(v.linearizable()).isFalse();
        assertThat(v.exhausted()).isFalse();
        assertThat(v.rule()).isEqualTo("RULE-R");
        assertThat(v.culprit().id()).isEqualTo(2);
        assertThat(v.order()).extracting(History.Op::id).containsExactly(0, 1);
    }

    @Test
    void theSearchStopsAtItsStepBoundWithoutAVerdict() {
        for (int i = 0; i < 12; i++) {
            op(i, History.Kind.REGISTER, i, 1, 100); // all overlap: many orders
        }
        op(12, History.Kind.READ, 99, 101, 102); // no write wrote 99: every order fails at the end
        Linearizability.Verdict<Integer> v = Linearizability.check(ops, CELL, 0, 50);
        assertThat(v.linearizable()).isFalse();
        assertThat(v.exhausted()).isTrue();
        assertThat(v.steps()).isLessThanOrEqualTo(51);
    }
}
