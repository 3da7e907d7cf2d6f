package org.ndktck.tck.properties;

import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Violations;

/**
 * Properties of NDK_ADAPTER_INFO (catalog section "NDK_ADAPTER_INFO"; the NDK_ADAPTER_INFO page). AI-2 is
 * not black-box testable, AI-3 informational, AI-4 binds the kit (the SPI has no CQ resize).
 */
@NdkKit
public class AdapterInfoProperties {

    /**
     * AI-1: NdkQueryAdapterInfo of a freshly opened adapter reports FRMRPageCount (a ULONG, read unsigned)
     * of at least 16. The input space is one adapter, so one try suffices.
     */
    @Property(tries = 1)
    @Tag("AI-1")
    void frmrPageCountIsAtLeastSixteen() {
        NdkSession.inTry(s -> {
            NdkAdapterInfo info = s.invoker().call("NdkQueryAdapterInfo", () -> "NdkQueryAdapterInfo()", () -> s.adapter().queryAdapterInfo());
            if (info == null) {
                throw Violations.of("AI-1", "NdkQueryAdapterInfo()", "an NDK_ADAPTER_INFO", "none (null)");
            }
            if (info.unsignedFrmrPageCount() < 16) {
                throw Violations.of("AI-1", "NdkQueryAdapterInfo()", "FRMRPageCount >= 16", "FRMRPageCount = " + info.unsignedFrmrPageCount());
            }
        });
    }
}
