package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.ndktck.reference.Fixture.pattern;
import static org.ndktck.reference.Fixture.sge;
import static org.ndktck.reference.Fixture.sync;
import static org.ndktck.spec.NtStatus.STATUS_ACCESS_VIOLATION;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkPd;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;
import org.junit.jupiter.api.Test;

/** The loopback data path: bytes move through page frames only, and every protection check holds. */
class DataPathTest {

    /** A local buffer registered with local write (source or sink of 0x2000 bytes). */
    private static final long LOCAL_VA = 0x5550_0000L;

    private static byte[][] snapshot(Fixture f, Mdl... mdls) {
        java.util.List<byte[]> frames = new java.util.ArrayList<>();
        for (Mdl m : mdls) {
            for (long pfn : m.pfns()) {
                frames.add(f.memory.snapshot(pfn));
            }
        }
        return frames.toArray(new byte[0][]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending", "mixed"})
    void writeThenReadMovesTheBytes(String completion) {
        try (Fixture f = Fixture.open("completion=" + completion, "seed=3")) {
            Mdl target = f.buffer(0x1000_0100L, 0x1E00);
            NdkMr t = f.registered(target, 0x1E00, 0x7);
            Mdl local = f.buffer(LOCAL_VA, 0x2000);
            NdkMr l = f.registered(local, 0x2000, 0x1);
            byte[] data = pattern(0x1800, 1);
            f.poke(local, 0, data);
            assertThat(f.completionOf(ctx -> f.qpA.write(ctx, sge(LOCAL_VA, 0x1800, l.getLocalToken()),
                    0x1000_0110L, t.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.peek(target, 0x10, 0x1800)).isEqualTo(data);
            f.poke(local, 0, new byte[0x1800]);
            assertThat(f.completionOf(ctx -> f.qpA.read(ctx, sge(LOCAL_VA + 0x100, 0x1800, l.getLocalToken()),
                    0x1000_0110L, t.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.peek(local, 0x100, 0x1800)).isEqualTo(data);
        }
    }

    @Test
    void accessIsGrantedByBytesNotPages() {
        // length arithmetic: an MDL at VA 0x10000100, Length 0x1E00; a peer read at 0x10000000 must fail
        try (Fixture f = Fixture.open()) {
            Mdl target = f.buffer(0x1000_0100L, 0x1E00);
            NdkMr t = f.registered(target, 0x1E00, 0x7);
            Mdl local = f.buffer(LOCAL_VA, 0x2000);
            NdkMr l = f.registered(local, 0x2000, 0x9);
            int lt = l.getLocalToken();
            int rt = t.getRemoteToken();
            byte[][] before = snapshot(f, target, local);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 0x10, lt), 0x1000_0000L, rt, 0))).isNotEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 1, lt), 0x1000_00FFL, rt, 0))).isNotEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 2, lt), 0x1000_1EFFL, rt, 0)))
                    .isEqualTo(NtStatus.STATUS_REMOTE_RESOURCES);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 1, lt), 0x1000_1F00L, rt, 0))).isNotEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 0x1E01, lt), 0x1000_0100L, rt, 0)))
                    .isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 0x10, lt), 0x100, rt, 0)))
                    .as("zero-based address").isNotEqualTo(STATUS_SUCCESS);
            assertThat(snapshot(f, target, local)).as("no byte changed").isDeepEqualTo(before);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 1, lt), 0x1000_1EFFL, rt, 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 0x1E00, lt), 0x1000_0100L, rt, 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.memory.guardAccesses()).isEmpty();
        }
    }

    @Test
    void theRegionIsLengthBytesNotTheChain() {
        // length arithmetic: three 4096-byte MDLs, Length 5000; a peer read at VA + 5000 must fail
        try (Fixture f = Fixture.open()) {
            Mdl a = f.buffer(0x2000_0000L, 4096);
            a.setNext(f.buffer(0x2000_1000L, 4096).setNext(f.buffer(0x2000_2000L, 4096)));
            NdkMr t = f.registered(a, 5000, 0x2);
            NdkMr l = f.registered(f.buffer(LOCAL_VA, 0x100), 0x100, 0x1);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 1, l.getLocalToken()), 0x2000_0000L + 5000,
                    t.getRemoteToken(), 0))).isNotEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 1, l.getLocalToken()), 0x2000_0000L + 4999,
                    t.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void aChainWhoseMdlsShareAPageMovesBytesThroughOneFrameForIt() {
        try (Fixture f = Fixture.open()) {
            // one buffer of 0x1800 bytes described by two MDLs that meet mid-page: both list the page they share
            Mdl whole = f.buffer(0x3000_0000L, 0x1800);
            long[] pfns = whole.pfnsCopy();
            Mdl a = Mdl.of(f.pageSize, 0x3000_0000L, 0x800, new long[]{pfns[0]});
            Mdl b = Mdl.of(f.pageSize, 0x3000_0800L, 0x1000, new long[]{pfns[0], pfns[1]});
            a.setNext(b);
            NdkMr t = f.registered(a, 0x1800, 0x7);
            Mdl local = f.buffer(LOCAL_VA, 0x2000);
            NdkMr l = f.registered(local, 0x2000, 0x1);
            byte[] data = pattern(0x1000, 9);
            f.poke(local, 0, data);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 0x1000, l.getLocalToken()), 0x3000_0400L,
                    t.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.peek(whole, 0x400, 0x1000)).isEqualTo(data);
        }
    }

    @Test
    void aChainThatPutsOnePageInTwoFramesIsRefused() {
        try (Fixture f = Fixture.open()) {
            Mdl a = f.buffer(0x3000_0000L, 0x800);
            a.setNext(f.buffer(0x3000_0800L, 0x1000));
            assertThat(sync(c -> f.newMr(false).register(a, 0x1800, 0x7, c, null)))
                    .as("MR-REG-2/split-page").isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            assertThat(sync(c -> f.newMr(false).register(a, 0x800, 0x7, c, null)))
                    .as("Length within the first MDL").isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void flagsGrantExactlyTheirAccess() {
        try (Fixture f = Fixture.open()) {
            NdkMr l = f.registered(f.buffer(LOCAL_VA, 0x100), 0x100, 0x1);
            int lt = l.getLocalToken();
            int[][] cases = {{0x0, 0, 0}, {0x1, 0, 0}, {0x2, 1, 0}, {0x5, 0, 1}, {0x7, 1, 1}, {0x8, 0, 0}};
            long va = 0x4000_0000L;
            for (int[] c : cases) {
                Mdl target = f.buffer(va, 0x100);
                NdkMr t = f.registered(target, 0x100, c[0]);
                long tva = va;
                NtStatus read = f.completionOf(x -> f.qpA.read(x, sge(LOCAL_VA, 8, lt), tva, t.getRemoteToken(), 0));
                NtStatus write = f.completionOf(x -> f.qpA.write(x, sge(LOCAL_VA, 8, lt), tva, t.getRemoteToken(), 0));
                assertThat(read.equals(STATUS_SUCCESS)).as("read with flags 0x%X", c[0]).isEqualTo(c[1] == 1);
                assertThat(write.equals(STATUS_SUCCESS)).as("write with flags 0x%X", c[0]).isEqualTo(c[2] == 1);
                va += 0x10000;
            }
        }
    }

    @Test
    void tokensGrantNothingAfterDeregistrationAndTheyAreFresh() {
        try (Fixture f = Fixture.open()) {
            Mdl target = f.buffer(0x1000_0000L, 0x1000);
            NdkMr t = f.registered(target, 0x1000, 0x7);
            NdkMr l = f.registered(f.buffer(LOCAL_VA, 0x100), 0x100, 0x1);
            int old = t.getRemoteToken();
            assertThat(sync(c -> t.deregister(c, null))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, l.getLocalToken()), 0x1000_0000L, old, 0)))
                    .isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(0x1000_0000L, 8, old), 0x1000_0000L, old, 0)))
                    .as("stale local token").isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(sync(c -> t.register(target, 0x1000, 0x7, c, null))).isEqualTo(STATUS_SUCCESS);
            assertThat(t.getRemoteToken()).isNotEqualTo(old);
        }
    }

    @Test
    void thePrivilegedTokenGrantsLocalLamAccessButNeverRemote() {
        try (Fixture f = Fixture.open()) {
            Mdl buf = f.buffer(0x6000_0000L, 0x2000);
            NdkLogicalAddressMapping lam = f.lam(buf, 0x2000);
            int priv = f.pd.getPrivilegedMemoryRegionToken();
            long la = lam.adapterPageArray()[0];
            assertThat(la).isNotEqualTo(buf.pfns()[0] * f.pageSize);
            NdkMr l = f.registered(f.buffer(LOCAL_VA, 0x100), 0x100, 0x1);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 8, l.getLocalToken()), la, priv, 0)))
                    .isNotEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, l.getLocalToken()), 0x6000_0000L, priv, 0)))
                    .isNotEqualTo(STATUS_SUCCESS);
            // local: send from the LAM with the privileged token, receive into the LAM
            byte[] data = pattern(0x1800, 4);
            f.poke(buf, 0, data);
            Mdl sink = f.buffer(0x6100_0000L, 0x2000);
            NdkLogicalAddressMapping sinkLam = f.lam(sink, 0x2000);
            assertThat(f.qpB.receive("r", sge(sinkLam.adapterPageArray()[0], 0x2000, priv))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.qpA.send("s", sge(la, 0x1800, priv), 0)).isEqualTo(STATUS_SUCCESS);
            List<NdkResultEx> entries = f.drain(2);
            assertThat(entries).extracting(NdkResultEx::status).containsOnly(STATUS_SUCCESS);
            assertThat(f.peek(sink, 0, 0x1800)).isEqualTo(data);
            // the privileged token of another PD is no good here
            NdkPd other = Fixture.create(c -> f.adapter.createPd(c, null));
            assertThat(f.completionOf(c -> f.qpA.send(c, sge(la, 8, other.getPrivilegedMemoryRegionToken()), 0)))
                    .isEqualTo(STATUS_ACCESS_VIOLATION);
            // released: the logical addresses are gone
            f.adapter.releaseLam(lam);
            assertThat(f.completionOf(c -> f.qpA.send(c, sge(la, 8, priv), 0))).isEqualTo(STATUS_ACCESS_VIOLATION);
        }
    }

    @Test
    void buildLamMapsPagesAndReleaseLeavesTheMdlAsItWas() {
        try (Fixture f = Fixture.open("pageSize=16384")) {
            Mdl a = f.buffer(0x7000_0100L, 0x3F00);
            Mdl b = f.buffer(0x7000_4000L, 0x5000);
            a.setNext(b);
            int modifications = a.modificationCount() + b.modificationCount();
            long[] pfnsA = a.pfnsCopy();
            NdkLogicalAddressMapping small = new NdkLogicalAddressMapping(16 + 8 * 2);
            assertThat(sync(c -> f.adapter.buildLam(a, 0x8000, c, null, small))).isEqualTo(NtStatus.STATUS_BUFFER_TOO_SMALL);
            assertThat(Integer.toUnsignedLong(small.lamSize())).isEqualTo(16 + 8 * 3);
            NdkLogicalAddressMapping lam = new NdkLogicalAddressMapping(small.lamSize());
            assertThat(sync(c -> f.adapter.buildLam(a, 0x8000, c, null, lam))).isEqualTo(STATUS_SUCCESS);
            assertThat(lam.adapterPageCount()).isEqualTo(3);
            assertThat(lam.fbo()).isEqualTo(0x100);
            assertThat(lam.lamSize()).isEqualTo(16 + 8 * 3);
            for (int i = 0; i < 3; i++) {
                long la = lam.adapterPageArray()[i];
                assertThat(la & (f.pageSize - 1)).isZero();
                assertThat(la).isNotIn(a.pfns()[0] * f.pageSize, b.pfns()[0] * f.pageSize);
            }
            f.adapter.releaseLam(lam);
            f.adapter.releaseLam(lam);
            assertThat(a.next()).isSameAs(b);
            assertThat(a.modificationCount() + b.modificationCount()).isEqualTo(modifications);
            assertThat(a.pfns()).isEqualTo(pfnsA);
            NdkMr mr = f.initialized(3, true);
            assertThat(f.qpA.fastRegister("fr", mr, 3, lam.adapterPageArray(), 0x100, 0x100, 0x100, 0))
                    .as("released logical addresses are not live").isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            Mdl broken = f.buffer(0x7100_0000L, 0x4000);
            broken.setNext(f.buffer(0x7200_0000L, 0x4000));
            assertThat(sync(c -> f.adapter.buildLam(broken, 0x4001, c, null, new NdkLogicalAddressMapping(1024))))
                    .isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            assertThat(sync(c -> f.adapter.buildLam(broken, 0x4000, c, null, new NdkLogicalAddressMapping(1024))))
                    .isEqualTo(STATUS_SUCCESS);
            Mdl split = f.buffer(0x7300_0000L, 0x800);
            split.setNext(f.buffer(0x7300_0800L, 0x800));
            assertThat(sync(c -> f.adapter.buildLam(split, 0x1000, c, null, new NdkLogicalAddressMapping(1024))))
                    .as("one page in two frames").isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
        }
    }

    @Test
    void fastRegistrationPlacesByteBaseVirtualAddressAtFbo() {
        // length arithmetic: 2 pages, FBO 0x200, Length 0x1000, BaseVirtualAddress 0x7000200
        try (Fixture f = Fixture.open()) {
            Mdl buf = f.buffer(0x7000_0200L, 0x1000);
            NdkLogicalAddressMapping lam = f.lam(buf, 0x1000);
            assertThat(lam.adapterPageCount()).isEqualTo(2);
            assertThat(lam.fbo()).isEqualTo(0x200);
            NdkMr mr = f.initialized(2, true);
            assertThat(f.completionOf(c -> f.qpB.fastRegister(c, mr, 2, lam.adapterPageArray(), 0x200, 0x1000,
                    0x7000200L, 0x38))).isEqualTo(STATUS_SUCCESS);
            byte[] data = pattern(64, 7);
            assertThat(f.peerWrite(0x5560_0000L, data, 0x7000200L, mr.getRemoteToken())).isEqualTo(STATUS_SUCCESS);
            assertThat(f.peek(buf, 0, 64)).isEqualTo(data);
            assertThat(f.memory.snapshot(buf.pfns()[0])[0]).as("page 0 offset 0 untouched").isZero();
        }
    }

    @Test
    void theConsumerMayReuseItsPageArrayOnceFastRegisterReturns() {
        try (Fixture f = Fixture.open()) {
            Mdl buf = f.buffer(0x7000_0000L, 0x2000);
            NdkLogicalAddressMapping lam = f.lam(buf, 0x2000);
            NdkMr mr = f.initialized(2, true);
            long[] pages = lam.adapterPageArray().clone();
            assertThat(f.completionOf(c -> f.qpB.fastRegister(c, mr, 2, pages, 0, 0x2000, 0x7000000L, 0x38)))
                    .isEqualTo(STATUS_SUCCESS);
            java.util.Arrays.fill(pages, 0x1234_5000L);
            byte[] data = pattern(64, 11);
            assertThat(f.peerWrite(0x5580_0000L, data, 0x7001000L, mr.getRemoteToken()))
                    .as("second page, after the consumer overwrote its array").isEqualTo(STATUS_SUCCESS);
            assertThat(f.peek(buf, 0x1000, 64)).isEqualTo(data);
        }
    }

    @Test
    void aSendAndInvalidateWithAnInvalidTokenAbortsTheConnection() {
        try (Fixture f = Fixture.open()) {
            NdkMr l = f.registered(f.buffer(LOCAL_VA, 0x100), 0x100, 0x1);
            int lt = l.getLocalToken();
            NdkMr sink = f.registered(f.buffer(0x5570_0000L, 0x100), 0x100, 0x1);
            NdkMr target = f.registered(f.buffer(0x7100_0000L, 0x100), 0x100, 0x5);
            assertThat(f.qpB.receive("recv", sge(0x5570_0000L, 0x100, sink.getLocalToken()))).isEqualTo(STATUS_SUCCESS);
            // INV-6: the token names a normal registration, which no SendAndInvalidate may invalidate
            assertThat(f.qpA.sendAndInvalidate("sendinv", sge(LOCAL_VA, 0x10, lt), target.getRemoteToken(), 0)).isEqualTo(STATUS_SUCCESS);
            List<NdkResultEx> entries = f.drain(2);
            assertThat(entries).allSatisfy(e -> assertThat(e.status()).isNotEqualTo(STATUS_SUCCESS));
            // the connection is gone: a valid write on it is cancelled, and the receiver's next receive too
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, lt), 0x7100_0000L, target.getRemoteToken(), 0)))
                    .isEqualTo(NtStatus.STATUS_CANCELLED);
            assertThat(f.completionOf(c -> f.qpB.receive(c, sge(0x5570_0000L, 0x100, sink.getLocalToken()))))
                    .isEqualTo(NtStatus.STATUS_CANCELLED);
        }
    }

    @Test
    void invalidationAndRemoteInvalidationKillTheToken() {
        try (Fixture f = Fixture.open()) {
            Mdl buf = f.buffer(0x7000_0000L, 0x1000);
            NdkLogicalAddressMapping lam = f.lam(buf, 0x1000);
            NdkMr mr = f.initialized(1, true);
            NdkMr l = f.registered(f.buffer(LOCAL_VA, 0x100), 0x100, 0x1);
            int lt = l.getLocalToken();
            assertThat(f.completionOf(c -> f.qpB.fastRegister(c, mr, 1, lam.adapterPageArray(), 0, 0x1000, 0x7000000L, 0x38)))
                    .isEqualTo(STATUS_SUCCESS);
            int first = mr.getRemoteToken();
            assertThat(f.completionOf(c -> f.qpB.invalidate(c, mr, 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, lt), 0x7000000L, first, 0))).isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.qpB.invalidate("again", mr, 0)).as("nothing to invalidate").isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            assertThat(f.completionOf(c -> f.qpB.fastRegister(c, mr, 1, lam.adapterPageArray(), 0, 0x1000, 0x7000000L, 0x38)))
                    .isEqualTo(STATUS_SUCCESS);
            int second = mr.getRemoteToken();
            assertThat(second).isNotEqualTo(first);
            // remote invalidation by the peer's SendAndInvalidate, drained with GetCqResults (INV-5)
            NdkMr sink = f.registered(f.buffer(0x5570_0000L, 0x100), 0x100, 0x1);
            assertThat(f.qpB.receive("recv", sge(0x5570_0000L, 0x100, sink.getLocalToken()))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.qpA.sendAndInvalidate("sendinv", sge(LOCAL_VA, 0x10, lt), second, 0)).isEqualTo(STATUS_SUCCESS);
            NdkResult[] plain = new NdkResult[4];
            int n = f.cq.getCqResults(plain);
            assertThat(n).isEqualTo(2);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, lt), 0x7000000L, second, 0))).isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.qpB.invalidate("after remote", mr, 0)).isEqualTo(NtStatus.STATUS_INVALID_PARAMETER);
            // and the receive completion says ReceiveAndInvalidate with the token, when read with Ex
            assertThat(f.completionOf(c -> f.qpB.fastRegister(c, mr, 1, lam.adapterPageArray(), 0, 0x1000, 0x7000000L, 0x38)))
                    .isEqualTo(STATUS_SUCCESS);
            int third = mr.getRemoteToken();
            assertThat(f.qpB.receive("recv2", sge(0x5570_0000L, 0x100, sink.getLocalToken()))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.qpA.sendAndInvalidate("sendinv2", sge(LOCAL_VA, 0x10, lt), third, 0)).isEqualTo(STATUS_SUCCESS);
            List<NdkResultEx> entries = f.drain(2);
            NdkResultEx recv = entries.stream().filter(e -> "recv2".equals(e.requestContext())).findFirst().orElseThrow();
            assertThat(recv.type()).isEqualTo(NdkOperationType.RECEIVE_AND_INVALIDATE);
            assertThat(recv.typeSpecificCompletionOutput()).isEqualTo(Integer.toUnsignedLong(third));
            assertThat(recv.bytesTransferred()).isEqualTo(0x10);
            assertThat(recv.qpContext()).isEqualTo("B");
        }
    }

    @Test
    void aReadWithLocalInvalidateInvalidatesTheSinkRegistration() {
        try (Fixture f = Fixture.open("ndkVersion=1.2")) {
            NdkMr target = f.registered(f.buffer(0x1000_0000L, 0x100), 0x100, 0x2);
            Mdl sinkBuf = f.buffer(0x7000_0000L, 0x1000);
            NdkLogicalAddressMapping lam = f.lam(sinkBuf, 0x1000);
            NdkMr sink = f.initialized(1, false);
            assertThat(f.completionOf(c -> f.qpA.fastRegister(c, sink, 1, lam.adapterPageArray(), 0, 0x1000, 0x7000000L, 0x90)))
                    .isEqualTo(STATUS_SUCCESS);
            int st = sink.getLocalToken();
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x7000000L, 0x10, st), 0x1000_0000L, target.getRemoteToken(), 0x100)))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x7000000L, 0x10, st), 0x1000_0000L, target.getRemoteToken(), 0)))
                    .as("the sink token was invalidated").isEqualTo(STATUS_ACCESS_VIOLATION);
        }
        try (Fixture f = Fixture.open("ndkVersion=1.1")) {
            NdkMr target = f.registered(f.buffer(0x1000_0000L, 0x100), 0x100, 0x2);
            NdkMr sink = f.registered(f.buffer(0x7000_0000L, 0x100), 0x100, 0x1);
            for (int i = 0; i < 2; i++) {
                assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x7000_0000L, 0x10, sink.getLocalToken()), 0x1000_0000L,
                        target.getRemoteToken(), 0x100))).as("the flag is ignored on 1.1").isEqualTo(STATUS_SUCCESS);
            }
        }
    }

    @Test
    void withoutReadSinkNotRequiredAReadSinkNeedsTheReadSinkFlag() {
        try (Fixture f = Fixture.open("readSinkNotRequired=false")) {
            NdkMr target = f.registered(f.buffer(0x1000_0000L, 0x100), 0x100, 0x2);
            NdkMr plain = f.registered(f.buffer(0x5000_0000L, 0x100), 0x100, 0x1);
            NdkMr withSink = f.registered(f.buffer(0x5100_0000L, 0x100), 0x100, 0x9);
            int rt = target.getRemoteToken();
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 8, plain.getLocalToken()), 0x1000_0000L, rt, 0)))
                    .isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x5100_0000L, 8, withSink.getLocalToken()), 0x1000_0000L, rt, 0)))
                    .isEqualTo(STATUS_SUCCESS);
        }
        try (Fixture f = Fixture.open("readSinkNotRequired=true")) {
            NdkMr target = f.registered(f.buffer(0x1000_0000L, 0x100), 0x100, 0x2);
            NdkMr plain = f.registered(f.buffer(0x5000_0000L, 0x100), 0x100, 0x1);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 8, plain.getLocalToken()), 0x1000_0000L,
                    target.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void localSgesAreCheckedAndInlineIgnoresTheToken() {
        try (Fixture f = Fixture.open()) {
            Mdl targetMdl = f.buffer(0x1000_0000L, 0x100);
            NdkMr target = f.registered(targetMdl, 0x100, 0x7);
            Mdl src = f.buffer(LOCAL_VA, 0x100);
            NdkMr readOnly = f.registered(src, 0x100, 0x0);
            int rt = target.getRemoteToken();
            int lt = readOnly.getLocalToken();
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA + 0xF8, 16, lt), 0x1000_0000L, rt, 0)))
                    .as("SGE past its region").isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(LOCAL_VA, 8, lt), 0x1000_0000L, rt, 0)))
                    .as("sink without local write").isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, 0x7777_7777), 0x1000_0000L, rt, 0)))
                    .as("unknown token").isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, lt), 0x1000_0000L, rt, 0)))
                    .isEqualTo(STATUS_SUCCESS);
            // INLINE: token ignored (SGE-3)
            byte[] data = pattern(32, 5);
            f.poke(src, 0, data);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 32, 0xFFFF_FFFF), 0x1000_0040L, rt, 0x40)))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.peek(targetMdl, 0x40, 32)).isEqualTo(data);
            // another PD's registration is no local source here
            NdkPd other = Fixture.create(c -> f.adapter.createPd(c, null));
            NdkMr foreign = Fixture.create(c -> other.createMr(false, c, null));
            assertThat(sync(c -> foreign.register(f.buffer(0x5900_0000L, 0x100), 0x100, 0x1, c, null))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(0x5900_0000L, 8, foreign.getLocalToken()), 0x1000_0000L, rt, 0)))
                    .isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(LOCAL_VA, 8, lt), 0x5900_0000L, foreign.getRemoteToken(), 0)))
                    .as("target token of another PD").isEqualTo(STATUS_ACCESS_VIOLATION);
        }
    }

    @Test
    void sendWaitsForAReceiveAndTooSmallReceivesFail() {
        try (Fixture f = Fixture.open()) {
            Mdl src = f.buffer(LOCAL_VA, 0x100);
            NdkMr s = f.registered(src, 0x100, 0x1);
            Mdl dst = f.buffer(0x5800_0000L, 0x100);
            NdkMr d = f.registered(dst, 0x100, 0x1);
            byte[] data = pattern(0x80, 3);
            f.poke(src, 0, data);
            assertThat(f.qpA.send("s1", sge(LOCAL_VA, 0x80, s.getLocalToken()), 0)).isEqualTo(STATUS_SUCCESS);
            assertThat(f.drain(0)).isEmpty();
            assertThat(f.qpB.receive("r1", sge(0x5800_0000L, 0x100, d.getLocalToken()))).isEqualTo(STATUS_SUCCESS);
            List<NdkResultEx> e = f.drain(2);
            assertThat(e).extracting(NdkResultEx::requestContext).containsExactlyInAnyOrder("s1", "r1");
            assertThat(e).extracting(NdkResultEx::status).containsOnly(STATUS_SUCCESS);
            assertThat(f.peek(dst, 0, 0x80)).isEqualTo(data);
            assertThat(f.qpB.receive("r2", sge(0x5800_0000L, 0x10, d.getLocalToken()))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.qpA.send("s2", sge(LOCAL_VA, 0x80, s.getLocalToken()), 0)).isEqualTo(STATUS_SUCCESS);
            assertThat(f.drain(2)).extracting(NdkResultEx::status).doesNotContain(STATUS_SUCCESS);
        }
    }
}
