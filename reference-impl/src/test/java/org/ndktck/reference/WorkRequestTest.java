package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.ndktck.reference.Fixture.sge;
import static org.ndktck.spec.NtStatus.STATUS_ACCESS_VIOLATION;
import static org.ndktck.spec.NtStatus.STATUS_CANCELLED;
import static org.ndktck.spec.NtStatus.STATUS_CONNECTION_INVALID;
import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkOpFlags;
import org.ndktck.spec.NdkOperationType;
import org.ndktck.spec.NdkQp;
import org.ndktck.spec.NdkResult;
import org.ndktck.spec.NdkResultEx;
import org.ndktck.spec.NtStatus;

/** Work requests and the CQ: entries, SILENT_SUCCESS, DEFER, flush, inline failures. */
class WorkRequestTest {

    private static final long BVA = 0x7000_0000L;

    /** A LAM of {@code pages} pages. */
    private static NdkLogicalAddressMapping lam(Fixture f, int pages) {
        return f.lam(f.buffer(0x6600_0000L, pages * f.pageSize), (long) pages * f.pageSize);
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending", "mixed"})
    void aFastRegistrationCompletesOnceWithItsContextsAndType(String completion) {
        try (Fixture f = Fixture.open("completion=" + completion)) {
            NdkLogicalAddressMapping lam = lam(f, 2);
            NdkMr mr = f.initialized(2, true);
            int initToken = mr.getRemoteToken();
            Object context = new Object();
            assertThat(f.qpA.fastRegister(context, mr, 2, lam.adapterPageArray(), 0, 0x2000, BVA, 0x38))
                    .isEqualTo(STATUS_SUCCESS);
            int token = mr.getRemoteToken();
            assertThat(token).isNotEqualTo(initToken).isEqualTo(mr.getRemoteToken()).isEqualTo(mr.getLocalToken());
            List<NdkResultEx> entries = f.drain(1);
            assertThat(entries).singleElement().satisfies(e -> {
                assertThat(e.status()).isEqualTo(STATUS_SUCCESS);
                assertThat(e.requestContext()).isSameAs(context);
                assertThat(e.qpContext()).isEqualTo("A");
                assertThat(e.type()).isEqualTo(NdkOperationType.FAST_REGISTER);
            });
            assertThat(f.completionOf(c -> f.qpA.invalidate(c, mr, 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(f.completionOf(c -> f.qpA.fastRegister(c, mr, 2, lam.adapterPageArray(), 0, 0x2000, BVA, 0x38)))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(mr.getRemoteToken()).as("fresh on every fast registration").isNotEqualTo(token);
        }
    }

    @Test
    void silentSuccessGivesNoEntryButASilentFailureDoes() {
        try (Fixture f = Fixture.open()) {
            NdkLogicalAddressMapping lam = lam(f, 1);
            NdkMr mr = f.initialized(1, true);
            assertThat(f.qpA.fastRegister("fr", mr, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0x38 | NdkOpFlags.SILENT_SUCCESS))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.qpA.invalidate("inv", mr, 0)).isEqualTo(STATUS_SUCCESS);
            assertThat(f.drain(1)).extracting(NdkResultEx::requestContext).containsExactly("inv");
            NdkMr l = f.registered(f.buffer(0x5000_0000L, 0x10), 0x10, 0x1);
            assertThat(f.qpA.write("bad", sge(0x5000_0000L, 8, l.getLocalToken()), 0x1234, 0x4321, NdkOpFlags.SILENT_SUCCESS))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.drain(1)).singleElement().satisfies(e -> {
                assertThat(e.requestContext()).isEqualTo("bad");
                assertThat(e.status()).isEqualTo(STATUS_ACCESS_VIOLATION);
            });
        }
    }

    @Test
    void deferredRequestsWaitForARequestWithoutDefer() {
        try (Fixture f = Fixture.open()) {
            NdkLogicalAddressMapping lam = lam(f, 1);
            NdkMr a = f.initialized(1, true);
            NdkMr b = f.initialized(1, true);
            assertThat(f.qpA.fastRegister("a", a, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0x38 | NdkOpFlags.DEFER))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.qpA.fastRegister("b", b, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0x38 | NdkOpFlags.DEFER))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.drain(0)).as("held").isEmpty();
            assertThat(f.qpA.invalidate("inv", a, 0)).isEqualTo(STATUS_SUCCESS);
            assertThat(f.drain(3)).extracting(NdkResultEx::requestContext).containsExactly("a", "b", "inv");
        }
    }

