package org.ndktck.tck.properties;

import org.ndktck.tck.harness.Created;
import org.ndktck.tck.harness.Refusals;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.statistics.Statistics;
import org.ndktck.spec.NdkMr;
import org.ndktck.spec.NtStatus;
import org.ndktck.tck.harness.NdkKit;
import org.ndktck.tck.harness.NdkSession;
import org.ndktck.tck.harness.Violations;

/** NdkCreateMr (catalog section "NdkCreateMr"; the NDK_FN_CREATE_MR page). */
@NdkKit
public class CreateMrProperties {

    /**
     * MR-CREATE-2: NdkCreateMr on a fresh PD, for FastRegister TRUE and FALSE, ends in STATUS_SUCCESS,
     * inline (the MR in the out parameter) or through its completion after STATUS_PENDING. The table also
     * allows STATUS_INSUFFICIENT_RESOURCES: such a try is rejected (jqwik fails the property when too many
     * are), never counted as a pass.
     */
    @Property(tries = 200, generation = GenerationMode.RANDOMIZED)
    @Tag("MR-CREATE-2")
    void createMrSucceedsInlineOrThroughItsCompletion(@ForAll boolean fastRegister) {
        String[] how = {""};
        NdkSession.inTry(s -> {
            Created<NdkMr> c = s.createMrRaw(s.target(), fastRegister);
            Refusals.discardIfRefused(c.status());
            if (!c.succeeded()) {
                throw Violations.of("MR-CREATE-2", c.call(), "STATUS_SUCCESS, inline or through the completion, on a fresh PD", c.describe());
            }
            how[0] = c.returned().isPending() ? "through the completion" : "inline";
        });
        Observations.collect(fastRegister ? Observations.CREATE_FAST : Observations.CREATE_NORMAL, how[0]);
    }
}
