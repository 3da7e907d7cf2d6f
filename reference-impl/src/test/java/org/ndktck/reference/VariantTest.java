package org.ndktck.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.ndktck.reference.Fixture.sge;
import static org.ndktck.reference.Fixture.sync;
import static org.ndktck.spec.NtStatus.STATUS_INVALID_PARAMETER;
import static org.ndktck.spec.NtStatus.STATUS_SUCCESS;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.ndktck.spec.HostMemory;
import org.ndktck.spec.Mdl;
import org.ndktck.spec.NdkAdapter;
import org.ndktck.spec.NdkLogicalAddressMapping;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;

/**
 * The structure the fault catalogue builds on: each kind of fault in it is one or two replaced pieces,
 * and each visibly changes what the provider does (while the reference does not).
 */
class VariantTest {

    private static ReferenceProvider.Builder fault(String name) {
        return ReferenceProvider.builder().name(name);
    }

    private static NdkMr localSink(Fixture f) {
        return f.registered(f.buffer(0x5000_0000L, 0x1000), 0x1000, 0x1);
    }

    @Test
    void kind1TheEndOfARegistrationWraps() {
        ReferenceProvider p = fault("fault:MR-REG-12").replace(Pieces.MR_REG_12, RuleCheck.pass()).build();
        try (Fixture f = Fixture.open(p)) {
            NdkMr mr = f.newMr(false);
            assertThat(sync(c -> mr.register(f.buffer(0xFFFF_FFFF_FFFF_F000L, 0x2000), 0x2000, 0x7, c, null)))
                    .isEqualTo(STATUS_SUCCESS);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 0x10, l.getLocalToken()), 0,
                    mr.getRemoteToken(), 0))).as("the wrapped part reads the second page").isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void kind2LengthZeroMeansNoBounds() {
        RegionBounds standard = Pieces.BOUNDS.standard();
        ReferenceProvider p = fault("fault:MR-FR-14").replace(Pieces.MR_FR_14, RuleCheck.pass())
                .replace(Pieces.BOUNDS, (r, a, n) -> r.length() == 0 || standard.permits(r, a, n)).build();
        try (Fixture f = Fixture.open(p)) {
            NdkLogicalAddressMapping lam = f.lam(f.buffer(0x6600_0000L, 0x1000), 0x1000);
            NdkMr mr = f.initialized(1, true);
            assertThat(f.completionOf(c -> f.qpB.fastRegister(c, mr, 1, lam.adapterPageArray(), 0, 0, 0x10000, 0x38)))
                    .isEqualTo(STATUS_SUCCESS);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(0x5000_0000L, 64, l.getLocalToken()), 0x10000,
                    mr.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void kind3PageCountNotCheckedAgainstInitialization() {
        ReferenceProvider p = fault("fault:MR-FR-18").replace(Pieces.MR_FR_18, RuleCheck.pass()).build();
        for (ReferenceProvider provider : List.of(new ReferenceProvider(), p)) {
            try (Fixture f = Fixture.open(provider)) {
                NdkLogicalAddressMapping lam = f.lam(f.buffer(0x6600_0000L, 257 * 4096), 257L * 4096);
                NdkMr mr = f.initialized(256, true);
                NtStatus s = f.qpA.fastRegister("fr", mr, 257, lam.adapterPageArray(), 0, 257L * 4096, 0x100000, 0x38);
                assertThat(s).isEqualTo(provider == p ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER);
            }
        }
    }

    @Test
    void kind4PagesNeededComputedWithoutFbo() {
        ReferenceProvider p = fault("fault:MR-FR-3/no-fbo").replace(Pieces.MR_FR_3, r -> {
            long pages = (r.length() + r.adapter().pageSize() - 1) / r.adapter().pageSize();
            return pages <= r.pageCount() ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
        }).build();
        try (Fixture f = Fixture.open(p)) {
            NdkLogicalAddressMapping lam = f.lam(f.buffer(0x6600_0000L, 0x1000), 0x1000);
            NdkMr mr = f.initialized(1, true);
            assertThat(f.completionOf(c -> f.qpA.fastRegister(c, mr, 1, lam.adapterPageArray(), 0xF00, 0x200,
                    0x7000F00L, 0x38))).isEqualTo(STATUS_SUCCESS);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpB.write(c, sge(0x5000_0000L, 0x200, l.getLocalToken()), 0x7000F00L,
                    mr.getRemoteToken(), 0))).as("no frame backs the second page").isNotEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void kind5FboDropped() {
        ReferenceProvider p = fault("fault:MR-FR-9/fbo-dropped").replace(Pieces.FBO_PLACEMENT, (fbo, bva, ps) -> 0)
                .build();
        try (Fixture f = Fixture.open(p)) {
            Mdl buf = f.buffer(0x7000_0200L, 0x1000);
            NdkLogicalAddressMapping lam = f.lam(buf, 0x1000);
            NdkMr mr = f.initialized(2, true);
            assertThat(f.completionOf(c -> f.qpB.fastRegister(c, mr, 2, lam.adapterPageArray(), 0x200, 0x1000,
                    0x7000200L, 0x38))).isEqualTo(STATUS_SUCCESS);
            Mdl src = f.buffer(0x5000_0000L, 0x10);
            NdkMr l = f.registered(src, 0x10, 0x1);
            f.poke(src, 0, Fixture.pattern(0x10, 1));
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(0x5000_0000L, 0x10, l.getLocalToken()), 0x7000200L,
                    mr.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
            assertThat(java.util.Arrays.copyOf(f.memory.snapshot(buf.pfns()[0]), 0x10))
                    .as("landed at the start of page 0").isEqualTo(Fixture.pattern(0x10, 1));
        }
    }

    @Test
    void kind6BaseVirtualAddressNotTiedToFbo() {
        ReferenceProvider p = fault("fault:MR-FR-4").replace("MR-FR-4", RuleCheck.pass()).build();
        try (Fixture f = Fixture.open(p)) {
            NdkLogicalAddressMapping lam = f.lam(f.buffer(0x6600_0000L, 0x4000), 0x4000);
            NdkMr mr = f.initialized(4, true);
            assertThat(f.qpA.fastRegister("fr", mr, 4, lam.adapterPageArray(), 0x40, 0x100, 0x50000, 0x38))
                    .isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void kind7AccessByWholePages() {
        ReferenceProvider p = fault("fault:MR-REG-4/per-page").replace(Pieces.BOUNDS, (r, a, n) -> {
            long mask = r.pageSize() - 1L;
            long start = r.base() & ~mask;
            long end = (r.base() + r.length() + mask) & ~mask;
            return Long.compareUnsigned(a, start) >= 0 && Long.compareUnsigned(a + n, end) <= 0;
        }).build();
        try (Fixture f = Fixture.open(p)) {
            NdkMr t = f.registered(f.buffer(0x1000_0100L, 0x1E00), 0x1E00, 0x7);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 0x10, l.getLocalToken()), 0x1000_0000L,
                    t.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void kind8ChainSizeInsteadOfLength() {
        ReferenceProvider p = fault("fault:MR-REG-13/chain-size").replace(Pieces.EXTENT, (length, chain) -> chain)
                .build();
        try (Fixture f = Fixture.open(p)) {
            Mdl a = f.buffer(0x2000_0000L, 4096);
            a.setNext(f.buffer(0x2000_1000L, 4096).setNext(f.buffer(0x2000_2000L, 4096)));
            NdkMr t = f.registered(a, 5000, 0x2);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 1, l.getLocalToken()), 0x2000_0000L + 5000,
                    t.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void kind9UndefinedBit4GrantsRemoteWrite() {
        MrAccessFlags standard = Pieces.MR_ACCESS_FLAGS.standard();
        ReferenceProvider p = fault("fault:MR-REG-14").replace(Pieces.MR_REG_14, RuleCheck.pass())
                .replace(Pieces.MR_ACCESS_FLAGS, flags -> standard.access(flags)
                        | ((flags & 0x4) != 0 ? Access.REMOTE_WRITE : 0)).build();
        try (Fixture f = Fixture.open(p)) {
            NdkMr t = f.registered(f.buffer(0x1000_0000L, 0x100), 0x100, 0x4);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(0x5000_0000L, 8, l.getLocalToken()), 0x1000_0000L,
                    t.getRemoteToken(), 0))).isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void kind10ReadSinkRejected() {
        ReferenceProvider p = fault("fault:MR-REG-7").replace(Pieces.MR_REG_7,
                r -> (r.flags() & 0x8) != 0 ? STATUS_INVALID_PARAMETER : STATUS_SUCCESS).build();
        try (Fixture f = Fixture.open(p)) {
            NdkMr mr = f.newMr(false);
            assertThat(sync(c -> mr.register(f.buffer(0x1000_0000L, 0x100), 0x100, 0x9, c, null)))
                    .isEqualTo(STATUS_INVALID_PARAMETER);
        }
    }

    @Test
    void kind12LengthComparedIn32Bits() {
        ReferenceProvider p = fault("fault:MR-REG-13/32-bit").replace(Pieces.MR_REG_13,
                r -> Integer.toUnsignedLong((int) r.length()) <= r.chain().totalByteCount() ? STATUS_SUCCESS
                        : STATUS_INVALID_PARAMETER).build();
        try (Fixture f = Fixture.open(p)) {
            NdkMr mr = f.newMr(false);
            assertThat(sync(c -> mr.register(f.buffer(0x1000_0000L, 0x1000), 0x1_0000_0800L, 0x2, c, null)))
                    .isEqualTo(STATUS_SUCCESS);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 8, l.getLocalToken()), 0x1000_0000L + 0x2000,
                    mr.getRemoteToken(), 0))).as("no frame, no crash").isNotEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void thePrivilegedTokenGrantsRemoteAccessWhenOnlyPriv2IsReplaced() {
        ReferenceProvider p = fault("fault:PRIV-2").replace(Pieces.PRIV_2, RuleCheck.pass()).build();
        for (ReferenceProvider provider : List.of(new ReferenceProvider(), p)) {
            try (Fixture f = Fixture.open(provider)) {
                NdkLogicalAddressMapping lam = f.lam(f.buffer(0x6600_0000L, 0x1000), 0x1000);
                NdkMr l = localSink(f);
                NtStatus s = f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 8, l.getLocalToken()),
                        lam.adapterPageArray()[0], f.pd.getPrivilegedMemoryRegionToken(), 0));
                assertThat(s.equals(STATUS_SUCCESS)).isEqualTo(provider == p);
            }
        }
    }

    @Test
    void zeroBasedAddressingIsAddressingPlusBounds() {
        RegionBounds standard = Pieces.BOUNDS.standard();
        ReferenceProvider p = fault("fault:MR-REG-4/zero-based")
                .replace(Pieces.ADDRESSING, (r, a) -> Long.compareUnsigned(a, r.length()) < 0 ? a : a - r.base())
                .replace(Pieces.BOUNDS, (r, a, n) -> standard.permits(r, a, n)
                        || (Long.compareUnsigned(a, r.length()) < 0 && Long.compareUnsigned(n, r.length() - a) <= 0))
                .build();
        for (ReferenceProvider provider : List.of(new ReferenceProvider(), p)) {
            try (Fixture f = Fixture.open(provider)) {
                Mdl target = f.buffer(0x1000_0000L, 0x1000);
                NdkMr t = f.registered(target, 0x1000, 0x7);
                NdkMr l = localSink(f);
                NtStatus s = f.completionOf(c -> f.qpA.read(c, sge(0x5000_0000L, 8, l.getLocalToken()), 0x10,
                        t.getRemoteToken(), 0));
                assertThat(s.equals(STATUS_SUCCESS)).isEqualTo(provider == p);
            }
        }
    }

    @Test
    void tokenFaults() {
        ReferenceProvider sameToken = fault("fault:MR-TOK-6").replace(Pieces.TOKEN_ALLOCATOR,
                seed -> request -> request.purpose() == TokenPurpose.PRIVILEGED ? 1 : 0x1234).build();
        try (Fixture f = Fixture.open(sameToken)) {
            NdkMr a = f.registered(f.buffer(0x1000_0000L, 0x100), 0x100, 0x2);
            NdkMr b = f.registered(f.buffer(0x1100_0000L, 0x100), 0x100, 0x2);
            assertThat(a.getRemoteToken()).isEqualTo(b.getRemoteToken());
        }
        ReferenceProvider keepsToken = fault("fault:MR-DEREG-3").replace(Pieces.TOKEN_RETIREMENT,
                event -> event != RetireEvent.DEREGISTER).build();
        try (Fixture f = Fixture.open(keepsToken)) {
            NdkMr t = f.registered(f.buffer(0x1000_0000L, 0x100), 0x100, 0x7);
            int token = t.getRemoteToken();
            assertThat(sync(c -> t.deregister(c, null))).isEqualTo(STATUS_SUCCESS);
            NdkMr l = localSink(f);
            assertThat(f.completionOf(c -> f.qpA.write(c, sge(0x5000_0000L, 8, l.getLocalToken()), 0x1000_0000L, token, 0)))
                    .isEqualTo(STATUS_SUCCESS);
        }
    }

    @Test
    void decoratorsWrapEveryAdapterInOrder() {
        List<String> order = new ArrayList<>();
        ReferenceProvider p = fault("fault:decorated").decorateAdapters(a -> {
            order.add("first");
            return a;
        }).decorateAdapters(a -> {
            order.add("second");
            return new ForwardingAdapter(a);
        }).build();
        NdkAdapter adapter = p.configure(Map.of()).openAdapter(new HostMemory(4096));
        assertThat(adapter).isInstanceOf(ForwardingAdapter.class);
        assertThat(order).containsExactly("first", "second");
        adapter.close();
        assertThat(p.name()).isEqualTo("fault:decorated");
        assertThat(p.policy().replacedIds()).isEmpty();
    }

    @Test
    void replacingByIdChecksTheInterface() {
        assertThatThrownBy(() -> ReferenceProvider.builder().replace("MR-FR-4", (RegionBounds) (r, a, n) -> true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MR-FR-4");
        assertThatThrownBy(() -> ReferenceProvider.builder().replace("NO-SUCH-RULE", RuleCheck.pass()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NO-SUCH-RULE");
        ReferenceProvider p = ReferenceProvider.builder().name("fault:x").replace("MR-FR-4", RuleCheck.pass())
                .replace(Pieces.BOUNDS, (r, a, n) -> true).build();
        assertThat(p.policy().replacedIds()).containsExactly("MR-FR-4", "bounds");
        assertThat(p.description()).contains("MR-FR-4");
    }

    /** A decorator as the fault catalogue would write one. */
    private record ForwardingAdapter(NdkAdapter inner) implements NdkAdapter {
        public org.ndktck.spec.NdkObjectHeader header() {
            return inner.header();
        }

        public org.ndktck.spec.NdkAdapterInfo queryAdapterInfo() {
            return inner.queryAdapterInfo();
        }

        public int pageSize() {
            return inner.pageSize();
        }

        public org.ndktck.spec.CreateResult<org.ndktck.spec.NdkPd> createPd(
                org.ndktck.spec.CreateCompletion<org.ndktck.spec.NdkPd> c, Object ctx) {
            return inner.createPd(c, ctx);
        }

        public org.ndktck.spec.CreateResult<org.ndktck.spec.NdkCq> createCq(int d,
                org.ndktck.spec.CreateCompletion<org.ndktck.spec.NdkCq> c, Object ctx) {
            return inner.createCq(d, c, ctx);
        }

        public NtStatus buildLam(Mdl mdl, long length, org.ndktck.spec.RequestCompletion c, Object ctx,
                                 NdkLogicalAddressMapping lam) {
            return inner.buildLam(mdl, length, c, ctx, lam);
        }

        public void releaseLam(NdkLogicalAddressMapping lam) {
            inner.releaseLam(lam);
        }

        public NtStatus connectLoopback(org.ndktck.spec.NdkQp a, org.ndktck.spec.NdkQp b) {
            return inner.connectLoopback(a, b);
        }

        public void close() {
            inner.close();
        }
    }
}
