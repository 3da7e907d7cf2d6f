package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Function;

import org.ndktck.spec.NtStatus;

/** Attributes a rejection to one check: the reference rejects, the reference minus that check accepts. */
final class Rejections {
    private Rejections() {
    }

    static void assertRejectedBy(Piece<? extends RuleCheck<?>> check, NtStatus expected,
                                 Function<Fixture, NtStatus> call, String... settings) {
        try (Fixture reference = Fixture.open(settings)) {
            assertThat(call.apply(reference)).as("reference result").isEqualTo(expected);
        }
        ReferenceProvider without = ReferenceProvider.builder().name("without " + check.id())
                .replace(check.id(), RuleCheck.pass()).build();
        try (Fixture variant = Fixture.open(without, settings)) {
            assertThat(call.apply(variant)).as("result without " + check.id()).isEqualTo(NtStatus.STATUS_SUCCESS);
        }
    }
}
