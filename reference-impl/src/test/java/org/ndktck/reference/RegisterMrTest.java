package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.ndktck.reference.Fixture.sync;
import static org.ndktck.reference.Rejections.assertRejectedBy;
import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectType;
import org.ndktck.spec.NtStatus;

class RegisterMrTest {

    private static NtStatus register(Fixture f, Mdl mdl, long length, int flags) {
        NdkMr mr = f.newMr(false);
        return sync(c -> mr.register(mdl, length, flags, c, "ctx"));
    }

    @Test
    void aContiguousChainRegistersAndHasAnMrHeader() {
        try (Fixture f = Fixture.open()) {
            Mdl a = f.buffer(0x10000, 0x1000);
            a.setNext(f.buffer(0x11000, 0x1000));
            NdkMr mr = f.registered(a, 0x2000, 0x7);
            assertThat(mr.header().objectType()).isEqualTo(NdkObjectType.MR);
            assertThat(mr.getRemoteToken()).isNotZero().isEqualTo(mr.getRemoteToken());
        }
    }

    @Test
    void lengthZeroIsRejected() {
        assertRejectedBy(Pieces.MR_REG_11, STATUS_INVALID_PARAMETER, f -> register(f, f.buffer(0x10000, 0x1000), 0, 0));
    }

    @Test
    void aRegionWhoseEndWrapsPast2To64IsRejected() {
        // one MDL at VA 0xFFFFFFFFFFFFF000 with ByteCount and Length 0x2000 (length arithmetic that wraps the address space)
        assertRejectedBy(Pieces.MR_REG_12, STATUS_INVALID_PARAMETER,
                f -> register(f, f.buffer(0xFFFF_FFFF_FFFF_F000L, 0x2000), 0x2000, 0x7));
    }