    @Test
    void anInlineFailureFirstReleasesDeferredRequests() {
        // DEF-4, the deferred-processing page's own example
        try (Fixture f = Fixture.open()) {
            NdkLogicalAddressMapping lam = lam(f, 1);
            NdkMr good = f.initialized(1, true);
            NdkMr local = f.initialized(1, false);
            assertThat(f.qpA.fastRegister("fr1", good, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0x38 | NdkOpFlags.DEFER))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(f.qpA.fastRegister("fr2", local, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0x8 | NdkOpFlags.DEFER))
                    .isEqualTo(STATUS_ACCESS_VIOLATION);
            assertThat(f.drain(1)).extracting(NdkResultEx::requestContext).containsExactly("fr1");
        }
    }

    @Test
    void deferIsUndefinedOnVersion11() {
        try (Fixture f = Fixture.open("ndkVersion=1.1")) {
            NdkLogicalAddressMapping lam = lam(f, 1);
            NdkMr mr = f.initialized(1, true);
            assertThat(f.qpA.fastRegister("fr", mr, 1, lam.adapterPageArray(), 0, 0x1000, BVA, NdkOpFlags.DEFER))
                    .isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(f.qpA.send("s", new org.ndktck.spec.NdkSge[0], NdkOpFlags.DEFER)).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(f.drain(0)).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"inline", "pending"})
    void flushCancelsEveryPendingRequest(String completion) {
        try (Fixture f = Fixture.open("completion=" + completion)) {
            NdkMr sink = f.registered(f.buffer(0x5000_0000L, 0x100), 0x100, 0x1);
            for (int i = 0; i < 8; i++) {
                assertThat(f.qpB.receive("r" + i, sge(0x5000_0000L, 0x100, sink.getLocalToken()))).isEqualTo(STATUS_SUCCESS);
            }
            NdkLogicalAddressMapping lam = lam(f, 1);
            NdkMr mr = f.initialized(1, true);
            assertThat(f.qpB.fastRegister("held", mr, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0x38 | NdkOpFlags.DEFER))
                    .isEqualTo(STATUS_SUCCESS);
            int heldToken = mr.getRemoteToken();
            f.qpB.flush();
            List<NdkResultEx> entries = f.drain(9);
            assertThat(entries).hasSize(9).extracting(NdkResultEx::status).containsOnly(STATUS_CANCELLED);
            // the cancelled fast registration never took effect: the MR can be fast-registered again elsewhere
            NdkMr l = f.registered(f.buffer(0x5100_0000L, 0x10), 0x10, 0x1);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(0x5100_0000L, 8, l.getLocalToken()), BVA, heldToken, 0)))
                    .isNotEqualTo(STATUS_SUCCESS);
            // a flushed QP accepts requests and cancels them
            assertThat(f.completionOf(c -> f.qpB.receive(c, sge(0x5000_0000L, 0x10, sink.getLocalToken()))))
                    .isEqualTo(STATUS_CANCELLED);
        }
    }

    @Test
    void requestsOnAnUnconnectedQpFailInlineWithNoEntry() {
        try (Fixture f = Fixture.open()) {
            NdkQp lonely = f.newQp("lonely");
            NdkLogicalAddressMapping lam = lam(f, 1);
            NdkMr mr = f.initialized(1, true);
            NdkMr l = f.registered(f.buffer(0x5000_0000L, 0x10), 0x10, 0x1);
            NdkMr fastRegistered = f.initialized(1, true);
            assertThat(f.completionOf(c -> f.qpA.fastRegister(c, fastRegistered, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0)))
                    .isEqualTo(STATUS_SUCCESS);
            assertThat(lonely.fastRegister("x", mr, 1, lam.adapterPageArray(), 0, 0x1000, BVA, 0)).isEqualTo(STATUS_CONNECTION_INVALID);
            assertThat(lonely.invalidate("x", fastRegistered, 0)).isEqualTo(STATUS_CONNECTION_INVALID);
            assertThat(lonely.read("x", sge(0x5000_0000L, 8, l.getLocalToken()), 0, 0, 0)).isEqualTo(STATUS_CONNECTION_INVALID);
            assertThat(lonely.write("x", sge(0x5000_0000L, 8, l.getLocalToken()), 0, 0, 0)).isEqualTo(STATUS_CONNECTION_INVALID);
            assertThat(lonely.send("x", sge(0x5000_0000L, 8, l.getLocalToken()), 0)).isEqualTo(STATUS_CONNECTION_INVALID);
            assertThat(lonely.sendAndInvalidate("x", sge(0x5000_0000L, 8, l.getLocalToken()), 1, 0)).isEqualTo(STATUS_CONNECTION_INVALID);
            assertThat(lonely.receive("r", sge(0x5000_0000L, 8, l.getLocalToken()))).as("receives may wait").isEqualTo(STATUS_SUCCESS);
            assertThat(f.drain(0)).isEmpty();
        }
    }

    @Test
    void getCqResultsRemovesAtMostTheArrayLength() {
        try (Fixture f = Fixture.open()) {
            NdkMr l = f.registered(f.buffer(0x5000_0000L, 0x10), 0x10, 0x1);
            for (int i = 0; i < 3; i++) {
                assertThat(f.qpA.write(i, sge(0x5000_0000L, 8, l.getLocalToken()), 0, 0, 0)).isEqualTo(STATUS_SUCCESS);
            }
            NdkResult[] one = new NdkResult[1];
            assertThat(f.cq.getCqResults(one)).isEqualTo(1);
            assertThat(one[0].requestContext()).isEqualTo(0);
            assertThat(f.cq.getCqResults(one)).isEqualTo(1);
            assertThat(f.cq.getCqResultsEx(new NdkResultEx[1])).isEqualTo(1);
            assertThat(f.cq.getCqResults(one)).isZero();
            assertThat(f.cq.getCqResults(new NdkResult[0])).isZero();
        }
    }

    @Test
    void tooManySgesOrTooMuchInlineDataFailInline() {
        try (Fixture f = Fixture.open()) {
            NdkMr l = f.registered(f.buffer(0x5000_0000L, 0x1000), 0x1000, 0x1);
            int t = l.getLocalToken();
            org.ndktck.spec.NdkSge[] five = new org.ndktck.spec.NdkSge[5];
            java.util.Arrays.fill(five, new org.ndktck.spec.NdkSge(0x5000_0000L, 1, t));
            assertThat(f.qpA.send("s", five, 0)).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(f.qpB.receive("r", five)).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(f.qpA.send("s", sge(0x5000_0000L, 129, t), NdkOpFlags.INLINE)).isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(f.qpA.send("s", sge(0x9999_0000L, 16, t), NdkOpFlags.INLINE))
                    .as("inline data the adapter cannot reach").isEqualTo(STATUS_INVALID_PARAMETER);
            assertThat(f.drain(0)).isEmpty();
        }
    }

    @Test
    void closingAQpCancelsItsRequestsAndDisconnectsThePeer() {
        try (Fixture f = Fixture.open()) {
            NdkMr sink = f.registered(f.buffer(0x5000_0000L, 0x100), 0x100, 0x1);
            assertThat(f.qpB.receive("r", sge(0x5000_0000L, 0x100, sink.getLocalToken()))).isEqualTo(STATUS_SUCCESS);
            NtStatus close = Fixture.close(c -> f.qpB.close(c, null));
            assertThat(close).isIn(STATUS_SUCCESS, NtStatus.STATUS_PENDING);
            assertThat(f.drain(1)).extracting(NdkResultEx::status).containsExactly(STATUS_CANCELLED);
            assertThat(f.qpA.send("s", sge(0x5000_0000L, 8, sink.getLocalToken()), 0)).isEqualTo(STATUS_CONNECTION_INVALID);
        }
    }
}
