package org.ndktck.spec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** NtStatus follows the NT_SUCCESS / NT_ERROR macros of ntstatus.h and prints name and hex code. */
class NtStatusTest {

    @Test
    void isSuccessIsNtSuccess() {
        assertThat(NtStatus.STATUS_SUCCESS.isSuccess()).isTrue();
        assertThat(NtStatus.STATUS_PENDING.isSuccess()).isTrue();
        assertThat(NtStatus.of(0x40000000).isSuccess()).as("informational").isTrue();
        assertThat(NtStatus.STATUS_BUFFER_OVERFLOW.isSuccess()).as("warning").isFalse();
        assertThat(NtStatus.STATUS_INVALID_PARAMETER.isSuccess()).isFalse();
        assertThat(NtStatus.of(0xFFFFFFFF).isSuccess()).isFalse();
    }

    @Test
    void isErrorIsNtError() {
        assertThat(NtStatus.STATUS_ACCESS_VIOLATION.isError()).isTrue();
        assertThat(NtStatus.STATUS_IMPLEMENTATION_LIMIT.isError()).isTrue();
        assertThat(NtStatus.of(0xC0000000).isError()).isTrue();
        assertThat(NtStatus.of(0xFFFFFFFF).isError()).isTrue();
        assertThat(NtStatus.of(0xBFFFFFFF).isError()).isFalse();
        assertThat(NtStatus.STATUS_BUFFER_OVERFLOW.isError()).isFalse();
        assertThat(NtStatus.STATUS_SUCCESS.isError()).isFalse();
        assertThat(NtStatus.STATUS_PENDING.isError()).isFalse();
    }

    @Test
    void isPendingIsExactlyStatusPending() {
        assertThat(NtStatus.STATUS_PENDING.isPending()).isTrue();
        assertThat(NtStatus.of(0x00000103).isPending()).isTrue();
        assertThat(NtStatus.of(0x00000102).isPending()).isFalse();
        assertThat(NtStatus.STATUS_SUCCESS.isPending()).isFalse();
    }

    @Test
    void toStringGivesNameAndHexOrHexAlone() {
        assertThat(NtStatus.STATUS_INVALID_PARAMETER).hasToString("STATUS_INVALID_PARAMETER (0xC000000D)");
        assertThat(NtStatus.STATUS_SUCCESS).hasToString("STATUS_SUCCESS (0x00000000)");
        assertThat(NtStatus.of(0xC000000D)).hasToString("STATUS_INVALID_PARAMETER (0xC000000D)");
        assertThat(NtStatus.of(0x12345678)).hasToString("0x12345678");
        assertThat(NtStatus.of(0x12345678).name()).isEmpty();
    }

    @Test
    void unsignedCodeReadsTheBitPatternUnsigned() {
        assertThat(NtStatus.STATUS_CANCELLED.unsignedCode()).isEqualTo(0xC0000120L);
        assertThat(NtStatus.STATUS_CANCELLED.code()).isNegative();
        assertThat(NtStatus.of(0xC0000120)).isEqualTo(NtStatus.STATUS_CANCELLED);
    }
}
