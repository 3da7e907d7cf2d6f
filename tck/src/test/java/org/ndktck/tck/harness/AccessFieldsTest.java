package org.ndktck.tck.harness;

import org.junit.jupiter.api.Test;
import org.ndktck.tck.report.Counterexample;

import java.math.BigInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The harness describes a peer access with the fields report.html draws (RemoteAddress, AccessLength, Access). */
class AccessFieldsTest {
    @Test
    void aPeerAccessCarriesTheFieldsTheDrawingReads() {
        String write = ConnectedPeer.accessFields("write", 0xFFFFFFFFFFFFF000L, 64);
        assertThat(write).isEqualTo("[Access=write, RemoteAddress=0xFFFFFFFFFFFFF000, AccessLength=0x40]");
        Counterexample cx = Counterexample.parse(write);
        assertThat(cx.access()).isEqualTo("write");
        assertThat(cx.get("RemoteAddress")).contains(new BigInteger("FFFFFFFFFFFFF000", 16));
        assertThat(cx.get("AccessLength")).contains(BigInteger.valueOf(64));
        assertThat(Counterexample.parse(ConnectedPeer.accessFields("read", 0x10000000L, 1)).access()).isEqualTo("read");
    }
}
