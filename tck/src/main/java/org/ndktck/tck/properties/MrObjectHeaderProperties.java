package org.ndktck.tck.properties;

import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NdkObjectHeader;
import org.ndktck.spec.NdkVersion;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Violations;

/**
 * The NDK_MR object header (catalog section "NDK_MR object header"; the NDK_MR and NDK_OBJECT_HEADER pages).
 */
@NdkKit
public class MrObjectHeaderProperties {

    /**
     * OBJ-1: the header of an MR, normal or fast-register, says NdkObjectTypeMr (4), never 0, right after
     * the create and after a registration.
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("OBJ-1")
    void mrHeaderNamesTheMrType(@ForAll boolean fastRegister) {
        NdkSession.inTry(s -> {
            NdkMr mr = s.createMr(s.target(), fastRegister);
            if (fastRegister) {
                s.initializeFastRegister(mr, 1, true);
            }
            s.checkMrHeader(() -> "NdkCreateMr(FastRegister=" + (fastRegister ? "TRUE" : "FALSE") + ") and its first call", mr);
        });
    }

    /**
     * OBJ-2: the header version is an NDKPI version: Major at least 1 and no later than the version the
     * adapter reports in NDK_ADAPTER_INFO (AMB-15: 1.1 on Windows Server 2012, 1.2 on 2012 R2, higher
     * on later releases).
     */
    @Property(tries = 100, generation = GenerationMode.RANDOMIZED)
    @Tag("OBJ-2")
    void mrHeaderVersionIsTheAdaptersNdkVersion(@ForAll boolean fastRegister) {
        String[] seen = {""};
        NdkSession.inTry(s -> {
            NdkMr mr = s.createMr(s.target(), fastRegister);
            NdkObjectHeader h = s.invoker().call("NDK_OBJECT_HEADER", () -> "NDK_MR.Header", mr::header);
            NdkVersion v = h.version();
            NdkVersion adapter = s.info().version();
            seen[0] = String.valueOf(v);
            if (v == null || v.major() < 1 || (adapter != null && !adapter.atLeast(v))) {
                throw Violations.of("OBJ-2", "NDK_MR.Header of NdkCreateMr(FastRegister=" + (fastRegister ? "TRUE" : "FALSE") + ")",
                        "Header.Version with Major >= 1 and no later than NDK_ADAPTER_INFO.Version " + adapter, "Header.Version = " + v);
            }
        });
        Observations.collect(Observations.VERSION, seen[0]);
    }

    /**
     * OBJ-2, on the adapter's own NDK_OBJECT_HEADER: the same test as for the MR. The adapter is where the kit
     * learns the version from (NDK_ADAPTER_INFO), so a header that disagrees with it misleads every consumer.
     */
    @Property(tries = 10, generation = GenerationMode.RANDOMIZED)
    @Tag("OBJ-2")
    void adapterHeaderVersionIsTheAdaptersNdkVersion() {
        NdkSession.inTry(s -> {
            NdkObjectHeader h = s.invoker().call("NDK_OBJECT_HEADER", () -> "NDK_ADAPTER.Header", s.adapter()::header);
            NdkVersion v = h == null ? null : h.version();
            NdkVersion adapter = s.info().version();
            if (v == null || v.major() < 1 || (adapter != null && !adapter.atLeast(v))) {
                throw Violations.of("OBJ-2", "NDK_ADAPTER.Header",
                        "Header.Version with Major >= 1 and no later than NDK_ADAPTER_INFO.Version " + adapter,
                        h == null ? "no header" : "Header.Version = " + v);
            }
        });
    }
}
