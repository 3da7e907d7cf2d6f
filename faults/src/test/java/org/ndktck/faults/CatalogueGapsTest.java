package org.ndktck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkSge;
import org.ndktck.spec.NtStatus;

/** The faults of {@link CatalogueGaps} accept what the reference rejects, or move bytes where it would not. */
class CatalogueGapsTest {

    private static NtStatus register(Bench b, NdkMr mr, Mdl mdl, long length) throws InterruptedException {
        Bench.Recorder rec = new Bench.Recorder();
        return Bench.finalStatus(mr.register(mdl, length, 0x7, rec, "r"), rec);
    }

    @ParameterizedTest
    @ValueSource(strings = {"reference", "fault:MR-REG-13/overflow32", "fault:MR-REG-13/signed"})
    void lengthPastTheChain(String provider) throws Exception {
        try (Bench b = new Bench(provider, "inline")) {
            NtStatus past32 = register(b, b.newMr(), b.buffer(), 0x1_0000_0800L);
            NtStatus topBit = register(b, b.newMr(), b.buffer(), 0x8000_0000_0000_0800L);
            assertThat(past32).isEqualTo(provider.endsWith("overflow32") ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_INVALID_PARAMETER);
            assertThat(topBit).as("a truncated top-bit Length is small too").isEqualTo(provider.startsWith("fault:")
                    ? NtStatus.STATUS_SUCCESS : NtStatus.STATUS_INVALID_PARAMETER);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"reference", "fault:MR-REG-3/va-as-page-frames"})
    void bytesGoToTheMdlsPageFramesOrToTheVirtualAddress(String provider) throws Exception {
        try (Bench b = new Bench(provider, "inline")) {
            Mdl target = b.buffer();
            NdkMr t = b.newMr();
            assertThat(register(b, t, target, 4096)).isEqualTo(NtStatus.STATUS_SUCCESS);
            Mdl source = b.buffer();
            NdkMr s = b.newMr();
            assertThat(register(b, s, source, 4096)).isEqualTo(NtStatus.STATUS_SUCCESS);
            b.memory.poke(source.pfns()[0], 0, new byte[]{1, 2, 3, 4});
            b.memory.poke(source.virtualAddress() / 4096, 0, new byte[]{1, 2, 3, 4});
            NtStatus posted = b.a.write("w", new NdkSge[]{new NdkSge(source.virtualAddress(), 4, s.getLocalToken())},
                    target.virtualAddress(), t.getRemoteToken(), 0);
            assertThat(posted).isEqualTo(NtStatus.STATUS_SUCCESS);
            MisbehavioursTest.drain(b, 1);
            long vaFrame = target.virtualAddress() / 4096;
            byte[] inMdl = java.util.Arrays.copyOf(b.memory.snapshot(target.pfns()[0]), 4);
            byte[] atVa = java.util.Arrays.copyOf(b.memory.snapshot(vaFrame), 4);
            boolean fault = provider.startsWith("fault:");
            assertThat(fault ? atVa : inMdl).containsExactly(1, 2, 3, 4);
            assertThat(fault ? inMdl : atVa).containsExactly(0, 0, 0, 0);
        }
    }
}