    @Test
    void aRegionEndingExactlyAt2To64IsAccepted() {
        try (Fixture f = Fixture.open()) {
            assertThat(register(f, f.buffer(0xFFFF_FFFF_FFFF_F000L, 0x1000), 0x1000, 0x7)).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void lengthAboveTheChainIsRejected() {
        assertRejectedBy(Pieces.MR_REG_13, STATUS_INVALID_PARAMETER,
                f -> register(f, f.buffer(0x10000, 0x1000), 0x1001, 0));
    }

    @Test
    void lengthAbove2To32IsComparedUnsignedAgainstTheChain() {
        try (Fixture f = Fixture.open()) {
            Mdl m = f.buffer(0x10000, 0x1000);
            assertThat(register(f, m, 0x1_0000_0800L, 0)).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(register(f, m, 0x8000_0000_0000_0800L, 0)).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(register(f, m, -1L, 0)).isEqualTo(STATUS_INVALID_PARAMETER);
        }
    }

    @Test
    void aChainBrokenInsideLengthIsRejected() {
        assertRejectedBy(Pieces.MR_REG_2, STATUS_INVALID_PARAMETER, f -> {
            Mdl a = f.buffer(0x10000, 0x1000);
            a.setNext(f.buffer(0x20000, 0x1000));
            return register(f, a, 0x1001, 0);
        });
    }

    @Test
    void aChainBrokenAfterLengthIsAccepted() {
        try (Fixture f = Fixture.open()) {
            Mdl a = f.buffer(0x10000, 0x1000);
            a.setNext(f.buffer(0x20000, 0x1000));
            assertThat(register(f, a, 0x1000, 0)).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void aCyclicChainIsRejectedWithoutHanging() {
        try (Fixture f = Fixture.open()) {
            Mdl a = f.buffer(0x10000, 0x1000);
            Mdl b = f.buffer(0x11000, 0x1000);
            a.setNext(b);
            b.setNext(a);
            assertThat(register(f, a, 0x3000, 0)).isEqualTo(STATUS_INVALID_PARAMETER);
            Mdl self = f.buffer(0x30000, 0);
            self.setNext(self);
            assertThat(register(f, self, 0x10, 0)).isEqualTo(STATUS_INVALID_PARAMETER);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0x4, 0x6, 0xC, 0x10, 0x20, 0x100, 0x8000_0000})
    void undefinedFlagBitsAreRejected(int flags) {
        assertRejectedBy(Pieces.MR_REG_14, STATUS_INVALID_PARAMETER, f -> register(f, f.buffer(0x10000, 0x1000), 0x1000, flags));
    }

    @ParameterizedTest
    @ValueSource(ints = {0x0, 0x1, 0x2, 0x3, 0x5, 0x7, 0x8, 0x9, 0xA, 0xB, 0xD, 0xF})
    void definedFlagsAreAcceptedIncludingReadSink(int flags) {
        for (String readSink : new String[] {"true", "false"}) {
            try (Fixture f = Fixture.open("readSinkNotRequired=" + readSink)) {
                assertThat(register(f, f.buffer(0x10000, 0x1000), 0x1000, flags)).isEqualTo(STATUS_SUCCESS);
            }
        }
    }

    @Test
    void lengthAboveMaxRegistrationSizeIsRejected() {
        assertRejectedBy(Pieces.MR_REG_10, org.ndktck.spec.NtStatus.STATUS_INVALID_BUFFER_SIZE,
                f -> register(f, f.buffer(0x10000, 0x3000), 0x2001, 0), "maxRegistrationSize=8192");
        try (Fixture f = Fixture.open("maxRegistrationSize=8192")) {
            assertThat(register(f, f.buffer(0x10000, 0x3000), 0x2000, 0)).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void registerIsOnlyForNormalMrsAndOnlyOnceUntilDeregistered() {
        try (Fixture f = Fixture.open()) {
            Mdl m = f.buffer(0x10000, 0x1000);
            NdkMr fast = f.newMr(true);
            assertThat(sync(c -> fast.register(m, 0x1000, 0, c, null))).isEqualTo(STATUS_INVALID_PARAMETER);
            NdkMr mr = f.registered(m, 0x1000, 0);
            int first = mr.getRemoteToken();
            assertThat(sync(c -> mr.register(m, 0x1000, 0, c, null))).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(sync(c -> mr.deregister(c, null))).isEqualTo(STATUS_SUCCESS);
            assertThat(sync(c -> mr.deregister(c, null))).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(sync(c -> mr.register(m, 0x1000, 0, c, null))).isEqualTo(STATUS_SUCCESS);
            assertThat(mr.getRemoteToken()).as("fresh token on every registration").isNotEqualTo(first);
            assertThat(sync(c -> fast.deregister(c, null))).isEqualTo(STATUS_INVALID_PARAMETER);
        }
    }

    @Test
    void nullArgumentsAreDocumentedNullPointerExceptions() {
        try (Fixture f = Fixture.open()) {
            NdkMr mr = f.newMr(false);
            assertThatThrownBy(() -> mr.register(null, 1, 0, (c, s) -> { }, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("mdl");
            assertThatThrownBy(() -> mr.register(f.buffer(0x1000, 1), 1, 0, null, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("completion");
        }
    }

    @Test
    void inPendingModeTheCompletionComesOnceOnAnotherThread() throws Exception {
        try (Fixture f = Fixture.open("completion=pending")) {
            NdkMr mr = f.newMr(false);
            Thread caller = Thread.currentThread();
            java.util.concurrent.CopyOnWriteArrayList<Object[]> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
            Object context = new Object();
            NtStatus s = mr.register(f.buffer(0x10000, 0x1000), 0x1000, 0, (ctx, st) ->
                    calls.add(new Object[] {ctx, st, Thread.currentThread()}), context);
            assertThat(s).isEqualTo(NtStatus.STATUS_PENDING);
            Fixture.sleep(200);
            assertThat(calls).hasSize(1);
            assertThat(calls.get(0)[0]).isSameAs(context);
            assertThat(calls.get(0)[1]).isEqualTo(STATUS_SUCCESS);
            assertThat(calls.get(0)[2]).isNotSameAs(caller);
        }
    }

    @Test
    void inInlineModeTheCompletionIsNeverCalled() {
        try (Fixture f = Fixture.open("completion=inline")) {
            NdkMr mr = f.newMr(false);
            int[] calls = {0};
            assertThat(mr.register(f.buffer(0x10000, 0x1000), 0x1000, 0, (c, s) -> calls[0]++, null))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(mr.register(f.buffer(0x10000, 0x1000), 0, 0, (c, s) -> calls[0]++, null))
                    .isEqualTo(STATUS_INVALID_PARAMETER);
            Fixture.sleep(50);
            assertThat(calls[0]).isZero();
        }
    }
}
